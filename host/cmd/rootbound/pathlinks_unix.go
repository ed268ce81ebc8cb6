//go:build unix

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/rootbound/rootbound/host/internal/rootfs"
)

// maxPathLinks bounds the system links a PATH may pass through, as the
// kernel bounds a path's (40).
const maxPathLinks = 40

// openPath opens the PATH arg once, a component at a time from the
// working directory (a relative PATH, ".." included: the caller's own
// directory is where they are, however they reached it) or from "/" (an
// absolute one), each name looked at and opened relative to the
// directory above it without following a link: a link at any component is
// refused, whatever comes after it ("links/out/../x" goes through out),
// unless it is the system's own layout (systemLink). It returns the
// directory to search (the caller closes it), and the name of the file in
// it when arg names a regular file ("" for a directory). What is searched
// is what was opened here: the descriptor, never the name, goes on (to
// the runner, or to the resident server), so a component swapped for a
// link afterwards changes nothing. Each component costs two system calls
// relative to the one above: a PATH 3,000 directories deep is opened in
// linear time.
//
// cwd is the working directory ("": this process's): a test's clients
// name theirs.
func openPath(cwd, arg string) (dir *os.File, file string, err error) {
	cur := unix.AT_FDCWD
	shown := ""
	switch {
	case filepath.IsAbs(arg):
		if cur, err = unix.Open("/", rootfs.SearchDir, 0); err != nil {
			return nil, "", &fs.PathError{Op: "open", Path: "/", Err: err}
		}
		shown = "/"
	case cwd != "":
		if cur, err = unix.Open(cwd, rootfs.SearchDir, 0); err != nil {
			return nil, "", &fs.PathError{Op: "open", Path: cwd, Err: err}
		}
	}
	defer func() {
		if cur >= 0 {
			unix.Close(cur)
		}
	}()
	todo := components(arg)
	typed := len(todo) // the components arg spells; the rest a link's
	links := 0
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		last := len(todo) == 0
		if len(todo) < typed {
			typed = len(todo)
			shown = filepath.Join(shown, name)
		}
		if name == "." {
			continue
		}
		var st unix.Stat_t
		if err := unix.Fstatat(cur, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			return nil, "", &fs.PathError{Op: "stat", Path: arg, Err: err}
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFLNK:
			if !systemLink(cur) {
				what := shown + " is a link"
				if last && len(todo) == typed {
					what = "a link"
				}
				return nil, "", fmt.Errorf("%s: %s; no link is followed, at any component of a PATH: name what it points to", arg, what)
			}
			if links++; links > maxPathLinks {
				return nil, "", &fs.PathError{Op: "open", Path: arg, Err: unix.ELOOP}
			}
			target, err := readlinkat(cur, name)
			if err != nil {
				return nil, "", &fs.PathError{Op: "readlink", Path: arg, Err: err}
			}
			if filepath.IsAbs(target) {
				root, err := unix.Open("/", rootfs.SearchDir, 0)
				if err != nil {
					return nil, "", err
				}
				closeAt(cur)
				cur = root
			}
			todo = append(components(target), todo...)
			continue
		case unix.S_IFDIR:
		case unix.S_IFREG:
			if !last || strings.HasSuffix(arg, "/") {
				return nil, "", &fs.PathError{Op: "stat", Path: arg, Err: unix.ENOTDIR}
			}
			dir, err := dirFile(&cur, filepath.Dir(absolute(cwd, arg)))
			return dir, name, err
		default:
			return nil, "", fmt.Errorf("%s: neither a directory nor a regular file", arg)
		}
		// A directory swapped for a link since it was looked at is a link
		// here too: ELOOP (or ENOTDIR), never followed.
		next, err := unix.Openat(cur, name, rootfs.SearchDir|unix.O_NOFOLLOW, 0)
		if err != nil {
			if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
				return nil, "", fmt.Errorf("%s: %s changed into a link while it was opened; no link is followed", arg, shown)
			}
			return nil, "", &fs.PathError{Op: "open", Path: arg, Err: err}
		}
		closeAt(cur)
		cur = next
	}
	dir, err = dirFile(&cur, absolute(cwd, arg))
	return dir, "", err
}

// dirFile is the directory open as *cur as an *os.File named name (its
// absolute path as typed, which only a runner's redaction of host paths
// reads); the descriptor is the file's now (*cur is -1).
func dirFile(cur *int, name string) (*os.File, error) {
	fd := *cur
	if fd == unix.AT_FDCWD {
		var err error
		if fd, err = unix.Open(".", rootfs.SearchDir, 0); err != nil {
			return nil, &fs.PathError{Op: "open", Path: ".", Err: err}
		}
	}
	*cur = -1
	return os.NewFile(uintptr(fd), name), nil
}

// absolute is arg (from cwd, "" this process's) as an absolute path, by
// name (for the runner's redaction; nothing is opened by it).
func absolute(cwd, arg string) string {
	abs, err := filepath.Abs(inDir(cwd, arg))
	if err != nil {
		return arg
	}
	return abs
}

func closeAt(fd int) {
	if fd >= 0 {
		unix.Close(fd)
	}
}

// components are the names of a path: "" (a leading, doubled or trailing
// "/") left out, "." and ".." kept.
func components(p string) []string {
	var out []string
	for _, c := range strings.Split(p, "/") {
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

// systemLink reports whether a link in the directory dir is the system's
// own layout: dir is one this user cannot write (macOS's /tmp and /var,
// /bin on merged-/usr systems; root, who can write every directory,
// follows none). A link in /proc is not: /proc/self and every process's
// cwd, root and fd name what the process that resolves them sees (a
// resident server's, not its caller's).
func systemLink(dir int) bool {
	if dir == unix.AT_FDCWD {
		fd, err := unix.Open(".", rootfs.SearchDir, 0)
		if err != nil {
			return false
		}
		defer unix.Close(fd)
		dir = fd
	}
	if inProc(dir) {
		return false
	}
	return unix.Faccessat(dir, ".", unix.W_OK, 0) != nil
}

func readlinkat(dir int, name string) (string, error) {
	buf := make([]byte, unix.PathMax)
	n, err := unix.Readlinkat(dir, name, buf)
	if err != nil {
		return "", err
	}
	return string(buf[:n]), nil
}

// dirID names the directory open as f by its device and inode ("" if it
// cannot be read): a resident server keeps a runner per root under it, so
// a PATH that names another directory than before (moved, and another
// made in its place) gets a runner of its own.
func dirID(f *os.File) string {
	var st unix.Stat_t
	if unix.Fstat(int(f.Fd()), &st) != nil {
		return ""
	}
	return fmt.Sprintf("%d:%d", st.Dev, st.Ino)
}
