//go:build unix

package host

import "syscall"

// cacheOpenFlags open an index cache file without following a link, and
// without blocking should a FIFO be there.
const cacheOpenFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC
