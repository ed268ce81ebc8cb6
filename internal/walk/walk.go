// Package walk decides which files a call considers. It walks one directory
// tree in lexical order, as io/fs.WalkDir does: each directory's entries
// sorted by name (byte order), a directory's contents right after it. The
// order is the order of results, so results stream as they are found and
// are the same on every run and every host.
//
// The walker never follows a symbolic link and never descends into ".git";
// it hands only regular files to its caller and counts what it passed over.
// It opens each directory relative to the one above it through a
// nofollow.Tree, so a directory swapped for a link after it was listed is
// refused, never entered. It reads directory entries without a stat per
// entry (the type comes with the entry), which measured 13% faster in wasm
// than stat-based walks.
package walk

import (
	"cmp"
	"errors"
	"io/fs"

	"github.com/rootbound/rootbound/internal/meter"
	"github.com/rootbound/rootbound/internal/nofollow"
	"github.com/rootbound/rootbound/protocol"
)

// SkipAll, returned by File, ends the walk without an error.
var SkipAll = fs.SkipAll

// Walker walks one tree. Its callbacks decide what happens; its counters
// say what was seen. Paths handed to callbacks are "/"-separated: rel
// relative to the walk's root, and tpath below the Tree's top (the path to
// open it by through the Tree).
type Walker struct {
	// Tree opens what the walk reads.
	Tree *nofollow.Tree
	// Check runs before each entry; a non-nil error ends the walk with it
	// (a deadline, a budget, a cancellation).
	Check func() error
	// Enter, if set, runs before each directory is read, as Check does:
	// reading a directory can be slow (deep paths, runtimes that re-read
	// large directories), so a deadline is looked at there too.
	Enter func() error
	// Listed, if set, runs once a directory's entries are read and sorted,
	// before the first is visited, with the directory's rel ("" for the
	// root) and tpath (package ignore reads the directory's ignore files
	// here). Left runs when the walk is done with the directory. An error
	// from Listed ends the walk.
	Listed func(rel, tpath string, entries []Entry) error
	Left   func(rel string)
	// Skip, if set, says whether an entry is left out: rel is its path
	// relative to the walk root. A directory left out is not entered.
	Skip func(rel, name string, typ Type) bool
	// File receives each regular file's rel and tpath. SkipAll ends the
	// walk; any other error ends it with that error.
	File func(rel, tpath string) error
	// Dir, if set, receives each directory below the root that is not
	// left out, before its contents, as File does files.
	Dir func(rel, tpath string) error
	// Link, if set, receives each symbolic link not left out, as File does
	// files (never followed); unset, links are only counted (Symlink).
	Link func(rel, tpath string) error
	// Problem receives a directory that could not be read. A non-nil
	// return ends the walk with that error; nil goes on with the next entry.
	Problem func(rel string, err error) error
	// MaxDepth, if positive, bounds how deep the walk goes: 1 visits the
	// root's entries only, 2 theirs too, and so on.
	MaxDepth int
	// Meter, if set, is charged for listing and sorting directories, so a
	// directory of 100,000 entries still lets the call look at its
	// deadline while it is sorted.
	Meter *meter.Meter
	// From and To, when either is set, bound the walk to a range of its
	// order (Compare), paths relative to the walk's root: it visits the
	// entries from From on and stops at To (not visited; "" for the end).
	// The directories above From are entered only to reach it: what is
	// before From in them is passed over unseen. Begin, if set, runs once
	// as the range starts: at its first entry, or at the walk's end when
	// it has none. The counters below restart there, as the caller's own
	// should: what was counted before it belongs to the range before.
	From, To string
	Begin    func()
	begun    bool

	Dirs    int64 // directories read
	Files   int64 // regular files handed to File
	Symlink int64 // symbolic links passed over
	Special int64 // FIFOs, sockets, devices passed over
}

// Entry is a directory entry and what type of file it is.
type Entry struct {
	Name string
	Type Type
}

// Type is the type of a directory entry, as the directory listing gives it.
type Type = nofollow.Type

const (
	TypeFile    = nofollow.File
	TypeDir     = nofollow.Dir
	TypeSymlink = nofollow.Symlink
	TypeSpecial = nofollow.Special // FIFO, socket, device, or a type the runtime does not know
)

