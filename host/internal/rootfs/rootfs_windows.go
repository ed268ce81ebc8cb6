//go:build windows

package rootfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"
	"golang.org/x/sys/windows"

	"github.com/rootbound/rootbound/internal/nofollow"
)

// On Windows a path is resolved a name at a time, each relative to the
// handle of the directory above (NtCreateFile with a root directory, as
// Go's os.Root resolves), and every component is opened as itself
// (FILE_OPEN_REPARSE_POINT) and refused when it is a reparse point: a
// symbolic link, a junction, a mount point or any other is ELOOP, wherever
// it points. Names with a stream (":") or a separator, and short 8.3
// aliases, are refused (nofollow.OpenAt). Windows has no FIFOs or devices
// in a directory tree, so a file opened is a file or a directory.
//
// Proven: it builds and vets here (make check); it has not been run on
// Windows (SECURITY.md says what is proven where).

// Dir is a host directory shared by the mounts of every instance. It holds
// the directory open: a path swapped for another directory after OpenDir
// does not change what is served.
type Dir struct {
	h windows.Handle
}

// OpenDir opens the host directory dir. The host names it, links and all
// (a root's own path is configuration, not a call's argument); a directory
// that is, or is inside, a ".git" is refused, since .git is never read.
func OpenDir(dir string) (*Dir, error) {
	real, err := resolveRoot(dir)
	if err != nil {
		return nil, err
	}
	h, err := nofollow.OpenTop(real)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	return &Dir{h: h}, nil
}

// FromFile opens the directory f names as a root. On Windows it is opened
// again by f's name (not yet through the handle: not run on Windows).
func FromFile(f *os.File) (*Dir, error) { return OpenDir(f.Name()) }

// RealPath is name's real path.
func (d *Dir) RealPath(name string) string { return realPath(name) }

// held: on Windows the mount holds nothing open between calls.
type held struct{}

// Close releases what the mount holds open: nothing, on Windows.
func (f *FS) Close() {}

// Close releases the directory.
func (d *Dir) Close() error { return windows.CloseHandle(d.h) }

// open opens p (clean, relative, "." for the directory itself) below the
// directory as as (nofollow.AsFile, AsDir, AsMeta), never following a
// reparse point at any component.
func (d *Dir) open(p string, as int) (windows.Handle, error) {
	if bad(p) {
		return windows.InvalidHandle, syscall.EPERM
	}
	if p == "." {
		p = ""
	}
	cur := d.h
	for p != "" {
		comp, rest, more := strings.Cut(p, "/")
		want := as
		if more {
			want = nofollow.AsDir
		}
		h, err := nofollow.OpenAt(cur, comp, want)
		if cur != d.h {
			windows.CloseHandle(cur)
		}
		if err != nil {
			return windows.InvalidHandle, err
		}
		if !more {
			return h, nil
		}
		cur, p = h, rest
	}
	// The directory itself: a handle of its own.
	proc := windows.CurrentProcess()
	var own windows.Handle
	err := windows.DuplicateHandle(proc, d.h, proc, &own, 0, false, windows.DUPLICATE_SAME_ACCESS)
	return own, err
}

// errno maps an error to a WASI errno.
func errno(err error) experimentalsys.Errno {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, nofollow.ErrBadPath):
		return experimentalsys.EPERM
	case err == syscall.ELOOP:
		return experimentalsys.ELOOP
	case err == syscall.ENOTDIR:
		return experimentalsys.ENOTDIR
	case errors.Is(err, fs.ErrNotExist):
		return experimentalsys.ENOENT
	case err == windows.ERROR_ACCESS_DENIED:
		return experimentalsys.EACCES
	}
	return experimentalsys.UnwrapOSError(err)
}

// OpenFile implements experimentalsys.FS.
func (f *FS) OpenFile(p string, flag experimentalsys.Oflag, _ fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	if en := f.refuse(flag); en != 0 {
		return nil, en
	}
	p = name(p)
	as := nofollow.AsFile
	if flag&experimentalsys.O_DIRECTORY != 0 {
		as = nofollow.AsDir
	}
	h, err := f.dir.open(p, as)
	if err != nil {
		return nil, errno(err)
	}
	st, err := fstat(h)
	if err != nil {
		windows.CloseHandle(h)
		return nil, errno(err)
	}
	return &file{fd: -1, osf: os.NewFile(uintptr(h), p), st: st, gate: f.gate}, 0
}

// Lstat implements experimentalsys.FS: p itself, a link at its end
// described, not followed.
func (f *FS) Lstat(p string) (sys.Stat_t, experimentalsys.Errno) {
	if f.gate.closed() {
		return sys.Stat_t{}, experimentalsys.ENOTSUP
	}
	h, err := f.dir.open(name(p), nofollow.AsMeta)
	if err != nil {
		return sys.Stat_t{}, errno(err)
	}
	defer windows.CloseHandle(h)
	st, err := fstat(h)
	return st, errno(err)
}

// fstat describes an open handle as wazero wants it.
func fstat(h windows.Handle) (sys.Stat_t, error) {
	info, err := nofollow.StatHandle(h)
	if err != nil {
		return sys.Stat_t{}, err
	}
	mode := info.Mode | 0o444
	if mode.IsDir() {
		mode |= 0o111
	}
	return sys.Stat_t{
		Dev: info.Dev, Ino: info.Ino, Mode: mode, Nlink: info.Nlink, Size: info.Size,
		Atim: info.Atime, Mtim: info.Mtime, Ctim: info.Ctime,
	}, nil
}

// read reads from the file at off, or at its offset when off < 0.
func (f *file) read(buf []byte, off int64) (n int, err error) {
	if off < 0 {
		n, err = f.osf.Read(buf)
	} else {
		n, err = f.osf.ReadAt(buf, off)
	}
	if err == io.EOF {
		err = nil
	}
	return n, err
}

func (f *file) Close() experimentalsys.Errno { return errno(f.osf.Close()) }
