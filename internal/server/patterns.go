package server

import (
	"fmt"
	"path"
	"strings"

	"github.com/rootbound/rootbound/internal/match"
	"github.com/rootbound/rootbound/internal/meter"
	"github.com/rootbound/rootbound/protocol"
)

// globArg reads a glob argument as results write paths, so that a path
// copied from a result works as a pattern: "./" at the start is dropped; a
// root's name at the start ("/workspace/src/*.go") makes the rest relative
// to that root, and it is rewritten to match below the search path; a
// trailing "/" means everything below ("src/" is "src/**"). A pattern that
// can never match is an error that says why: one with a ".." component,
// one naming another root than the search path's, and, when check is set,
// one whose leading "/" is followed by a name that is neither a root's nor
// an entry of the search path (a host path, say).
func (s *Server) globArg(p string, sc scope, check bool) (string, *protocol.Error) {
	bad := func(format string, args ...any) *protocol.Error {
		return protocol.NewError(protocol.CodeInvalidPattern, fmt.Sprintf("pattern %s ", match.Quote(p))+fmt.Sprintf(format, args...))
	}
	q := p
	for strings.HasPrefix(q, "./") {
		q = strings.TrimLeft(q[2:], "/")
	}
	if strings.HasSuffix(q, "/") && strings.Trim(q, "/") != "" {
		q += "**"
	}
	for _, part := range strings.Split(q, "/") {
		if part == ".." {
			return "", bad(`has a ".." component: patterns match paths below the search path, which never hold ".."; to look elsewhere, set path`)
		}
	}
	if !strings.HasPrefix(q, "/") {
		return q, nil
	}
	for _, r := range s.roots {
		rest, ok := strings.CutPrefix(q, r.Name)
		if !ok || rest != "" && rest[0] != '/' {
			continue
		}
		if r.Name != sc.root.Name {
			return "", bad("names root %s, but the search path is in %s: set path to search there", r.Name, sc.root.Name)
		}
		rest = strings.TrimPrefix(rest, "/")
		if rest == "" {
			rest = "**"
		}
		if sc.rel == "" {
			return "/" + rest, nil
		}
		if below, ok := strings.CutPrefix(rest, sc.rel+"/"); ok {
			return "/" + below, nil
		}
		if lit := literalPrefix(rest); !strings.HasPrefix(sc.rel+"/", lit) && !strings.HasPrefix(lit, sc.rel+"/") {
			return "", bad("names %s, which is not in the search path %q", r.Name+"/"+strings.TrimSuffix(lit, "/"), sc.label())
		}
		return rest, nil // matched against paths as results show them
	}
	if check && !sc.file {
		first, _, _ := strings.Cut(strings.TrimLeft(q, "/"), "/")
		if first != "" && !strings.ContainsAny(first, `*?[{\`) {
			if _, err := sc.tree.Lstat(path.Join(sc.rel, first)); err != nil {
				names := make([]string, len(s.roots))
				for i, r := range s.roots {
					names[i] = r.Name
				}
				return "", bad("starts with %q, which is neither a root (%s) nor in the search path %q: a leading \"/\" anchors a pattern to the search path, and paths are written as results show them, never as host paths",
					"/"+first, strings.Join(names, ", "), sc.label())
			}
		}
	}
	return q, nil
}

// literalPrefix is the start of a glob up to its first special character,
// cut back to a whole directory.
func literalPrefix(p string) string {
	if i := strings.IndexAny(p, `*?[{\`); i >= 0 {
		p = p[:i]
	}
	return p[:strings.LastIndexByte(p, '/')+1]
}

// globArgs reads a list of globs, each maybe starting with "!", as
// globArg does, and compiles them.
func (s *Server) globArgs(globs []string, sc scope, fold bool, m *meter.Meter) (*match.Filter, *protocol.Error) {
	if len(globs) == 0 {
		return nil, nil
	}
	norm := make([]string, len(globs))
	for i, g := range globs {
		body, exclude := strings.CutPrefix(g, "!")
		q, perr := s.globArg(body, sc, !exclude)
		if perr != nil {
			return nil, perr
		}
		if exclude {
			q = "!" + q
		}
		norm[i] = q
	}
	f, err := match.CompileFilter(norm, fold, m)
	switch {
	case m.Err() != nil:
		return nil, protocol.AsError(m.Err())
	case err != nil:
		return nil, patternError(err)
	}
	return f, nil
}
