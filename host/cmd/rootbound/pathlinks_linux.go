package main

import "golang.org/x/sys/unix"

// inProc reports whether the directory dir is in /proc (a procfs).
func inProc(dir int) bool {
	var st unix.Statfs_t
	return unix.Fstatfs(dir, &st) == nil && st.Type == unix.PROC_SUPER_MAGIC
}