// Walk walks the directory root, a path below the Tree's top ("" for the
// top). It returns nil when the walk ended, by itself or by SkipAll, and the
// first error a callback returned otherwise.
func (w *Walker) Walk(root string) error {
	w.begun = false
	if w.From == "" {
		w.begin()
	}
	err := w.dir(root, "", 0)
	w.begin() // a range with no entry: nothing of it was counted
	if errors.Is(err, fs.SkipAll) {
		return nil
	}
	return err
}

// WalkFile is Walk of a tree of one regular file, at tpath below the
// Tree's top, handed on as rel when it is in the walk's range.
func (w *Walker) WalkFile(rel, tpath string) error {
	w.begun = false
	if w.From == "" {
		w.begin()
	}
	var err error
	if Compare(rel, w.From) >= 0 && (w.To == "" || Compare(rel, w.To) < 0) {
		w.begin()
		w.Files++
		err = w.File(rel, tpath)
	}
	w.begin()
	if errors.Is(err, fs.SkipAll) {
		return nil
	}
	return err
}

// begin starts the walk's range, once.
func (w *Walker) begin() {
	if w.begun {
		return
	}
	w.begun = true
	w.Dirs, w.Files, w.Symlink, w.Special = 0, 0, 0, 0
	if w.Begin != nil {
		w.Begin()
	}
}

// Compare compares two paths below one directory in the order of the walk:
// a directory comes right before its contents, and the names of a
// directory in byte order, so '/' sorts below every byte a name holds.
func Compare(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		x, y := a[i], b[i]
		switch {
		case x == y:
			continue
		case x == '/':
			return -1
		case y == '/':
			return 1
		case x < y:
			return -1
		}
		return 1
	}
	return cmp.Compare(len(a), len(b))
}

// inRange says whether the walk takes the entry at rel: false for one
// before From that is not a directory above it, and, past To, SkipAll.
func (w *Walker) inRange(rel string, typ Type) (bool, error) {
	if w.To != "" && Compare(rel, w.To) >= 0 {
		return false, fs.SkipAll
	}
	if w.begun {
		return true, nil
	}
	if Compare(rel, w.From) >= 0 {
		w.begin()
		return true, nil
	}
	// Before the range: only a directory above From is entered.
	return typ == TypeDir && len(w.From) > len(rel) && w.From[len(rel)] == '/' && w.From[:len(rel)] == rel, nil
}

func (w *Walker) dir(tpath, rel string, depth int) error {
	if w.Enter != nil {
		if err := w.Enter(); err != nil {
			return err
		}
	}
	w.Dirs++
	var entries []Entry
	fd, err := w.Tree.Dir(tpath)
	if err == nil {
		entries, err = w.readDir(fd, tpath)
	}
	if err != nil {
		if perr := w.Problem(rel, err); perr != nil {
			return perr
		}
		// readDir returns what it read before a failure: go on with it.
	}
	if w.Listed != nil {
		if err := w.Listed(rel, tpath, entries); err != nil {
			return err
		}
		if w.Left != nil {
			defer w.Left(rel)
		}
	}
	ranged := w.From != "" || w.To != ""
	for _, e := range entries {
		name := e.Name
		childRel := name
		if rel != "" {
			childRel = rel + "/" + name
		}
		if ranged {
			if in, err := w.inRange(childRel, e.Type); err != nil {
				return err
			} else if !in {
				continue
			}
		}
		if err := w.Check(); err != nil {
			return err
		}
		if protocol.IsDotGit(name) { // a repository, or a worktree's .git file
			continue
		}
		if w.Skip != nil && w.Skip(childRel, name, e.Type) {
			continue
		}
		childPath := childRel // a walk from the tree's top: one string for both
		if tpath != rel {
			childPath = name
			if tpath != "" {
				childPath = tpath + "/" + name
			}
		}
		switch e.Type {
		case TypeDir:
			if w.Dir != nil {
				if err := w.Dir(childRel, childPath); err != nil {
					return err
				}
			}
			if w.MaxDepth > 0 && depth+1 >= w.MaxDepth {
				continue
			}
			if err := w.dir(childPath, childRel, depth+1); err != nil {
				return err
			}
		case TypeFile:
			w.Files++
			if err := w.File(childRel, childPath); err != nil {
				return err
			}
		case TypeSymlink:
			if w.Link == nil {
				w.Symlink++
				continue
			}
			if err := w.Link(childRel, childPath); err != nil {
				return err
			}
		default:
			w.Special++
		}
	}
	return nil
}
