// Package rootfs is the file system a rootbound root is mounted with: a
// read-only wazero experimental/sys.FS whose every lookup goes through Go's
// os.Root, so no path, "..", or symbolic link (final or intermediate,
// absolute or relative) can reach outside the root's directory.
//
// Why not wazero's own mounts: WithDirMount and WithReadOnlyDirMount join
// strings and call os.OpenFile, so a symlink inside the mount is followed out
// of it, and WithFSMount(root.FS()) makes Lstat behave like Stat (links look
// like their targets) and reports errors as EIO. This FS keeps Lstat an
// lstat, honours O_NOFOLLOW with ELOOP, reports escapes as EPERM and writes
// as EROFS. It also refuses to open anything but regular files and
// directories (it opens with O_NONBLOCK and checks), so a FIFO swapped in for
// a file can never block a call.
//
// A Gate revokes the mount: once closed, every call fails with ENOTSUP,
// which the module takes as "the host cancelled this call".
package rootfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync/atomic"
	"syscall"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"
)

// Gate is shared by the mounts of one module instance.
type Gate struct{ revoked atomic.Bool }

// Revoke makes every call on the gated mounts fail with ENOTSUP.
func (g *Gate) Revoke() { g.revoked.Store(true) }

// Restore undoes Revoke.
func (g *Gate) Restore() { g.revoked.Store(false) }

func (g *Gate) closed() bool { return g != nil && g.revoked.Load() }

// Dir is a host directory shared by the mounts of every instance.
type Dir struct {
	root *os.Root
	// fd is the directory's descriptor for openat2, or -1 where the
	// kernel has none (Linux before 5.6, other systems).
	fd int
}

// OpenDir opens the host directory dir.
func OpenDir(dir string) (*Dir, error) {
	// os.OpenRoot opens without O_DIRECTORY or O_NONBLOCK, so a FIFO in
	// dir's place would block it forever: check first, without blocking.
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	f.Close()
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Dir{root: root, fd: beneathFD(root)}, nil
}

// Close releases the directory.
func (d *Dir) Close() error {
	closeFD(d.fd)
	return d.root.Close()
}

// FS is a read-only mount of one Dir.
type FS struct {
	experimentalsys.UnimplementedFS
	dir  *Dir
	gate *Gate
}

// New returns a mount of dir gated by gate (which may be nil).
func New(dir *Dir, gate *Gate) *FS { return &FS{dir: dir, gate: gate} }

// String implements fmt.Stringer without naming the host directory.
func (f *FS) String() string { return "rootfs" }

// name turns a path wazero passes into one relative to the directory.
// wazero roots the paths it builds from a directory descriptor at "/" (a
// stat of "fifo" in a directory opened as "." arrives as "/fifo"), and
// os.Root refuses absolute paths.
func name(p string) string {
	p = strings.TrimLeft(p, "/")
	if p == "" {
		return "."
	}
	return p
}

// errno maps an error from os.Root or openat2 to a WASI errno. A path that
// escapes is EPERM: openat2 says EXDEV, and os.Root's own error carries no
// errno.
func errno(err error) experimentalsys.Errno {
	if err == nil {
		return 0
	}
	var en syscall.Errno
	if errors.As(err, &en) {
		if en == syscall.EXDEV {
			return experimentalsys.EPERM
		}
		return experimentalsys.UnwrapOSError(en)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return experimentalsys.ENOENT
	case errors.Is(err, fs.ErrPermission):
		return experimentalsys.EACCES
	}
	return experimentalsys.EPERM
}

// writeFlags are the open flags that would change the file system.
const writeFlags = experimentalsys.O_WRONLY | experimentalsys.O_RDWR | experimentalsys.O_CREAT |
	experimentalsys.O_TRUNC | experimentalsys.O_APPEND | experimentalsys.O_EXCL

// OpenFile implements experimentalsys.FS.
func (f *FS) OpenFile(p string, flag experimentalsys.Oflag, _ fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	if f.gate.closed() {
		return nil, experimentalsys.ENOTSUP
	}
	if flag&writeFlags != 0 {
		return nil, experimentalsys.EROFS
	}
	p = name(p)
	if f.dir.fd >= 0 {
		return f.openRaw(p, flag)
	}
	of, en := f.openRoot(p, flag)
	if en != 0 {
		return nil, en
	}
	fi, err := of.Stat()
	if err != nil {
		of.Close()
		return nil, errno(err)
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		of.Close()
		return nil, experimentalsys.EACCES
	}
	return &file{fd: -1, osf: of, st: stat(fi), gate: f.gate}, 0
}

