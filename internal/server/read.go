package server

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"

	"github.com/rootbound/rootbound/internal/nofollow"
	"github.com/rootbound/rootbound/internal/page"
	"github.com/rootbound/rootbound/internal/search"
	"github.com/rootbound/rootbound/protocol"
)

// read sends lines of one file as items (a grep's content items without
// matches), from the offset, at most limit lines and max_bytes of them.
// The file is picked as a grep given it as its path would pick it (no link
// at any component, .git never, the root's deny list and hidden policy);
// ignore files do not apply to a file named. What a grep would skip, a
// read refuses: a binary file (a NUL byte anywhere), one over the size
// cap, anything but a regular file.
func (s *Server) read(c *call, a *protocol.ReadArgs) {
	offset, limit, maxBytes := a.Offset, a.Limit, a.MaxBytes
	switch {
	case a.Path == "":
		c.err = protocol.NewError(protocol.CodeInvalidArgument, "read needs a path: the file to read")
	case offset < 0 || offset > protocol.MaxResultsCeiling:
		c.err = protocol.NewError(protocol.CodeInvalidArgument, fmt.Sprintf("offset %d, want 1 to %d (the first line to read)", offset, protocol.MaxResultsCeiling))
	case limit < 0 || limit > protocol.MaxReadLines:
		c.err = protocol.NewError(protocol.CodeInvalidArgument, fmt.Sprintf("limit %d, want 1 to %d", limit, protocol.MaxReadLines))
	case maxBytes < 0 || maxBytes > protocol.MaxReadBytes:
		c.err = protocol.NewError(protocol.CodeInvalidArgument, fmt.Sprintf("max_bytes %d, want 1 to %d", maxBytes, protocol.MaxReadBytes))
	}
	if c.err != nil {
		return
	}
	offset, limit = max(offset, 1), cmp.Or(limit, protocol.MaxReadLines)
	maxBytes = cmp.Or(maxBytes, protocol.DefaultReadBytes)
	sc, perr := s.scope(a.Path)
	if perr != nil {
		if perr.Code == protocol.CodeNotADirectory {
			perr = protocol.NewError(protocol.CodeNotAFile, fmt.Sprintf("path %q is not a regular file (a FIFO, socket or device is never opened)", a.Path))
		}
		c.err = perr
		return
	}
	defer sc.close()
	if !sc.file {
		c.err = protocol.NewError(protocol.CodeNotAFile, fmt.Sprintf("path %q is a directory: list it, or glob in it", a.Path))
		return
	}
	if _, perr := s.newWhich(c, sc, pick{noIgnore: true}, nil, false, policy(c.policy, sc.root.Name)); perr != nil {
		c.err = perr
		return
	}
	data, perr := s.wholeFile(c, sc, a.Path)
	if c.err = perr; perr != nil {
		return
	}
	display := sc.display("")
	c.started = true
	c.done.Lines = lineCount(data)
	// The page's results are lines: offset-1 skipped, limit sent, and the
	// next one truncates; the text bytes are read's own bound.
	c.page = page.New[[]byte](page.Limits{Offset: offset - 1, Max: limit, MaxOutput: c.maxOutput})
	p := &c.page
	line, sentBytes, cut := 1, 0, false
	for ; len(data) > 0; line++ {
		text, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		f := p.Next()
		if f == page.Skipped {
			continue
		}
		if f == page.Past {
			cut = true
			break
		}
		t, _ := snippetSpans(text, nil, c.maxText, nil)
		if p.Results() > 0 && sentBytes+len(t)+1 > maxBytes {
			cut = true
			break
		}
		d := protocol.Data(t)
		it := protocol.Item{Path: protocol.Data(display), LineNumber: line, Text: &d}
		if err := c.send(f, &it); err != nil {
			if c.writeErr != nil {
				c.err = protocol.AsError(err)
			}
			cut = true
			break
		}
		sentBytes += len(t) + 1
	}
	if cut && p.Results() > 0 {
		// Lines to read on from: the host words it with done.lines.
		c.done.Truncated, c.done.NextOffset = true, offset+p.Results()
	}
}

// wholeFile reads the one file sc names, as read and stat take it: a
// regular file, no NUL byte in it, under the size cap, through no link.
// The error says why not (CodeBinary, CodeTooLarge, CodeNotAFile,
// CodeSymlink, CodeNotFound, CodeUnreadable, or what the meter says),
// naming the file as results show it; path is the file as the call gave it.
// A UTF-8 byte order mark is not text of line 1, as for grep: data starts
// after it.
func (s *Server) wholeFile(c *call, sc scope, path string) (data []byte, perr *protocol.Error) {
	display := sc.display("")
	data, n, err := s.reader.Read(sc.tree, sc.rel, c.maxSize, protocol.BinarySniffBytes, c.meter)
	c.done.Stats.Files, c.done.Stats.FilesRead = 1, 1
	if berr := c.addBytes(n); berr != nil && err == nil {
		err = berr
	}
	nul := -1
	var link *nofollow.LinkError
	if err == nil {
		if err = c.meter.Spend(len(data) / 8); err == nil {
			nul = bytes.IndexByte(data, 0)
		}
	}
	switch {
	case c.meter.Err() != nil:
		perr = protocol.AsError(c.meter.Err())
	case errors.Is(err, search.ErrBinary) || err == nil && nul >= 0:
		at := ""
		if nul >= 0 {
			at = fmt.Sprintf(" at offset %d", nul)
		}
		perr = protocol.NewError(protocol.CodeBinary, fmt.Sprintf("%s is binary (a NUL byte%s): not read", display, at))
	case errors.Is(err, search.ErrTooLarge):
		perr = protocol.NewError(protocol.CodeTooLarge, fmt.Sprintf("%s is over the size cap of %d bytes: not read", display, c.maxSize))
	case errors.Is(err, search.ErrSpecial):
		perr = protocol.NewError(protocol.CodeNotAFile, fmt.Sprintf("%s is not a regular file (a FIFO, socket or device is never opened)", display))
	case errors.As(err, &link):
		// Swapped for a link since the path was resolved: never followed.
		perr = protocol.SymlinkError(path, "")
	case err != nil:
		perr = protocol.AsError(err)
		if perr.Code == protocol.CodeInternal {
			code := protocol.CodeUnreadable
			if missing(err) {
				code = protocol.CodeNotFound // gone since it was resolved
			}
			perr = protocol.NewError(code, fmt.Sprintf("%s cannot be read: %s", display, errnoText(err)))
		}
	}
	return bytes.TrimPrefix(data, utf8BOM), perr
}

// lineCount is how many lines data holds, as cat -n numbers them: a last
// line without its newline counts.
func lineCount(data []byte) int {
	n := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}
