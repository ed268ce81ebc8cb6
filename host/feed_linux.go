package host

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A feed follows one root's directories with inotify and says what changed
// in it since it was last asked (take): the change feed of the index
// (WithIndex; RATIONALE.md, "Why a change feed, and why inotify by
// hand?"). Every directory is watched, top down, before the index is
// built, so a change after a file was read is an event; take drains the
// queue without waiting, and the kernel queues a change's event before the
// system call that made it returns, so take sees every change a call made
// before it. The module never trusts it for more than which files to look
// at again: what it reads still comes through its mount.
type feed struct {
	fd    int
	dir   string           // the root's directory on the host
	wds   map[int32]string // watch → its directory below the root ("" the root)
	paths map[string]bool  // changed since the last take
	all   bool             // anything may have changed
	bytes int              // of paths
	// broken: the feed can no longer follow the root (a directory it
	// could not watch, the watch limit reached; the root's directory
	// moved or deleted, so its path names another one or none, while the
	// mount serves the one it holds): every take says all from then on,
	// and the module looks at each file again, never trusting a feed that
	// misses events.
	broken bool
}

// addWatch is inotify_add_watch (a test stands in for the watch limit).
var addWatch = unix.InotifyAddWatch

// feedMask is what a watch reports: every change of an entry's contents,
// metadata or name, and of the watched directory itself.
const feedMask = unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CLOSE_WRITE | unix.IN_CREATE | unix.IN_DELETE |
	unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW

// maxFeedBytes bounds the paths one take returns: past it, take says
// everything changed (a request line holds at most 1 MiB).
const maxFeedBytes = 256 << 10

// localFS are the file systems whose changes all pass through this
// kernel, so inotify sees them: not NFS, SMB, FUSE or 9p, where another
// machine or process may change a file unseen (the index then looks at
// each file instead).
var localFS = map[int64]bool{
	0xEF53:     true, // ext2, ext3, ext4
	0x58465342: true, // xfs
	0x9123683E: true, // btrfs
	0x01021994: true, // tmpfs
	0x794C7630: true, // overlayfs
	0x2FC12FC1: true, // zfs
	0xF2F52010: true, // f2fs
}

func newFeed(dir string) (*feed, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return nil, err
	}
	if !localFS[int64(st.Type)] {
		return nil, errors.New("host: not a local file system: no change feed")
	}
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil, err
	}
	f := &feed{fd: fd, dir: dir, wds: map[int32]string{}, paths: map[string]bool{}}
	if err := f.watch(""); err != nil {
		f.close()
		return nil, err
	}
	return f, nil
}

// watch watches the directory rel and every directory below it but .git,
// following no link.
func (f *feed) watch(rel string) error {
	return filepath.WalkDir(filepath.Join(f.dir, filepath.FromSlash(rel)), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == filepath.Join(f.dir, filepath.FromSlash(rel)) && rel == "" {
				return err
			}
			return nil // gone since it was listed: its parent's event says so
		}
		if !d.IsDir() {
			return nil
		}
		r, _ := filepath.Rel(f.dir, p)
		r = filepath.ToSlash(r)
		if r == "." {
			r = ""
		}
		if err := f.add(p, r); err != nil {
			return err
		}
		if d.Name() == ".git" {
			// Of a repository the walk reads one file, info/exclude: the
			// feed watches .git for info and info for it, and no deeper.
			if err := f.add(filepath.Join(p, "info"), path.Join(r, "info")); err != nil {
				return err
			}
			return fs.SkipDir
		}
		return nil
	})
}

// add watches the directory p, rel below the root; one that is gone is
// no error (its parent's event says so).
func (f *feed) add(p, rel string) error {
	wd, err := addWatch(f.fd, p, feedMask)
	if err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
			return nil
		}
		return err // the watch limit, most likely: no feed
	}
	f.wds[int32(wd)] = rel
	return nil
}

// inGit says whether p is in a repository's .git, and whether it is what
// the walk reads there (info, info/exclude).
func inGit(p string) (in, read bool) {
	i := strings.Index("/"+p, "/.git/")
	if i < 0 {
		return false, false
	}
	rest := p[i+len(".git/"):]
	return true, rest == "info" || rest == "info/exclude"
}

// take returns what changed since the last take: paths below the root,
// or all.
func (f *feed) take() (paths []string, all bool) {
	var buf [64 << 10]byte
	for {
		n, err := unix.Read(f.fd, buf[:])
		if err != nil || n <= 0 {
			if !errors.Is(err, unix.EAGAIN) {
				f.all = true
			}
			break
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
			off += unix.SizeofInotifyEvent + int(ev.Len)
			for len(name) > 0 && name[len(name)-1] == 0 {
				name = name[:len(name)-1]
			}
			f.event(ev.Wd, ev.Mask, string(name))
		}
	}
	if f.all || f.broken || f.bytes > maxFeedBytes {
		all = true
	} else {
		for p := range f.paths {
			paths = append(paths, p)
		}
	}
	clear(f.paths)
	f.all, f.bytes = false, 0
	return paths, all
}

func (f *feed) event(wd int32, mask uint32, name string) {
	if mask&unix.IN_Q_OVERFLOW != 0 {
		f.all = true
		return
	}
	dir, ok := f.wds[wd]
	if !ok {
		return
	}
	if dir == "" && name == "" && mask&(unix.IN_MOVE_SELF|unix.IN_DELETE_SELF|unix.IN_IGNORED) != 0 {
		// The root's directory moved or went: its path, which a watch
		// is added by, no longer names what the mount serves.
		f.broken = true
		return
	}
	if mask&unix.IN_IGNORED != 0 {
		delete(f.wds, wd)
		return
	}
	p := dir
	if name != "" {
		p = path.Join(dir, name)
	}
	if in, read := inGit(p); in {
		if !read {
			return // git's own files: never read by a walk
		}
		if strings.HasSuffix(p, "info") && mask&unix.IN_ISDIR != 0 && mask&(unix.IN_CREATE|unix.IN_MOVED_TO) != 0 {
			if f.add(filepath.Join(f.dir, filepath.FromSlash(p)), p) != nil {
				f.broken = true
			}
		}
		if !f.paths[p] {
			f.paths[p] = true
			f.bytes += len(p)
		}
		return
	}
	switch {
	case mask&unix.IN_MOVE_SELF != 0, mask&unix.IN_ISDIR != 0 && mask&unix.IN_MOVED_FROM != 0:
		// A directory moved: the watches below it name the old paths.
		// Everything may have changed; the watches start again.
		f.all = true
		f.rewatch()
		return
	case mask&unix.IN_ISDIR != 0 && mask&(unix.IN_CREATE|unix.IN_MOVED_TO) != 0:
		if f.watch(p) != nil {
			f.broken = true // a directory no watch follows
		}
	}
	if !f.paths[p] {
		f.paths[p] = true
		f.bytes += len(p)
	}
}

// rewatch drops every watch and watches the tree again.
func (f *feed) rewatch() {
	for wd := range f.wds {
		_, _ = unix.InotifyRmWatch(f.fd, uint32(wd))
	}
	clear(f.wds)
	if f.watch("") != nil {
		f.broken = true
	}
}

func (f *feed) close() { _ = unix.Close(f.fd) }
