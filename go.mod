module github.com/rootbound/rootbound

go 1.26.8

require (
	github.com/bmatcuk/doublestar/v4 v4.10.4 // indirect
	github.com/coreos/go-semver v0.3.1 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/tetratelabs/wazero v1.12.0 // indirect
	go.bytecodealliance.org v0.6.2 // indirect
	golang.org/x/sys v0.44.0 // indirect
)
