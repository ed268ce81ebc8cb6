package server

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"syscall"

	"github.com/rootbound/rootbound/internal/nofollow"
	"github.com/rootbound/rootbound/internal/walk"
	"github.com/rootbound/rootbound/protocol"
)

// scope is a resolved search root: a directory or a single regular file
// inside one root, and the tree its files are opened through.
type scope struct {
	root      Root
	isDefault bool
	rel       string // below root.Name, "" for the root itself
	file      bool   // a single regular file
	tree      *nofollow.Tree
}

// scope resolves a path argument. Relative paths are below the default root;
// absolute ones must be a root's name or below it. ".." that leaves a root is
// an error, never a clamp, and a symbolic link at any component of the path
// is refused (CodeSymlink): what policy decides on is the path opened, and
// the path opened is the path written. The caller closes the scope.
func (s *Server) scope(p string) (scope, *protocol.Error) {
	names := make([]string, len(s.roots))
	for i, r := range s.roots {
		names[i] = r.Name
	}
	i, rel, perr := protocol.ResolvePath(names, p)
	if perr != nil {
		return scope{}, perr
	}
	sc := scope{root: s.roots[i], isDefault: i == 0, rel: rel}
	tree, err := nofollow.Open(sc.root.Dir)
	if err != nil {
		code := protocol.CodeUnreadable
		if missing(err) {
			code = protocol.CodeNotFound
		}
		return scope{}, protocol.NewError(code, fmt.Sprintf("root %s cannot be opened: %s", sc.root.Name, errnoText(err)))
	}
	sc.tree = tree
	st, err := tree.Lstat(rel)
	var le *nofollow.LinkError
	switch {
	case errors.As(err, &le):
		sc.close()
		return scope{}, protocol.SymlinkError(p, sc.displayRoot(le.Path))
	case missing(err):
		sc.close()
		return scope{}, protocol.NewError(protocol.CodeNotFound, fmt.Sprintf("path %q does not exist", p))
	case err != nil:
		// It may exist: permission denied, EAGAIN, an I/O error.
		sc.close()
		return scope{}, protocol.NewError(protocol.CodeUnreadable, fmt.Sprintf("path %q cannot be read: %s", p, errnoText(err)))
	case st.Type == nofollow.Symlink:
		sc.close()
		return scope{}, protocol.SymlinkError(p, "")
	case st.Type == nofollow.File && rel != "":
		sc.file = true
	case st.Type != nofollow.Dir:
		sc.close()
		return scope{}, protocol.NewError(protocol.CodeNotADirectory, fmt.Sprintf("path %q is neither a directory nor a regular file", p))
	}
	return sc, nil
}

// missing reports whether err says a path does not exist: no such entry,
// or a component above it that is not a directory ("a/x" where a is a
// file). Any other failure may be of a path that exists: unreadable.
func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// close releases what the scope holds open.
func (sc scope) close() {
	if sc.tree != nil {
		sc.tree.Close()
	}
}

// walk walks the scope: a directory, or a single file handed to w.File as
// the only entry.
func (sc scope) walk(w *walk.Walker) error {
	w.Tree = sc.tree
	if !sc.file {
		return w.Walk(sc.rel)
	}
	return w.WalkFile(path.Base(sc.rel), sc.rel)
}

// display is how a result path is shown: relative to the default root, or
// under its root's name for any other root. rel is relative to the search
// root (for a single file, its base name).
func (sc scope) display(rel string) string {
	p := rel
	switch {
	case sc.file:
		p = sc.rel
	case sc.rel != "":
		p = sc.rel + "/" + rel
	}
	if sc.isDefault {
		return p
	}
	return sc.root.Name + "/" + p
}

// displayRoot is how a path relative to the root is shown.
func (sc scope) displayRoot(rel string) string {
	if sc.isDefault {
		return rel
	}
	return sc.root.Name + "/" + rel
}

// label names the search root in messages.
func (sc scope) label() string {
	if sc.rel == "" {
		return sc.root.Name
	}
	return strings.TrimSuffix(sc.display(""), "/")
}
