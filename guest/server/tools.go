package server

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"unicode/utf8"

	"github.com/rootbound/rootbound/guest/match"
	"github.com/rootbound/rootbound/guest/protocol"
	"github.com/rootbound/rootbound/guest/search"
	"github.com/rootbound/rootbound/guest/walk"
)

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

func patternError(err error) *protocol.Error {
	var pe *match.PatternError
	if errors.As(err, &pe) {
		return protocol.NewError(protocol.CodeInvalidPattern, err.Error())
	}
	return protocol.NewError(protocol.CodeInvalidArgument, err.Error())
}

// begin validates what glob and grep share, max_results and the path, and
// marks the call started: an error from now on means partial results.
func (s *Server) begin(c *call, maxResults int, path string) (scope, bool) {
	if c.err = c.maxResults(maxResults); c.err != nil {
		return scope{}, false
	}
	sc, err := s.scope(path)
	if err != nil {
		c.err = err
		return scope{}, false
	}
	c.started = true
	return sc, true
}

func (s *Server) glob(c *call, a *protocol.GlobArgs) {
	g, err := match.CompileGlob(a.Pattern)
	if err != nil {
		c.err = patternError(err)
		return
	}
	sc, ok := s.begin(c, a.MaxResults, a.Path)
	if !ok {
		return
	}
	g.Meter = c.meter
	w := &walk.Walker{
		Check: c.check,
		Enter: c.meter.Check,
		Meter: c.meter,
		File: func(rel, _ string) error {
			if !g.Match(rel) {
				return nil
			}
			return c.emit(&protocol.Item{Path: protocol.Data(sc.display(rel))})
		},
		Problem: func(rel string, err error) error { return c.problem(sc.display(rel), err) },
	}
	c.end(sc.walk(w), w)
	if c.done.Truncated {
		c.narrow(fmt.Sprintf("files match %q", a.Pattern), sc.label(), "narrow the pattern or the path")
	}
}

func (s *Server) grep(c *call, a *protocol.GrepArgs) {
	m, err := match.CompileLine(a.Pattern, a.Literal, a.Case)
	if err != nil {
		c.err = patternError(err)
		return
	}
	filter, err := match.CompileFilter(a.Glob)
	if err != nil {
		c.err = patternError(err)
		return
	}
	filter.SetMeter(c.meter)
	mode := a.OutputMode
	switch mode {
	case "":
		mode = protocol.ModeFiles
	case protocol.ModeFiles, protocol.ModeContent, protocol.ModeCount:
	default:
		c.err = protocol.NewError(protocol.CodeInvalidArgument,
			fmt.Sprintf("output_mode %q, want files_with_matches|content|count", a.OutputMode))
		return
	}
	sc, ok := s.begin(c, a.MaxResults, a.Path)
	if !ok {
		return
	}
	r := &search.Reader{BeforeGrow: func() { _ = c.bw.Flush() }}
	w := &walk.Walker{
		Check:   c.check,
		Enter:   c.meter.Check,
		Meter:   c.meter,
		Problem: func(rel string, err error) error { return c.problem(sc.display(rel), err) },
	}
	w.File = func(rel, full string) error {
		if !filter.Match(rel) {
			return nil
		}
		if !utf8.ValidString(path.Base(rel)) {
			return c.problem(sc.display(rel), walk.ErrNameNotUTF8)
		}
		data, n, err := r.Read(full, c.maxSize, protocol.BinarySniffBytes, c.meter)
		c.done.Stats.FilesRead++
		if berr := c.addBytes(n); berr != nil {
			return berr
		}
		switch {
		case c.meter.Err() != nil:
			return c.meter.Err()
		case errors.Is(err, search.ErrBinary):
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
		display := protocol.Data(sc.display(rel))
		var emitErr error
		count := 0
		lerr := search.Lines(data, m, c.meter, mode == protocol.ModeContent, func(number int, line []byte, col int) bool {
			switch mode {
			case protocol.ModeFiles:
				emitErr = c.emit(&protocol.Item{Path: display})
				return false
			case protocol.ModeContent:
				text := protocol.Data(snippet(line, col))
				emitErr = c.emit(&protocol.Item{Path: display, LineNumber: number, Text: &text})
				return emitErr == nil
			default:
				count++
				return true
			}
		})
		if lerr != nil {
			return lerr
		}
		if mode == protocol.ModeCount && count > 0 {
			emitErr = c.emit(&protocol.Item{Path: display, Count: count})
		}
		return emitErr
	}
	c.end(sc.walk(w), w)
	if c.done.Truncated {
		what := map[string]string{protocol.ModeFiles: "files", protocol.ModeContent: "lines", protocol.ModeCount: "files"}[mode]
		c.narrow(what+" match", sc.label(), "narrow the pattern, the path or the glob filter")
	}
}
