// Package nofollow opens what lies below a root one path component at a
// time, relative to the directory above it, and never follows a symbolic
// link at any component: a link where a directory or file is wanted is an
// error that names it (*LinkError), whether it is the last component or one
// in the middle.
//
// Why a component at a time: a runtime resolves a path it is given whole,
// and the best of them (wasmtime's cap-std, openat2 with RESOLVE_BENEATH,
// Go's os.Root) follow a link in the middle of a path when its target stays
// inside the root. Escape is blocked, but ".git", deny rules and hidden
// policy are decided on names, and "g/config" with g -> .git is .git/config.
// Opened here, each component is a single name looked up without following
// in a directory already open, so the runtime has no link to follow: on
// wasmtime the check and the open are one call, and a directory swapped for
// a link after it was listed is refused, not entered. (rootbound's own
// wazero mount refuses links at any component as well, so there the module
// is not the only line.)
//
// A Tree keeps the directories of the path it opened last, so a walk in
// order opens each file with one call relative to its directory, as a walk
// by whole paths did.
package nofollow

import (
	"errors"
	"io/fs"
	"strings"
)

// Type is what a directory entry or an opened path is.
type Type uint8

const (
	File Type = iota
	Dir
	Symlink
	Special // FIFO, socket, device, or a type the runtime does not know
)

// Stat is what Lstat tells of a path.
type Stat struct {
	Type  Type
	Size  int64
	Mtime int64  // Unix nanoseconds
	Ctime int64  // Unix nanoseconds: the last change of contents or metadata
	Ino   uint64 // 0 where the runtime does not say
	Nlink uint64 // the file's names (hard links); 0 where the runtime does not say
}

// LinkError says a component of a path is a symbolic link. Path is the
// path up to and including that component, below the tree's top.
type LinkError struct{ Path string }

func (e *LinkError) Error() string {
	return e.Path + " is a symbolic link, and links are never followed"
}

// ErrBadPath is the error for a path that is not clean and relative: a
// ".." or "." component, an empty one, or a leading "/".
var ErrBadPath = errors.New("nofollow: path is not clean and relative")

// ErrNameNotUTF8 is the error of opening a name that is not valid UTF-8
// where the runtime takes only UTF-8 paths and cannot be handed the name
// escaped (protocol.EscapeName): wasmtime, Node, WASI 0.2 shims.
var ErrNameNotUTF8 = errors.New("name is not valid UTF-8, and this runtime cannot open it, so it is not searched")

// maxOpen bounds the directories a Tree holds open. A walk deeper than it
// keeps the deepest ones; going back up reopens an ancestor from the
// deepest one still open above it.
const maxOpen = 128

// Tree opens paths below one directory, its top. It is not safe for
// concurrent use.
type Tree struct {
	top    int
	ownTop bool     // top is closed with the tree
	names  []string // the directory path open last, a component each
	fds    []int    // fds[i] is names[:i+1], or -1 when closed to stay under maxOpen
	open   int      // how many of fds are open
	cur    string   // strings.Join(names, "/")
	opened int      // directories opened, ever (Opened)
}

// Opened is how many directories the tree has opened: what its walks
// cost the runtime, for tests that hold a walk to a cost linear in its
// depth.
func (t *Tree) Opened() int { return t.opened }

// Open opens the tree whose top is dir: in the wasm module, the name of a
// directory the runtime preopened; in a native build, a directory on disk.
func Open(dir string) (*Tree, error) {
	fd, own, err := openTop(dir)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	return &Tree{top: fd, ownTop: own}, nil
}

// At returns a tree whose top is the open directory fd. The fd stays the
// caller's: Close leaves it open.
func At(fd int) *Tree { return &Tree{top: fd} }

// Close closes what the tree holds open.
func (t *Tree) Close() {
	t.truncate(0)
	if t.ownTop {
		closeFD(t.top)
		t.ownTop = false
	}
}

// Dir returns a descriptor of the directory rel ("" for the top). It stays
// open, owned by the tree, until a later call opens a path elsewhere or
// the tree is closed: callers never close it.
func (t *Tree) Dir(rel string) (int, error) {
	if rel == t.cur {
		if len(t.fds) == 0 {
			return t.top, nil
		}
		return t.fds[len(t.fds)-1], nil // the last one opened is always open
	}
	if name, ok := child(t.cur, rel); ok {
		// One level below the directory open last (always open), as a
		// walk down a path goes: opened from it, with no look at what is
		// above (a path d deep is then opened in time linear in d, not
		// in d²).
		fd := t.top
		if len(t.fds) > 0 {
			fd = t.fds[len(t.fds)-1]
		}
		nfd, err := openDir(fd, name)
		t.opened++
		if err != nil {
			return -1, t.classify(fd, rel, name, "open", err)
		}
		t.names, t.fds, t.cur = append(t.names, name), append(t.fds, nfd), rel
		t.open++
		t.evict()
		return nfd, nil
	}
	comps, err := split(rel)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: rel, Err: err}
	}
	n := 0
	for n < len(comps) && n < len(t.names) && comps[n] == t.names[n] {
		n++
	}
	t.truncate(n)
	// Reopen what was closed to stay under maxOpen, from the deepest
	// ancestor still open, then open the rest.
	j := n - 1
	for j >= 0 && t.fds[j] < 0 {
		j--
	}
	fd := t.top
	if j >= 0 {
		fd = t.fds[j]
	}
	for i := j + 1; i < len(comps); i++ {
		nfd, err := openDir(fd, comps[i])
		t.opened++
		if err != nil {
			t.truncate(i)
			return -1, t.classify(fd, strings.Join(comps[:i+1], "/"), comps[i], "open", err)
		}
		if i < n {
			t.fds[i] = nfd
		} else {
			t.names = append(t.names, comps[i])
			t.fds = append(t.fds, nfd)
		}
		t.open++
		t.evict()
		fd = nfd
	}
	t.cur = rel
	return fd, nil
}