// openFlags are the flags of every open: read-only, and non-blocking, so a
// FIFO cannot block it.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY | syscall.O_CLOEXEC

// openRaw opens p in one openat2 call resolved beneath the directory and
// keeps a regular file as a bare descriptor. Why not an *os.File for
// files: os.NewFile on a non-blocking descriptor asks the kernel for its
// flags and tries to register it with the network poller (fcntl and a
// failing epoll_ctl), two system calls per file that read nothing, about
// 9% of a search's CPU. Directories, which are read with ReadDir, are
// *os.Files.
func (f *FS) openRaw(p string, flag experimentalsys.Oflag) (experimentalsys.File, experimentalsys.Errno) {
	osFlag := openFlags
	if flag&experimentalsys.O_DIRECTORY != 0 {
		osFlag |= syscall.O_DIRECTORY
	}
	if flag&experimentalsys.O_NOFOLLOW != 0 {
		osFlag |= syscall.O_NOFOLLOW
	}
	fd, err := openBeneath(f.dir.fd, p, osFlag)
	if err != nil {
		return nil, errno(err)
	}
	st, err := fstat(fd)
	if err != nil {
		closeFD(fd)
		return nil, errno(err)
	}
	switch t := st.Mode.Type(); {
	case t == 0:
		return &file{fd: fd, st: st, gate: f.gate}, 0
	case t.IsDir():
		return &file{fd: -1, osf: os.NewFile(uintptr(fd), p), st: st, gate: f.gate}, 0
	}
	closeFD(fd)
	return nil, experimentalsys.EACCES
}

