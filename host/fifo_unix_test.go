//go:build unix

package host

import "syscall"

// mkfifo makes a FIFO at p.
func mkfifo(p string) error { return syscall.Mkfifo(p, 0o644) }
