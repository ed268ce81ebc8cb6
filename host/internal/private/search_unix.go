//go:build unix && !linux

package private

import "golang.org/x/sys/unix"

// searchFlags open a directory to look at (O_PATH is Linux's).
const searchFlags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC
