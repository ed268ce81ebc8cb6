//go:build unix

package main

import (
	"fmt"
	"strings"

	"golang.org/x/sys/unix"
)

// systemLink reports whether a link in dir is the system's own layout: dir
// is one this user cannot write. A link in /proc is not: /proc/self and
// every process's cwd, root and fd name what the process that resolves
// them sees (a resident server's, not its caller's).
func systemLink(dir string) bool {
	if dir == "/proc" || strings.HasPrefix(dir, "/proc/") {
		return false
	}
	return unix.Access(dir, unix.W_OK) != nil
}

// dirID names the file at path by its device and inode ("" if it cannot
// be read): a resident server keeps a runner per root under it, so a PATH
// that names another directory than before (moved, and another made in
// its place) gets a runner of its own.
func dirID(path string) string {
	var st unix.Stat_t
	if unix.Stat(path, &st) != nil {
		return ""
	}
	return fmt.Sprintf("%d:%d", st.Dev, st.Ino)
}
