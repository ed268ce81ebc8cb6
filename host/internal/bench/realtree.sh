#!/bin/sh
# realtree.sh DIR writes the tree of public repositories that make bench
# REAL=DIR times issue 32's goals on: 13 repositories of C, C++, Go, Java,
# Ruby, Python and Rust at fixed commits, about 119,000 files and 915 MB,
# each in DIR/NAME without its .git. Needs git and the network.
set -eu
dir=${1:?usage: realtree.sh DIR}
mkdir -p "$dir"
while read -r repo commit; do
	name=${repo#*/}
	[ -e "$dir/$name" ] && continue
	git init -q "$dir/$name"
	git -C "$dir/$name" fetch -q --depth 1 "https://github.com/$repo" "$commit"
	git -C "$dir/$name" checkout -q FETCH_HEAD
	rm -rf "$dir/$name/.git"
done <<'LIST'
apache/arrow 515410b2a14ac766258e00b07eab9e5ee2692a62
apache/kafka 1eb7644349cb07139d6a3c1ad1986979647cac99
buildroot/buildroot e991fa071605a78c17adba2ed26e07c3b8c95583
duckdb/duckdb 044a04a7cd39e6e8235f756597ae42dde084e5e5
etcd-io/etcd c34dc7ee0048fd2bcc44d50beff002e5e8069b69
moby/moby b985e2313a8676e18072b442911fc8f64f17d440
prometheus/prometheus d15adb9ad7e5d9fbde3a9a8f30200593a5a14d86
rails/rails 2a2db1e8d6d104ee0611efcae7eb023af65cff34
scipy/scipy 3dbf660a919b1479cdf30d533176053b428d08d3
spring-projects/spring-boot c329ffa25dc160a90ebe5e4b006ad4cdf89d8683
sympy/sympy e950d313a932bc6cccbc95376b3821cd2f8b5af4
tokio-rs/tokio ea91b33ca57ff0581b38e735cc108f831bccbdaa
u-boot/u-boot 6073c36b2c8d39afe3ecc789b281667a3ddebc70
LIST
