//go:build unix && !linux

package rootfs

import "golang.org/x/sys/unix"

// SearchDir opens a directory to look at and to open names below (O_PATH
// is Linux's: here it must be readable).
const SearchDir = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC

// searchFlag: without O_PATH a directory that cannot be listed cannot be
// held open.
const searchFlag = 0
