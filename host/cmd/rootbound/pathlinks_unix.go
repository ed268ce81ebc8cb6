//go:build unix

package main

import "golang.org/x/sys/unix"

// systemLink reports whether a link in dir is the system's own layout: dir
// is one this user cannot write.
func systemLink(dir string) bool { return unix.Access(dir, unix.W_OK) != nil }
