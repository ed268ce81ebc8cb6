package rootfs

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/tetratelabs/wazero/sys"
	"golang.org/x/sys/unix"
)

// hasOpenat2 reports whether the kernel has openat2 (Linux 5.6 and later).
//
// Why openat2: a component-at-a-time walk costs an openat and a close per
// component, so opening a file five directories deep costs ten system
// calls; openat2 resolves the whole path in the kernel in one call, with
// RESOLVE_BENEATH (no step out of the directory) and RESOLVE_NO_SYMLINKS (no
// link at any component: ELOOP). Measured on the Go tree with BENEATH
// alone against os.Root's walk: a grep through the rootbound command went
// from about 2.1 s to 1.2 s.
func hasOpenat2(fd int) bool {
	if os.Getenv(NoOpenat2Env) != "" {
		return false
	}
	probe, err := openat2(fd, ".", unix.O_PATH|unix.O_CLOEXEC)
	if err != nil {
		return false
	}
	unix.Close(probe)
	return true
}

const resolve = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS

// openat2 opens p below the directory fd, following no link.
func openat2(fd int, p string, flags int) (int, error) {
	for {
		nfd, err := unix.Openat2(fd, p, &unix.OpenHow{Flags: uint64(flags), Resolve: resolve})
		if err != unix.EINTR {
			return nfd, err
		}
	}
}

// lstatOpenat2 describes p itself, opened as a path only: a link at its end
// is opened, not followed (O_PATH|O_NOFOLLOW under RESOLVE_NO_SYMLINKS),
// and described; one before its end is refused. Two system calls and a
// close, against three and a close through the parent directory: a glob
// sorted by mtime stats every file.
func lstatOpenat2(d *Dir, p string) (sys.Stat_t, error) {
	fd, err := openat2(d.fd, p, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC)
	if err != nil {
		return sys.Stat_t{}, err
	}
	defer unix.Close(fd)
	return fstat(fd)
}

// RealPath is the directory's path as the kernel names it now (its
// descriptor's in /proc/self/fd), or name's real path where that cannot
// be read.
func (d *Dir) RealPath(name string) string { return RealPath(d.fd, name) }

// RealPath is the path of the directory open as fd, as the kernel names it
// now, or name's real path where that cannot be read.
func RealPath(fd int, name string) string {
	if p, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd)); err == nil && filepath.IsAbs(p) {
		return p
	}
	return realPath(name)
}
