//go:build windows

package search

import "syscall"

// read reads into b from fd, a handle opened for synchronous reads.
func read(fd int, b []byte) (int, error) {
	n, err := syscall.Read(syscall.Handle(fd), b)
	if err == syscall.ERROR_HANDLE_EOF {
		err = nil
	}
	return max(n, 0), err
}
