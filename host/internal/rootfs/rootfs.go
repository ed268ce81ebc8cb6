// Package rootfs is the file system a rootbound root is mounted with: a
// read-only wazero experimental/sys.FS that resolves every path below the
// root's directory without following a symbolic link at any component, so
// no path, "..", or link (final or intermediate, absolute or relative,
// pointing out of the root or into it) is ever followed.
//
// Why not wazero's own mounts: WithDirMount and WithReadOnlyDirMount join
// strings and call os.OpenFile, so a symlink inside the mount is followed out
// of it, and WithFSMount(root.FS()) makes Lstat behave like Stat (links look
// like their targets) and reports errors as EIO. Why not os.Root, or
// openat2 with RESOLVE_BENEATH alone: both follow a link in the middle of a
// path whose target stays inside the root, so "g/config" with g -> .git
// reads .git/config, and every policy decided on names (.git, deny rules,
// hidden files, a read guard) is walked around. Here a path resolves in one
// openat2 call with RESOLVE_NO_SYMLINKS (Linux 5.6 and later), else one
// openat with O_NOFOLLOW per component; a link anywhere is ELOOP.
//
// This FS keeps Lstat an lstat, reports writes as EROFS, and refuses to
// open anything but regular files and directories (it opens with
// O_NONBLOCK and checks), so a FIFO swapped in for a file can never block a
// call.
//
// A Gate revokes the mount: once closed, every call fails with ENOTSUP,
// which the module takes as "the host cancelled this call".
package rootfs

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"

	"github.com/rootbound/rootbound/protocol"
)

// NoOpenat2Env names the test switch that makes every Dir open a path a
// component at a time, as on macOS and the BSDs, so that the path those
// systems take is proven on Linux: the hostile suite and conformance run
// with it set too (make portable). It never weakens confinement: the
// component walk refuses every link openat2 refuses.
const NoOpenat2Env = "ROOTBOUND_NO_OPENAT2"

// Gate is shared by the mounts of one module instance.
type Gate struct{ revoked atomic.Bool }

// Revoke makes every call on the gated mounts fail with ENOTSUP.
func (g *Gate) Revoke() { g.revoked.Store(true) }

// Restore undoes Revoke.
func (g *Gate) Restore() { g.revoked.Store(false) }

func (g *Gate) closed() bool { return g != nil && g.revoked.Load() }

// resolveRoot resolves the links of a root's own path (the host's
// configuration) and refuses a directory that is, or is inside, a ".git".
func resolveRoot(dir string) (string, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	return real, outsideDotGit(dir, real)
}

// outsideDotGit refuses a root dir whose real path is, or is inside, a
// ".git".
func outsideDotGit(dir, real string) error {
	if slices.ContainsFunc(strings.Split(filepath.ToSlash(real), "/"), protocol.IsDotGit) {
		return &InsideGitError{Dir: dir}
	}
	return nil
}

// InsideGitError is a root refused because it is, or is inside, a ".git"
// (its real path says so, whatever its name).
type InsideGitError struct{ Dir string }

func (e *InsideGitError) Error() string {
	return e.Dir + " is inside .git, which is never read (it can hold credentials)"
}

// Link returns the first component of rel (clean, relative, "/"-separated)
// that is a symbolic link, as the path up to it, or "" when there is none
// (or rel cannot be looked at: the module says why when it tries). A host
// checks a call's path with it before the call runs, so what a read guard
// is shown is what will be opened; the mount refuses the link either way.
func (d *Dir) Link(rel string) string {
	if rel == "" {
		return ""
	}
	fsys := New(d, nil)
	defer fsys.Close()
	for i := 0; i <= len(rel); i++ {
		if i < len(rel) && rel[i] != '/' {
			continue
		}
		st, errno := fsys.Lstat(rel[:i])
		if errno != 0 {
			return ""
		}
		if st.Mode&fs.ModeSymlink != 0 {
			return rel[:i]
		}
	}
	return ""
}

// bad reports whether p has a ".." component: the module cleans its paths,
// so one that climbs is refused before any lookup.
func bad(p string) bool {
	return p == ".." || strings.HasPrefix(p, "../") || strings.HasSuffix(p, "/..") || strings.Contains(p, "/../")
}

