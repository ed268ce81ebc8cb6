package server

import (
	"bytes"
	"fmt"

	"github.com/rootbound/rootbound/internal/match"
	"github.com/rootbound/rootbound/internal/page"
	"github.com/rootbound/rootbound/internal/search"
	"github.com/rootbound/rootbound/protocol"
)

// grepOptions validates what grep's arguments ask of the searcher and
// returns the output mode and the searcher's options.
func grepOptions(a *protocol.GrepArgs) (protocol.OutputMode, search.Options, *protocol.Error) {
	bad := func(format string, args ...any) (protocol.OutputMode, search.Options, *protocol.Error) {
		return "", search.Options{}, protocol.NewError(protocol.CodeInvalidArgument, fmt.Sprintf(format, args...))
	}
	mode := a.OutputMode
	switch mode {
	case "":
		mode = protocol.ModeFiles
	case protocol.ModeFiles, protocol.ModeContent, protocol.ModeCount, protocol.ModeCountMatches, protocol.ModeFilesWithout:
	default:
		return bad("output_mode %q, want files_with_matches|content|count|count_matches|files_without_match", a.OutputMode)
	}
	for _, n := range []struct {
		name string
		v    int
	}{{"context", a.Context}, {"before_context", a.BeforeContext}, {"after_context", a.AfterContext}} {
		if n.v < 0 || n.v > protocol.MaxContext {
			return bad("%s %d, want 0 to %d", n.name, n.v, protocol.MaxContext)
		}
	}
	if a.MaxCount < 0 {
		return bad("max_count %d, want 0 (no bound) or more", a.MaxCount)
	}
	if a.MaxColumns < 0 {
		return bad("max_columns %d, want 0 (no bound) or more", a.MaxColumns)
	}
	switch {
	case a.ExcludePattern != "" && (a.Invert || a.Multiline):
		return bad("exclude_pattern with invert or multiline: it leaves out matching lines of a line search")
	case a.Invert && a.Multiline:
		return bad("invert and multiline together: an inverted search takes lines, not matches")
	case a.Invert && a.OnlyMatching:
		return bad("invert and only_matching together: the lines an inverted search takes hold no match")
	}
	o := search.Options{Invert: a.Invert, MaxCount: a.MaxCount}
	o.Before, o.After = a.ContextLines()
	o.Spans = mode == protocol.ModeContent || mode == protocol.ModeCountMatches
	o.NoNumbers = mode != protocol.ModeContent
	return mode, o, nil
}

// sink turns what the searcher finds in one file into items: the printer
// of the module, one for every output mode.
type sink struct {
	c     *call
	mode  protocol.OutputMode
	only  bool // each match its own item
	multi bool // a multiline search: count the lines matches start in
	// maxColumns, if positive: a line longer than this is sent without
	// its text (rg -M).
	maxColumns int

	// text: a NUL byte does not make a file binary (rg -a).
	text bool
	// exclude, if set: a matching line it matches too is not taken
	// (exclude_pattern).
	exclude match.Matcher

	path  protocol.Data
	data  []byte // the file's text, looked at for a NUL at the first match
	nulAt int    // where data has a NUL past the first BinarySniffBytes; -1: none
	count int
	err   error
	// The item being sent, its text and spans: one of each, reused from
	// line to line, since write1 encodes an item before the next is made
	// (a grep of the Go tree for "return" sends 165,000).
	it     protocol.Item
	itText protocol.Data
	subs   []protocol.Span
}

// start readies the sink for a file of text data.
func (s *sink) start(path protocol.Data, data []byte) {
	s.path, s.data, s.nulAt, s.count = path, data, -1, 0
	s.c.page.File()
}

// binary looks, at a file's first match, for a NUL byte past the first
// BinarySniffBytes (the reader looked at those): a NUL anywhere makes a
// file binary, as in rg, and one with no match need not be looked at. It
// reports whether one was found, before anything of the file was sent.
func (s *sink) binary() bool {
	if s.data == nil || s.text {
		return false
	}
	rest := s.data[min(len(s.data), protocol.BinarySniffBytes):]
	s.data = nil
	if i := bytes.IndexByte(rest, 0); i >= 0 {
		s.nulAt = protocol.BinarySniffBytes + i
		return true
	}
	return false
}

// unmatched looks at a file the search found no match in for a NUL
// byte, when the mode lists such files: a binary file is not one, as in
// rg.
func (s *sink) unmatched() {
	if s.mode == protocol.ModeFilesWithout && s.count == 0 {
		s.binary()
	}
}

