//go:build unix

package private

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/rootbound/rootbound/host/internal/rootfs"
)

// maxLinks bounds the system links followed on the way, as the kernel
// bounds a path's (40).
const maxLinks = 40

// check walks dir from "/" a component at a time: each opened relative to
// the one above without following a link, described by the descriptor
// opened (fstat), never by name.
func check(dir string) error {
	// Not cleaned: "l/.." is what the kernel would resolve, through l.
	abs := dir
	if !filepath.IsAbs(dir) {
		cwd, err := os.Getwd()
		if err != nil {
			return err
		}
		abs = cwd + "/" + dir
	}
	uid := uint32(os.Getuid())
	fd, err := unix.Open("/", rootfs.SearchDir, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: "/", Err: err}
	}
	defer func() { unix.Close(fd) }()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	at := "/"
	todo := components(abs)
	links := 0
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		above := st
		next, err := openDir(fd, name)
		if errors.Is(err, unix.ENOENT) && name != ".." {
			if err := unix.Mkdirat(fd, name, 0o700); err != nil && !errors.Is(err, unix.EEXIST) {
				return &os.PathError{Op: "mkdir", Path: filepath.Join(at, name), Err: err}
			}
			next, err = openDir(fd, name)
		}
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.EMLINK) {
			var lst unix.Stat_t
			if unix.Fstatat(fd, name, &lst, unix.AT_SYMLINK_NOFOLLOW) == nil && lst.Mode&unix.S_IFMT == unix.S_IFLNK {
				where := filepath.Join(at, name)
				if !systemLink(above, lst, uid) {
					return fmt.Errorf("%s is a link (the way to %s may hold none but root's own)", where, abs)
				}
				if links++; links > maxLinks {
					return &os.PathError{Op: "open", Path: where, Err: unix.ELOOP}
				}
				target, err := readlinkat(fd, name)
				if err != nil {
					return &os.PathError{Op: "readlink", Path: where, Err: err}
				}
				if filepath.IsAbs(target) {
					root, err := unix.Open("/", rootfs.SearchDir, 0)
					if err != nil {
						return err
					}
					unix.Close(fd)
					fd, at = root, "/"
					if err := unix.Fstat(fd, &st); err != nil {
						return err
					}
				}
				todo = append(components(target), todo...)
				continue
			}
		}
		if err != nil {
			return &os.PathError{Op: "open", Path: filepath.Join(at, name), Err: err}
		}
		unix.Close(fd)
		fd, at = next, filepath.Join(at, name)
		if err := unix.Fstat(fd, &st); err != nil {
			return err
		}
		if name != ".." && !heldBy(above, st, uid) {
			return fmt.Errorf("%s can be renamed or replaced by another user (its directory %s is writable by others)", at, filepath.Dir(at))
		}
		last := len(todo) == 0
		switch {
		case st.Uid != uid && (last || st.Uid != 0):
			return fmt.Errorf("%s is not this user's (owner %d)", at, st.Uid)
		case last && st.Mode&0o077 != 0:
			return fmt.Errorf("%s can be opened by other users (mode %#o)", at, st.Mode&0o7777)
		case !last && st.Mode&0o022 != 0 && st.Mode&unix.S_ISVTX == 0:
			return fmt.Errorf("%s can be written by other users, and is not sticky", at)
		}
	}
	return nil
}

// components are the names of a path, "." and empty ones left out.
func components(p string) []string {
	var out []string
	for _, c := range strings.Split(p, "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return out
}

// openDir opens name below fd as a directory to search, not following a
// link.
func openDir(fd int, name string) (int, error) {
	for {
		nfd, err := unix.Openat(fd, name, rootfs.SearchDir|unix.O_NOFOLLOW, 0)
		if err != unix.EINTR {
			return nfd, err
		}
	}
}

// heldBy reports whether no user but root and uid can rename or replace
// an entry whose directory is above: one only they can write, or a sticky
// one, where only an entry's owner (and the directory's) can.
func heldBy(above, entry unix.Stat_t, uid uint32) bool {
	if above.Mode&0o022 == 0 {
		return true
	}
	return above.Mode&unix.S_ISVTX != 0 && (entry.Uid == uid || entry.Uid == 0)
}

// systemLink reports whether a link (lst) in the directory above is the
// system's own layout: root's, in a directory of root's that no one else
// can write. Root, who makes every such link, follows none (as a PATH of
// the command is read).
func systemLink(above, lst unix.Stat_t, uid uint32) bool {
	return uid != 0 && lst.Uid == 0 && above.Uid == 0 && above.Mode&0o022 == 0
}

func readlinkat(fd int, name string) (string, error) {
	buf := make([]byte, 4096)
	n, err := unix.Readlinkat(fd, name, buf)
	if err != nil {
		return "", err
	}
	if n == len(buf) {
		return "", unix.ENAMETOOLONG
	}
	return string(buf[:n]), nil
}
