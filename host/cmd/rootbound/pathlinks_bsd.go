//go:build unix && !linux

package main

// inProc: a /proc of links naming a process's own files is Linux's.
func inProc(int) bool { return false }
