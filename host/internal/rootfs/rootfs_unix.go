//go:build unix

package rootfs

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rootbound/rootbound/internal/nofollow"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"
	"golang.org/x/sys/unix"
)

// Dir is a host directory shared by the mounts of every instance. It holds
// the directory open: a path swapped for another directory after OpenDir
// does not change what is served.
type Dir struct {
	fd int
	// openat2 says the kernel resolves a whole path below fd in one call
	// (Linux 5.6 and later); otherwise a path is opened a component at a
	// time.
	openat2 bool
	// lookups counts the components the kernel was handed to resolve
	// below fd, by every mount of it (Lookups).
	lookups atomic.Int64
}

// Lookups is how many path components the mounts of d have had the kernel
// resolve: what their opens cost, for tests that hold a call on a deep
// path to a cost linear in its depth.
func (d *Dir) Lookups() int64 { return d.lookups.Load() }

// OpenDir opens the host directory dir. The host names it, links and all
// (a root's own path is configuration, not a call's argument); a directory
// that is, or is inside, a ".git" is refused, since .git is never read.
func OpenDir(dir string) (*Dir, error) {
	real, err := resolveRoot(dir)
	if err != nil {
		return nil, err
	}
	// O_NONBLOCK: a FIFO in dir's place must not block the open.
	fd, err := unix.Open(real, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	return &Dir{fd: fd, openat2: hasOpenat2(fd)}, nil
}

// FromFile opens the directory f was opened on as a root: through f
// ("." below it), never by a name, so what f's path names now does not
// matter. A directory that is, or is inside, a ".git" is refused, judged
// on its real path (RealPath).
func FromFile(f *os.File) (*Dir, error) {
	// O_NONBLOCK: as OpenDir's (the descriptor is a directory's, or the
	// open fails with ENOTDIR).
	fd, err := Reopen(f, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK|unix.O_CLOEXEC)
	if err != nil {
		return nil, err
	}
	d := &Dir{fd: fd, openat2: hasOpenat2(fd)}
	if err := outsideDotGit(f.Name(), d.RealPath(f.Name())); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// Reopen opens the directory f was opened on again, with flags, through
// f ("." below it), never by a name, and returns the new descriptor.
func Reopen(f *os.File, flags int) (int, error) {
	raw, err := f.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd := -1
	if cerr := raw.Control(func(at uintptr) { fd, err = openat(int(at), ".", flags) }); cerr != nil {
		return -1, cerr
	}
	if err != nil {
		return -1, &os.PathError{Op: "open", Path: f.Name(), Err: err}
	}
	return fd, nil
}

// Close releases the directory.
func (d *Dir) Close() error { return unix.Close(d.fd) }

// open opens p (clean, relative, "." for the directory itself) below the
// directory with flags, never following a link at any component: a link
// anywhere is ELOOP. Without openat2 the directories above p are opened a
// component at a time, each with O_NOFOLLOW relative to the one above, and
// the mount holds the chain of the last path it opened (nofollow.Tree, as
// the module does), so a walk opens each file with one call relative to
// its directory instead of one per component from the root: on the
// hostile suite's 2,000-level tree that is 2,000 opens, not 2 million.
func (f *FS) open(p string, flags int) (int, error) {
	if bad(p) {
		return -1, unix.EPERM
	}
	if f.whole(p) {
		f.dir.lookups.Add(int64(strings.Count(p, "/") + 1))
		return openat2(f.dir.fd, p, flags)
	}
	if p == "." {
		f.dir.lookups.Add(1)
		return openat(f.dir.fd, ".", flags)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	dir, base := parent(p)
	dfd, err := f.fromChain(dir)
	if err != nil {
		return -1, treeErr(err)
	}
	fd, err := openat(dfd, base, flags|unix.O_NOFOLLOW)
	if err != nil && err != unix.ENOENT && err != unix.ELOOP && isLink(dfd, base) {
		// A link opened without following: Linux says ENOTDIR when a
		// directory is wanted, FreeBSD EMLINK, NetBSD EFTYPE.
		err = unix.ELOOP
	}
	return fd, err
}

// whole reports whether the kernel resolves p in one call (openat2): a
// path of more than maxWhole components is opened from the chain the
// mount holds, a component at a time, each name relative to the directory
// above, as is one of PATH_MAX (4096 bytes with its NUL) or more, which
// names a file all the same.
func (f *FS) whole(p string) bool {
	return f.dir.openat2 && len(p) < 4096 && strings.Count(p, "/") < maxWhole
}

// maxWhole bounds the components of a path the kernel is handed whole.
// A module walking a deep path opens it a component at a time, and wazero
// hands the mount each as a path from the root: resolved whole, the opens
// of a path d directories deep cost d² lookups (a list 1,365 deep took
// 6.4 s); from the chain the mount holds, each costs one. Below it,
// openat2's one call is as cheap as any: trees searched are rarely deeper.
const maxWhole = 32

// fromChain returns the directory dir from the chain the mount holds, opening
// what it lacks; f.mu must be held.
func (f *FS) fromChain(dir string) (int, error) {
	t := f.tree()
	before := t.Opened()
	fd, err := t.Dir(dir)
	f.dir.lookups.Add(int64(t.Opened()-before) + 1) // and the open of what is in it
	return fd, err
}

// held is the chain of directories the mount holds open, guarded by mu
// (wazero calls a mount from the one goroutine running its instance; the
// host's own uses of a mount may come from others).
type held struct {
	mu   sync.Mutex
	dirs *nofollow.Tree
}

// tree returns the mount's chain of open directories; f.mu must be held.
func (f *FS) tree() *nofollow.Tree {
	if f.dirs == nil {
		f.dirs = nofollow.At(f.dir.fd)
	}
	return f.dirs
}

// Close closes the directories the mount holds open (the chain of the
// last path opened a component at a time). A closed mount may be used
// again: it opens them anew.
func (f *FS) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.dirs != nil {
		f.dirs.Close()
		f.dirs = nil
	}
}

// treeErr maps what a nofollow.Tree says to an errno: a link anywhere is
// ELOOP.
func treeErr(err error) error {
	var le *nofollow.LinkError
	var pe *fs.PathError
	switch {
	case errors.As(err, &le):
		return unix.ELOOP
	case errors.Is(err, nofollow.ErrBadPath):
		return unix.EPERM
	case errors.As(err, &pe):
		return pe.Err
	}
	return err
}

// isLink reports whether name in the directory dir is a symbolic link.
func isLink(dir int, name string) bool {
	var st unix.Stat_t
	return unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK
}

func openat(dir int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dir, name, flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// errno maps an error to a WASI errno. A path that would escape is EPERM
// (openat2 says EXDEV).
func errno(err error) experimentalsys.Errno {
	if err == nil {
		return 0
	}
	if err == unix.EXDEV {
		return experimentalsys.EPERM
	}
	return experimentalsys.UnwrapOSError(err)
}

// openFlags are the flags of every open: read-only, and non-blocking, so a
// FIFO cannot block it.
const openFlags = unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC

// OpenFile implements experimentalsys.FS. It keeps a regular file as a
// bare descriptor. Why not an *os.File for files: os.NewFile on a
// non-blocking descriptor asks the kernel for its flags and tries to
// register it with the network poller (fcntl and a failing epoll_ctl), two
// system calls per file that read nothing, about 9% of a search's CPU.
// Directories, which are read with ReadDir, are *os.Files.
func (f *FS) OpenFile(p string, flag experimentalsys.Oflag, _ fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	if en := f.refuse(flag); en != 0 {
		return nil, en
	}
	p = name(p)
	osFlag := openFlags
	if flag&experimentalsys.O_DIRECTORY != 0 {
		osFlag |= unix.O_DIRECTORY
	}
	fd, err := f.open(p, osFlag)
	searchOnly := false
	if err == unix.EACCES && osFlag&unix.O_DIRECTORY != 0 && searchFlag != 0 {
		// A directory this user may search but not list (mode 0711):
		// held to open what is below it, as cat opens dir/file; a
		// listing of it is EACCES.
		fd, err = f.open(p, searchFlag|unix.O_DIRECTORY|unix.O_CLOEXEC)
		searchOnly = err == nil
	}
	if err != nil {
		return nil, errno(err)
	}
	st, err := fstat(fd)
	if err != nil {
		unix.Close(fd)
		return nil, errno(err)
	}
	switch t := st.Mode.Type(); {
	case t == 0:
		return &file{fd: fd, st: st, gate: f.gate}, 0
	case t.IsDir():
		return &file{fd: -1, osf: os.NewFile(uintptr(fd), p), st: st, gate: f.gate, searchOnly: searchOnly}, 0
	}
	unix.Close(fd)
	return nil, experimentalsys.EACCES
}

// Lstat implements experimentalsys.FS: p itself, a link at its end
// described, not followed.
func (f *FS) Lstat(p string) (sys.Stat_t, experimentalsys.Errno) {
	if f.gate.closed() {
		return sys.Stat_t{}, experimentalsys.ENOTSUP
	}
	p = name(p)
	if p == "." {
		st, err := fstat(f.dir.fd)
		return st, errno(err)
	}
	if bad(p) {
		return sys.Stat_t{}, experimentalsys.EPERM
	}
	if f.whole(p) {
		f.dir.lookups.Add(int64(strings.Count(p, "/") + 1))
		st, err := lstatOpenat2(f.dir, p)
		return st, errno(err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	dir, base := parent(p)
	dfd, err := f.fromChain(dir)
	if err != nil {
		return sys.Stat_t{}, errno(treeErr(err))
	}
	st, err := fstatat(dfd, base)
	return st, errno(err)
}

// read reads from the file at off, or at its offset when off < 0.
func (f *file) read(buf []byte, off int64) (int, error) {
	if off < 0 {
		return readFD(f.fd, buf)
	}
	return preadFD(f.fd, buf, off)
}

func (f *file) Close() experimentalsys.Errno {
	if f.osf == nil {
		unix.Close(f.fd)
		return 0
	}
	return errno(f.osf.Close())
}
