//go:build unix

package host

import (
	"io"
	"os"

	"golang.org/x/sys/unix"

	"github.com/rootbound/rootbound/host/internal/rootfs"
)

// above is a directory above a root, reached through the one below it
// (a ".."), never by a name.
type above struct{ fd int }

// aboveOf returns dir's own directory, as an above, and the components of
// its real path (how many levels there are above it, and their names).
func aboveOf(dir *os.File) (above, []string, error) {
	fd, err := rootfs.Reopen(dir, rootfs.SearchDir)
	if err != nil {
		return above{}, nil, err
	}
	return above{fd: fd}, components(rootfs.RealPath(fd, dir.Name())), nil
}

func (a above) parent() (above, error) {
	fd, err := unix.Openat(a.fd, "..", rootfs.SearchDir, 0)
	return above{fd: fd}, err
}

func (a above) close() { unix.Close(a.fd) }

// isRepo reports whether the directory is the top of a git repository (or
// worktree): it holds a .git, of any type.
func (a above) isRepo() bool {
	var st unix.Stat_t
	return unix.Fstatat(a.fd, ".git", &st, unix.AT_SYMLINK_NOFOLLOW) == nil
}

// maxIgnoreFile bounds what is read of an ignore file from above a root:
// a byte more than a root's policies can carry (MaxPolicyBytes), so that
// a larger file is never applied cut short: NewRunner refuses the policy,
// and the command leaves it out and says so.
const maxIgnoreFile = MaxPolicyBytes + 1

// read reads the file name below the directory (links followed, as rg
// reads these), without blocking, when it is a regular file.
func (a above) read(name string) ([]byte, error) {
	fd, err := unix.Openat(a.fd, name, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, errNotRegular
	}
	return io.ReadAll(io.LimitReader(f, maxIgnoreFile))
}