// openRoot opens p through os.Root, a component at a time, where the
// kernel has no openat2.
func (f *FS) openRoot(p string, flag experimentalsys.Oflag) (*os.File, experimentalsys.Errno) {
	osFlag := openFlags
	if flag&experimentalsys.O_DIRECTORY != 0 {
		osFlag |= syscall.O_DIRECTORY
	}
	if flag&experimentalsys.O_NOFOLLOW != 0 {
		// os.Root follows a final symlink that stays inside the root;
		// O_NOFOLLOW asks for ELOOP instead.
		fi, err := f.dir.root.Lstat(p)
		if err != nil {
			return nil, errno(err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, experimentalsys.ELOOP
		}
	}
	of, err := f.dir.root.OpenFile(p, osFlag, 0)
	return of, errno(err)
}

// Lstat implements experimentalsys.FS.
func (f *FS) Lstat(p string) (sys.Stat_t, experimentalsys.Errno) { return f.stat(f.dir.root.Lstat, p) }

// Stat implements experimentalsys.FS.
func (f *FS) Stat(p string) (sys.Stat_t, experimentalsys.Errno) { return f.stat(f.dir.root.Stat, p) }

func (f *FS) stat(how func(string) (fs.FileInfo, error), p string) (sys.Stat_t, experimentalsys.Errno) {
	if f.gate.closed() {
		return sys.Stat_t{}, experimentalsys.ENOTSUP
	}
	fi, err := how(name(p))
	if err != nil {
		return sys.Stat_t{}, errno(err)
	}
	return stat(fi), 0
}

// Readlink implements experimentalsys.FS.
func (f *FS) Readlink(p string) (string, experimentalsys.Errno) {
	if f.gate.closed() {
		return "", experimentalsys.ENOTSUP
	}
	s, err := f.dir.root.Readlink(name(p))
	return s, errno(err)
}

// The calls that would change the tree all fail with EROFS.

func (*FS) Mkdir(string, fs.FileMode) experimentalsys.Errno { return experimentalsys.EROFS }
func (*FS) Chmod(string, fs.FileMode) experimentalsys.Errno { return experimentalsys.EROFS }
func (*FS) Rename(string, string) experimentalsys.Errno     { return experimentalsys.EROFS }
func (*FS) Rmdir(string) experimentalsys.Errno              { return experimentalsys.EROFS }
func (*FS) Unlink(string) experimentalsys.Errno             { return experimentalsys.EROFS }
func (*FS) Link(string, string) experimentalsys.Errno       { return experimentalsys.EROFS }
func (*FS) Symlink(string, string) experimentalsys.Errno    { return experimentalsys.EROFS }
func (*FS) Utimens(string, int64, int64) experimentalsys.Errno {
	return experimentalsys.EROFS
}

// wasiType maps a file type to one WASI preview 1 can carry. It has no FIFO
// or socket type: wazero reports them as unknown, and Go's wasip1 port reads
// unknown as a regular file, so a guest would take a FIFO for a file. They
// are reported as block devices instead, which every guest passes over as
// special files.
func wasiType(t fs.FileMode) fs.FileMode {
	if t&(fs.ModeNamedPipe|fs.ModeSocket|fs.ModeIrregular) != 0 {
		return t&^fs.ModeType | fs.ModeDevice
	}
	return t
}

func stat(fi fs.FileInfo) sys.Stat_t {
	st := sys.NewStat_t(fi)
	st.Mode = wasiType(st.Mode)
	return st
}

// file is an open regular file (a bare descriptor, fd) or directory (osf)
// of an FS; without openat2, both are *os.Files.
type file struct {
	experimentalsys.UnimplementedFile
	fd   int      // a regular file opened with openat2, or -1
	osf  *os.File // otherwise
	st   sys.Stat_t
	gate *Gate
}

func (f *file) Dev() (uint64, experimentalsys.Errno)    { return f.st.Dev, 0 }
func (f *file) Ino() (sys.Inode, experimentalsys.Errno) { return f.st.Ino, 0 }
func (f *file) IsDir() (bool, experimentalsys.Errno)    { return f.st.Mode.IsDir(), 0 }
func (f *file) IsAppend() bool                          { return false }
func (f *file) SetAppend(bool) experimentalsys.Errno    { return experimentalsys.EROFS }

// Stat returns what was seen when the file was opened (the type OpenFile
// checked, the size then): the module stats each file it opens, once,
// right after opening it.
func (f *file) Stat() (sys.Stat_t, experimentalsys.Errno) {
	if f.gate.closed() {
		return sys.Stat_t{}, experimentalsys.ENOTSUP
	}
	return f.st, 0
}

func (f *file) Read(buf []byte) (int, experimentalsys.Errno) {
	if f.gate.closed() {
		return 0, experimentalsys.ENOTSUP
	}
	if f.st.Mode.IsDir() {
		return 0, experimentalsys.EISDIR
	}
	if f.osf == nil {
		n, err := readFD(f.fd, buf)
		return n, errno(err)
	}
	n, err := f.osf.Read(buf)
	if err == io.EOF {
		err = nil
	}
	return n, errno(err)
}

func (f *file) Pread(buf []byte, off int64) (int, experimentalsys.Errno) {
	if f.gate.closed() {
		return 0, experimentalsys.ENOTSUP
	}
	if f.st.Mode.IsDir() {
		return 0, experimentalsys.EISDIR
	}
	if f.osf == nil {
		n, err := preadFD(f.fd, buf, off)
		return n, errno(err)
	}
	n, err := f.osf.ReadAt(buf, off)
	if err == io.EOF {
		err = nil
	}
	return n, errno(err)
}

// Seek is left unimplemented (ENOSYS): the module reads each file front to
// back and each directory once.

// Readdir reads entries with their type from the directory entry itself,
// never a stat per entry (os.File.Readdir would lstat each one).
func (f *file) Readdir(n int) ([]experimentalsys.Dirent, experimentalsys.Errno) {
	if f.gate.closed() {
		return nil, experimentalsys.ENOTSUP
	}
	if !f.st.Mode.IsDir() {
		return nil, experimentalsys.EBADF
	}
	entries, err := f.osf.ReadDir(n)
	if err == io.EOF {
		err = nil
	}
	if err != nil {
		return nil, errno(err)
	}
	out := make([]experimentalsys.Dirent, len(entries))
	for i, e := range entries {
		out[i] = experimentalsys.Dirent{Name: e.Name(), Type: wasiType(e.Type())}
	}
	return out, 0
}

func (f *file) Write([]byte) (int, experimentalsys.Errno)         { return 0, experimentalsys.EBADF }
func (f *file) Pwrite([]byte, int64) (int, experimentalsys.Errno) { return 0, experimentalsys.EBADF }
func (f *file) Truncate(int64) experimentalsys.Errno              { return experimentalsys.EBADF }
func (f *file) Sync() experimentalsys.Errno                       { return 0 }
func (f *file) Datasync() experimentalsys.Errno                   { return 0 }
func (f *file) Utimens(int64, int64) experimentalsys.Errno        { return experimentalsys.EROFS }

func (f *file) Close() experimentalsys.Errno {
	if f.osf == nil {
		closeFD(f.fd)
		return 0
	}
	return errno(f.osf.Close())
}