// OpenFile opens the file rel for reading, never blocking (a FIFO opens
// at once and reads nothing) and never following a link, and describes
// what it opened: the caller checks that before it reads a byte, and
// closes fd with Close.
func (t *Tree) OpenFile(rel string) (fd int, st Stat, err error) {
	dir, name, err := t.parent(rel)
	if err != nil {
		return -1, Stat{}, err
	}
	fd, err = openFile(dir, name)
	if err != nil {
		return -1, Stat{}, t.classify(dir, rel, name, "open", err)
	}
	if st, err = fstat(fd); err != nil {
		closeFD(fd)
		return -1, Stat{}, &fs.PathError{Op: "stat", Path: rel, Err: err}
	}
	return fd, st, nil
}

// Close closes a file OpenFile opened.
func Close(fd int) { closeFD(fd) }

// Lstat describes rel itself: a link at its end is described, not
// followed; a link before it is a *LinkError.
func (t *Tree) Lstat(rel string) (Stat, error) {
	if rel == "" {
		st, err := fstat(t.top)
		if err != nil {
			return Stat{}, &fs.PathError{Op: "stat", Path: ".", Err: err}
		}
		return st, nil
	}
	dir, name, err := t.parent(rel)
	if err != nil {
		return Stat{}, err
	}
	st, err := fstatat(dir, name)
	if err != nil {
		return Stat{}, &fs.PathError{Op: "lstat", Path: rel, Err: err}
	}
	return st, nil
}

// parent opens the directory above rel and returns it with rel's last
// component.
func (t *Tree) parent(rel string) (int, string, error) {
	i := strings.LastIndexByte(rel, '/')
	name := rel[i+1:]
	if name == "" || name == "." || name == ".." {
		return -1, "", &fs.PathError{Op: "open", Path: rel, Err: ErrBadPath}
	}
	dir := ""
	if i >= 0 {
		dir = rel[:i]
	}
	fd, err := t.Dir(dir)
	return fd, name, err
}

// classify turns the failure to open p (name, in the directory dir) into a
// *LinkError when that component is a link. Runtimes say so differently
// (ELOOP, ENOTDIR for a directory opened without following, ENOTCAPABLE
// from a host that checks paths itself), so the entry is looked at once
// more, without following.
func (t *Tree) classify(dir int, p, name, op string, err error) error {
	if st, serr := fstatat(dir, name); serr == nil && st.Type == Symlink {
		return &LinkError{Path: p}
	}
	return &fs.PathError{Op: op, Path: p, Err: err}
}

// child returns the last component of rel when rel is one component below
// dir ("" the top).
func child(dir, rel string) (string, bool) {
	name := rel
	if dir != "" {
		if len(rel) <= len(dir)+1 || rel[len(dir)] != '/' || rel[:len(dir)] != dir {
			return "", false
		}
		name = rel[len(dir)+1:]
	}
	ok := name != "" && name != "." && name != ".." && !strings.Contains(name, "/")
	return name, ok
}

// truncate closes the directories below the first n components.
func (t *Tree) truncate(n int) {
	for i := n; i < len(t.fds); i++ {
		if t.fds[i] >= 0 {
			closeFD(t.fds[i])
			t.open--
		}
	}
	t.names, t.fds = t.names[:n], t.fds[:n]
	t.cur = strings.Join(t.names, "/")
}

// evict closes the shallowest open directories past maxOpen.
func (t *Tree) evict() {
	for i := 0; t.open > maxOpen && i < len(t.fds)-1; i++ {
		if t.fds[i] >= 0 {
			closeFD(t.fds[i])
			t.fds[i] = -1
			t.open--
		}
	}
}

// split splits a clean relative path into its components.
func split(rel string) ([]string, error) {
	if rel == "" {
		return nil, nil
	}
	comps := strings.Split(rel, "/")
	for _, c := range comps {
		if c == "" || c == "." || c == ".." {
			return nil, ErrBadPath
		}
	}
	return comps, nil
}
