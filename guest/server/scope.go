package server

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/rootbound/rootbound/guest/protocol"
)

// scope is a resolved search root: a directory inside one root.
type scope struct {
	root      Root
	isDefault bool
	rel       string // below root.Name, "" for the root itself
	full      string // on this process's file system
}

// scope resolves a path argument. Relative paths are below the default root;
// absolute ones must be a root's name or below it. ".." that leaves a root is
// an error, never a clamp.
func (s *Server) scope(p string) (scope, *protocol.Error) {
	outside := func() *protocol.Error {
		names := make([]string, len(s.roots))
		for i, r := range s.roots {
			names[i] = r.Name
		}
		return protocol.NewError(protocol.CodeOutsideRoot,
			fmt.Sprintf("path %q is outside the readable roots (%s)", p, strings.Join(names, ", ")))
	}
	if strings.IndexByte(p, 0) >= 0 {
		return scope{}, protocol.NewError(protocol.CodeInvalidArgument, "path contains a NUL byte")
	}
	var sc scope
	if strings.HasPrefix(p, "/") {
		clean := path.Clean(p)
		found := false
		for i, r := range s.roots {
			if clean == r.Name || strings.HasPrefix(clean, r.Name+"/") {
				sc = scope{root: r, isDefault: i == 0, rel: strings.TrimPrefix(strings.TrimPrefix(clean, r.Name), "/")}
				found = true
				break
			}
		}
		if !found {
			return scope{}, outside()
		}
	} else {
		clean := path.Clean(p) // "" becomes "."
		if clean == ".." || strings.HasPrefix(clean, "../") {
			return scope{}, outside()
		}
		if clean == "." {
			clean = ""
		}
		sc = scope{root: s.roots[0], isDefault: true, rel: clean}
	}
	sc.full = sc.root.Dir
	if sc.rel != "" {
		sc.full += "/" + sc.rel
	}
	fi, err := os.Lstat(sc.full)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return scope{}, protocol.NewError(protocol.CodeNotFound, fmt.Sprintf("path %q does not exist", p))
	case err != nil:
		return scope{}, protocol.NewError(protocol.CodeNotFound, fmt.Sprintf("path %q cannot be read: %s", p, errnoText(err)))
	case fi.Mode()&fs.ModeSymlink != 0:
		return scope{}, protocol.NewError(protocol.CodeNotADirectory, fmt.Sprintf("path %q is a symbolic link; links are not followed", p))
	case !fi.IsDir():
		return scope{}, protocol.NewError(protocol.CodeNotADirectory, fmt.Sprintf("path %q is not a directory", p))
	}
	return sc, nil
}

// display is how a result path is shown: relative to the default root, or
// under its root's name for any other root.
func (sc scope) display(rel string) string {
	p := rel
	if sc.rel != "" {
		p = sc.rel + "/" + rel
	}
	if sc.isDefault {
		return p
	}
	return sc.root.Name + "/" + p
}

// label names the search root in messages.
func (sc scope) label() string {
	if sc.rel == "" {
		if sc.isDefault {
			return "."
		}
		return sc.root.Name
	}
	return sc.display("")[:len(sc.display(""))-1]
}
