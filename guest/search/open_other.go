//go:build !wasip1

package search

import "syscall"

// open opens a regular file for reading without following a final symbolic
// link and without blocking (a FIFO that replaced a listed file must not
// hang the search); the caller checks what it opened before reading.
func open(name string) (int, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// fileType returns whether fd is a regular file, and its size.
func fileType(fd int) (regular bool, size int64, err error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return false, 0, err
	}
	return st.Mode&syscall.S_IFMT == syscall.S_IFREG, st.Size, nil
}
