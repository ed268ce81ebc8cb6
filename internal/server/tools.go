package server

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rootbound/rootbound/internal/match"
	"github.com/rootbound/rootbound/internal/search"
	"github.com/rootbound/rootbound/internal/walk"
	"github.com/rootbound/rootbound/protocol"
)

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

func patternError(err error) *protocol.Error {
	var pe *match.PatternError
	if errors.As(err, &pe) {
		return protocol.NewError(protocol.CodeInvalidPattern, err.Error())
	}
	return protocol.NewError(protocol.CodeInvalidArgument, err.Error())
}

// begin validates what glob and grep share (max_results, the path, the
// arguments that pick files) and resolves the scope. The caller marks the
// call started once the rest is valid: an error from then on means partial
// results.
func (s *Server) begin(c *call, maxResults int, path string, a pick) (scope, bool) {
	if c.err = c.maxResults(maxResults); c.err != nil {
		return scope{}, false
	}
	if c.err = validWhich(a); c.err != nil {
		return scope{}, false
	}
	sc, err := s.scope(path)
	if err != nil {
		c.err = err
		return scope{}, false
	}
	return sc, true
}

func (s *Server) glob(c *call, a *protocol.GlobArgs) {
	if _, err := match.CompileGlob(a.Pattern, a.CaseInsensitive); err != nil {
		c.err = patternError(err)
		return
	}
	sc, ok := s.begin(c, a.MaxResults, a.Path, globPick(a))
	if !ok {
		return
	}
	defer sc.close()
	if c.err = c.setOffset(a.Offset, 0, 0); c.err != nil {
		return
	}
	pattern, perr := s.globArg(a.Pattern, sc, true)
	if perr != nil {
		c.err = perr
		return
	}
	g, err := match.CompileGlob(pattern, a.CaseInsensitive)
	if err != nil {
		c.err = patternError(err)
		return
	}
	g.Meter = c.meter
	kinds, perr := entryKinds(a)
	if perr != nil {
		c.err = perr
		return
	}
	// The glob filter (grep's -g), then the exclusions, which win.
	filter, perr := s.globArgs(a.Glob, sc, false, c.meter)
	if perr != nil {
		c.err = perr
		return
	}
	if filter, perr = s.excluding(filter, a.Exclude, sc, a.CaseInsensitive, c); perr != nil {
		c.err = perr
		return
	}
	wh, perr := s.newWhich(c, sc, globPick(a), filter, false, policy(c.policy, sc.root.Name))
	if perr != nil {
		c.err = perr
		return
	}
	c.started = true
	out := c.sorted(a.Sort, sc.tree)
	var since int64 // changed_within: the oldest modification time taken
	if a.ChangedWithin > 0 {
		since = s.now().Add(-time.Duration(a.ChangedWithin) * time.Second).UnixNano()
	}
	matches := func(rel, tpath string) bool {
		ok := g.Match(rel)
		if !ok {
			alt := wh.rootRel(rel)
			ok = alt != rel && strings.Contains(pattern, "/") && g.Match(alt)
		}
		return ok && (since == 0 || mtime(sc.tree, tpath) >= since)
	}
	w := wh.walker()
	c.inRange(w)
	w.File = c.shardFiles(w, func(rel, tpath string) error {
		if !kinds.file || !matches(rel, tpath) {
			return nil
		}
		if err := c.markFound(); err != nil {
			return err
		}
		return out.add(&protocol.Item{Path: protocol.Data(sc.display(rel))}, tpath)
	})
	if kinds.dir {
		w.Dir = func(rel, tpath string) error {
			if !matches(rel, tpath) {
				return nil
			}
			return out.add(&protocol.Item{Path: protocol.Data(sc.display(rel) + "/")}, tpath)
		}
	}
	if kinds.link {
		w.Link = func(rel, tpath string) error {
			if !matches(rel, tpath) {
				return nil
			}
			return out.add(&protocol.Item{Path: protocol.Data(sc.display(rel))}, tpath)
		}
	}
	err = s.walkTaped(c, sc, w, tapeKey(c, sc, "glob", globPick(a), a.Glob, a.Exclude, a.CaseInsensitive), nil)
	// Sorted results found before a deadline are sent too, in order.
	if ferr := out.flush(); err == nil {
		err = ferr
	}
	c.end(err, w)
}

// kinds are the kinds of entries a glob finds.
type kinds struct{ file, dir, link bool }

// entryKinds reads entry_type and include_dirs.
func entryKinds(a *protocol.GlobArgs) (kinds, *protocol.Error) {
	k := kinds{file: len(a.EntryType) == 0, dir: a.IncludeDirs}
	for _, t := range a.EntryType {
		switch t {
		case "file":
			k.file = true
		case "directory":
			k.dir = true
		case "symlink":
			k.link = true
		default:
			return k, protocol.NewError(protocol.CodeInvalidArgument, fmt.Sprintf("entry_type %s, want file, directory or symlink", match.Quote(t)))
		}
	}
	return k, nil
}

