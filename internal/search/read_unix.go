//go:build unix || wasip1

package search

import "syscall"

// read reads into b, retrying an interrupted call. A file opened without
// blocking answers EAGAIN on a runtime whose reads are streams (the WASI
// 0.2 command adapter): it is made blocking then, once, and read again; a
// regular file never blocks for long, and it was checked to be one.
func read(fd int, b []byte) (int, error) {
	madeBlocking := false
	for {
		n, err := syscall.Read(fd, b)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN && !madeBlocking:
			madeBlocking = true
			if syscall.SetNonblock(fd, false) == nil {
				continue
			}
		}
		return max(n, 0), err
	}
}
