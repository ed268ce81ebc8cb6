package server

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/rootbound/rootbound/internal/match"
	"github.com/rootbound/rootbound/protocol"
)

// list sends a directory's entries, depth levels deep, in walk order (a
// directory's entries right after it), each with its kind and a file's
// size: a glob of everything, directories and links included, picked by
// the same rules (ignore files, hidden files, the root's policy), with the
// same paging.
func (s *Server) list(c *call, a *protocol.ListArgs) {
	if a.Depth < 0 || a.Depth > protocol.MaxListDepth {
		c.err = protocol.NewError(protocol.CodeInvalidArgument, fmt.Sprintf("depth %d, want 1 to %d", a.Depth, protocol.MaxListDepth))
		return
	}
	p := pick{maxDepth: cmp.Or(a.Depth, 1), noIgnore: a.NoIgnore, hidden: a.Hidden}
	sc, ok := s.begin(c, a.MaxResults, a.Path, p)
	if !ok {
		return
	}
	defer sc.close()
	if c.err = c.setOffset(a.Offset, 0, 0); c.err != nil {
		return
	}
	filter, perr := s.excluding(nil, a.Exclude, sc, false, c)
	if perr != nil {
		c.err = perr
		return
	}
	wh, perr := s.newWhich(c, sc, p, filter, false, policy(c.policy, sc.root.Name))
	if perr != nil {
		c.err = perr
		return
	}
	c.started = true
	w := wh.walker()
	w.File = func(rel, tpath string) error {
		it := &protocol.Item{Path: protocol.Data(sc.display(rel)), Kind: protocol.KindFile}
		if st, err := sc.tree.Lstat(tpath); err == nil {
			it.Size = st.Size
		}
		return c.emit(it)
	}
	w.Dir = func(rel, _ string) error {
		return c.emit(&protocol.Item{Path: protocol.Data(sc.display(rel) + "/"), Kind: protocol.KindDir})
	}
	w.Link = func(rel, _ string) error {
		return c.emit(&protocol.Item{Path: protocol.Data(sc.display(rel)), Kind: protocol.KindSymlink})
	}
	c.end(sc.walk(w), w)
}

// excluding adds to filter (which may be nil) the exclusions of a glob or
// a list: what the globs match is left out, a directory with all it
// holds; they win over what filter takes.
func (s *Server) excluding(filter *match.Filter, exclude protocol.Strings, sc scope, caseInsensitive bool, c *call) (*match.Filter, *protocol.Error) {
	if len(exclude) == 0 {
		return filter, nil
	}
	ex := make([]string, len(exclude))
	for i, e := range exclude {
		ex[i] = "!" + strings.TrimPrefix(e, "!")
	}
	f, perr := s.globArgs(ex, sc, caseInsensitive, c.meter)
	if perr != nil {
		return nil, perr
	}
	return filter.Then(f), nil
}
