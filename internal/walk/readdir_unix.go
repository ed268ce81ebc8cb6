//go:build unix

package walk

import (
	"os"

	"golang.org/x/sys/unix"
)

// readDir lists the directory fd. It reads through a descriptor of its
// own, so fd's offset is never moved.
func (*Walker) readDir(fd int, _ string) ([]Entry, error) {
	own, err := unix.Openat(fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return list(os.NewFile(uintptr(own), "."))
}