// finish ends a file: count modes send its count, files_without_match its
// path when nothing matched.
func (s *sink) finish() error {
	switch {
	case s.err != nil:
	case s.count > 0 && (s.mode == protocol.ModeCount || s.mode == protocol.ModeCountMatches):
		s.err = s.c.emit(&protocol.Item{Path: s.path, Count: s.count})
	case s.count == 0 && s.mode == protocol.ModeFilesWithout:
		s.err = s.c.emit(&protocol.Item{Path: s.path})
	}
	return s.err
}

// Matched implements search.Sink.
func (s *sink) Matched(number int, line []byte, spans [][2]int, starts int) bool {
	if s.exclude != nil {
		at, _, err := s.exclude.LocateAt(bytes.TrimSuffix(line, []byte{'\r'}), 0, s.c.meter)
		if err != nil {
			s.err = err
			return false
		}
		if at >= 0 {
			return true
		}
	}
	if s.binary() {
		return false
	}
	switch s.mode {
	case protocol.ModeFiles:
		s.err = s.c.emit(&protocol.Item{Path: s.path})
		return false
	case protocol.ModeFilesWithout:
		s.count++
		return false
	case protocol.ModeCount:
		if !s.multi || starts > 0 {
			s.count++
		}
		return true
	case protocol.ModeCountMatches:
		if spans == nil { // inverted: lines
			starts = 1
		}
		s.count += starts
		return true
	}
	if s.only {
		for _, sp := range spans {
			if sp[0] == sp[1] {
				continue // as rg -o: an empty match prints nothing
			}
			if !s.result(number, line[sp[0]:sp[1]], [][2]int{{0, sp[1] - sp[0]}}) {
				return false
			}
		}
		return true
	}
	return s.result(number, line, spans)
}

// result sends a matching line (or match), after the held lines that are
// its before-context, or skips it.
func (s *sink) result(number int, line []byte, spans [][2]int) bool {
	p := &s.c.page
	f := p.Next()
	if f == page.Sent {
		for _, h := range p.Held(number) {
			if !s.context(h.Line, h.V) {
				return false
			}
		}
	}
	if f == page.Skipped {
		return true
	}
	s.it = protocol.Item{Path: s.path, LineNumber: number}
	s.err = s.c.send(f, s.line(line, spans))
	return s.err == nil
}

// Context implements search.Sink: the page says whether the line goes out
// now or is held (its bytes stay valid while this file is searched) for
// the result it may come before.
func (s *sink) Context(number int, line []byte) bool {
	if s.c.page.Context(number, line) {
		return s.context(number, line)
	}
	return true
}

func (s *sink) context(number int, line []byte) bool {
	s.it = protocol.Item{Path: s.path, LineNumber: number, Context: true}
	s.err = s.c.write1(s.line(line, nil))
	return s.err == nil
}

// line fills in an item's text and spans from its line: a snippet, or
// nothing when the line is over max_columns.
func (s *sink) line(line []byte, spans [][2]int) *protocol.Item {
	it := &s.it
	if s.maxColumns > 0 && len(bytes.TrimSuffix(line, []byte{'\r'})) > s.maxColumns {
		return it
	}
	text, subs := snippetSpans(line, spans, s.c.maxText, s.subs[:0])
	s.itText, s.subs = protocol.Data(text), subs
	it.Text, it.Submatches = &s.itText, subs
	return it
}

// snippetSpans is the text of a line as an item carries it, without a
// '\r' that ends it, cut to a window around the first match when it is
// long (snippet), and its matches' spans, appended to subs, moved to where
// they are in that text (clipped to it; those outside it dropped). The
// text is line's own bytes when it is not cut: valid while line is.
func snippetSpans(line []byte, spans [][2]int, width int, subs []protocol.Span) (string, []protocol.Span) {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	col := 0
	if len(spans) > 0 {
		col = spans[0][0]
	}
	text, from, to := snippet(line, col, width)
	shift := 0
	if from > 0 {
		shift = len(ellipsis)
	}
	for _, sp := range spans {
		a, b := max(sp[0], from), min(sp[1], to)
		if a > b || a == b && sp[0] != sp[1] {
			continue
		}
		subs = append(subs, protocol.Span{Start: a - from + shift, End: b - from + shift})
	}
	return text, subs
}