// FS is a read-only mount of one Dir.
type FS struct {
	experimentalsys.UnimplementedFS
	dir  *Dir
	gate *Gate
	held // what the mount holds open between calls (per system)
}

// New returns a mount of dir gated by gate (which may be nil).
func New(dir *Dir, gate *Gate) *FS { return &FS{dir: dir, gate: gate} }

// String implements fmt.Stringer without naming the host directory.
func (f *FS) String() string { return "rootfs" }

// name turns a path wazero passes into one relative to the directory.
// wazero roots the paths it builds from a directory descriptor at "/" (a
// stat of "fifo" in a directory opened as "." arrives as "/fifo"). A
// component the module escaped, a name that is not UTF-8, which wazero
// would refuse, is read back (protocol.EscapeName).
func name(p string) string {
	p = strings.TrimLeft(p, "/")
	if p == "" {
		return "."
	}
	if strings.Contains(p, "\uFFFF") {
		comps := strings.Split(p, "/")
		for i, c := range comps {
			comps[i], _ = protocol.UnescapeName(c)
		}
		p = strings.Join(comps, "/")
	}
	return p
}

// writeFlags are the open flags that would change the file system.
const writeFlags = experimentalsys.O_WRONLY | experimentalsys.O_RDWR | experimentalsys.O_CREAT |
	experimentalsys.O_TRUNC | experimentalsys.O_APPEND | experimentalsys.O_EXCL

// refuse is what an open with flag gets before any lookup: ENOTSUP on a
// revoked mount, EROFS for a write; 0 when it may go on.
func (f *FS) refuse(flag experimentalsys.Oflag) experimentalsys.Errno {
	switch {
	case f.gate.closed():
		return experimentalsys.ENOTSUP
	case flag&writeFlags != 0:
		return experimentalsys.EROFS
	}
	return 0
}

// Stat implements experimentalsys.FS. Nothing is followed: a link at the
// end of p is ELOOP, as anywhere else in it.
func (f *FS) Stat(p string) (sys.Stat_t, experimentalsys.Errno) {
	st, en := f.Lstat(p)
	if en == 0 && st.Mode&fs.ModeSymlink != 0 {
		return sys.Stat_t{}, experimentalsys.ELOOP
	}
	return st, en
}

// Readlink implements experimentalsys.FS: refused. The module never reads
// a link's target, and an absolute one would show it a host path.
func (f *FS) Readlink(string) (string, experimentalsys.Errno) {
	if f.gate.closed() {
		return "", experimentalsys.ENOTSUP
	}
	return "", experimentalsys.EPERM
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

// file is an open regular file (a bare descriptor, fd) or directory (osf)
// of an FS.
type file struct {
	experimentalsys.UnimplementedFile
	fd   int      // a regular file as a bare descriptor (Unix), or -1
	osf  *os.File // otherwise
	st   sys.Stat_t
	gate *Gate
	// searchOnly: a directory opened to search, not to list (searchFlag).
	searchOnly bool
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
	n, err := f.read(buf, -1)
	return n, errno(err)
}

func (f *file) Pread(buf []byte, off int64) (int, experimentalsys.Errno) {
	if f.gate.closed() {
		return 0, experimentalsys.ENOTSUP
	}
	if f.st.Mode.IsDir() {
		return 0, experimentalsys.EISDIR
	}
	n, err := f.read(buf, off)
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
	switch {
	case !f.st.Mode.IsDir():
		return nil, experimentalsys.EBADF
	case f.searchOnly:
		return nil, experimentalsys.EACCES
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

// parent splits p (clean, relative, not ".") into its directory ("" for
// the top) and its last component.
func parent(p string) (dir, base string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", p
	}
	return p[:i], p[i+1:]
}

// realPath is name's absolute path with its links resolved, or name.
func realPath(name string) string {
	if real, err := filepath.EvalSymlinks(name); err == nil {
		name = real
	}
	if abs, err := filepath.Abs(name); err == nil {
		return abs
	}
	return name
}