func (s *Server) grep(c *call, a *protocol.GrepArgs) {
	mode, so, perr := grepOptions(a)
	if perr != nil {
		c.err = perr
		return
	}
	m, err := match.Compile(append([]string{a.Pattern}, a.Patterns...), match.Options{
		Literal: a.Literal, Case: string(a.Case), Word: a.Word, CRLF: a.CRLF, Multiline: a.Multiline})
	if err != nil {
		c.err = patternError(err)
		return
	}
	var exclude match.Matcher
	if a.ExcludePattern != "" {
		if exclude, err = match.Compile([]string{a.ExcludePattern}, match.Options{
			Literal: a.Literal, Case: string(a.Case), Word: a.Word, CRLF: a.CRLF}); err != nil {
			c.err = patternError(err)
			return
		}
	}
	for _, globs := range []protocol.Strings{a.Glob, a.Iglob} {
		if _, err := match.CompileFilter(globs, false, c.meter); err != nil {
			c.err = patternError(err)
			if c.meter.Err() != nil {
				c.err = protocol.AsError(c.meter.Err())
			}
			return
		}
	}
	sc, ok := s.begin(c, a.MaxResults, a.Path, grepPick(a))
	if !ok {
		return
	}
	defer sc.close()
	if c.err = c.setOffset(a.Offset, so.Before, so.After); c.err != nil {
		return
	}
	filter, perr := s.globArgs(a.Glob, sc, false, c.meter)
	if perr != nil {
		c.err = perr
		return
	}
	ifilter, perr := s.globArgs(a.Iglob, sc, true, c.meter)
	if perr != nil {
		c.err = perr
		return
	}
	filter = filter.Then(ifilter)
	wh, perr := s.newWhich(c, sc, grepPick(a), filter, true, policy(c.policy, sc.root.Name))
	if perr != nil {
		c.err = perr
		return
	}
	c.started = true
	r := &s.reader
	r.BeforeGrow = func() { _ = c.bw.Flush() }
	defer func() { r.BeforeGrow = nil }()
	w := wh.walker()
	c.inRange(w)
	sink := &sink{c: c, mode: mode, only: a.OnlyMatching, multi: a.Multiline, text: a.Text, exclude: exclude}
	sniff := protocol.BinarySniffBytes
	if a.Text {
		sniff = 0
	}
	if !a.MaxColumnsPreview { // with -o, a match is the line -M measures, as rg has it; a preview is the printer's
		sink.maxColumns = a.MaxColumns
	}
	gi := s.useIndex(sc, m, a)
	search1 := func(rel, tpath string) error {
		known := false
		if gi != nil {
			// A file the index says cannot match, or knows binary, counts
			// as read, as it would have been: the same answer, the same
			// budget.
			var v verdict
			var n int64
			v, n, known = gi.pass(sc.tree, tpath, c.maxSize, sniff == 0)
			if v != readIt {
				c.done.Stats.FilesRead++
				var skip error
				if v == binaryFile {
					skip = search.ErrBinary
				}
				if err := c.markFile(n, skip); err != nil {
					return err
				}
				if berr := c.addBytes(n); berr != nil {
					return berr
				}
				if v == binaryFile {
					c.done.Skipped.Binary++
				}
				return nil
			}
		}
		data, n, err := r.Read(sc.tree, tpath, c.maxSize, sniff, c.meter)
		c.done.Stats.FilesRead++
		if err := c.markFile(n, err); err != nil {
			return err
		}
		if berr := c.addBytes(n); berr != nil {
			return berr
		}
		switch {
		case c.meter.Err() != nil:
			return c.meter.Err()
		case errors.Is(err, search.ErrBinary):
			if gi != nil && !known {
				gi.ri.addBinary(tpath, n, r.Stat, gi.now)
			}
			c.done.Skipped.Binary++
			return nil
		case errors.Is(err, search.ErrTooLarge):
			c.done.Skipped.TooLarge++
			return nil
		case errors.Is(err, search.ErrSpecial):
			c.done.Skipped.Special++
			return nil
		case err != nil:
			return c.problem(sc.display(rel), err)
		}
		// A UTF-8 byte order mark is not text of line 1: skipped, as
		// ripgrep does, so ^ matches there and no snippet carries it.
		data = bytes.TrimPrefix(data, utf8BOM)
		if gi != nil && !known && sniff > 0 {
			gi.ri.add(tpath, data, r.Stat, gi.now)
		}
		sink.start(protocol.Data(sc.display(rel)), data)
		if err := s.searcher.Search(data, m, so, c.meter, sink); err != nil {
			return err
		}
		sink.unmatched()
		if sink.nulAt >= 0 {
			c.done.Skipped.Binary++
			return c.record(sc.display(rel), protocol.SkippedBinary, fmt.Sprintf(
				"binary: a NUL byte at offset %d (past the first %d bytes), so not searched; as text, it is (text: true, rg -a)", sink.nulAt, protocol.BinarySniffBytes))
		}
		return sink.finish()
	}
	search1 = c.shardFiles(w, search1)
	if a.Sort == protocol.SortMTime || a.Sort == protocol.SortPath {
		// Newest first, or by path: list the files, then search them in
		// that order.
		var files []fileTime
		w.File = func(rel, tpath string) error {
			f := fileTime{rel: rel, tpath: tpath}
			if a.Sort == protocol.SortMTime {
				f.mtime = mtime(sc.tree, tpath)
			}
			files = append(files, f)
			return nil
		}
		err = sc.walk(w)
		if err == nil {
			sortFiles(files, a.Sort)
			for _, f := range files {
				if err = search1(f.rel, f.tpath); err != nil {
					break
				}
			}
			if errors.Is(err, walk.SkipAll) {
				err = nil
			}
		}
	} else {
		w.File = search1
		err = s.walkTaped(c, sc, w, tapeKey(c, sc, "grep", grepPick(a), a.Glob, a.Iglob), gi)
	}
	c.end(err, w)
}
