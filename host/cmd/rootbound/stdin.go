package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/protocol"
)

// stdinName is the name standard input is searched under, as rg names it.
const stdinName = "<stdin>"

// stdinTarget makes a directory of its own, closed to others and removed
// when the target is let go, for what stdin holds, and returns it as the
// target of a search: stdin is searched through the sandbox as a file is.
// Streamed, the target holds stdin a piece at a time (grepStream), and no
// size cap applies, as none does in rg; otherwise stdin is copied whole,
// up to the size cap and a byte more (a file over the cap is said to be,
// as any).
func stdinTarget(stdin io.Reader, maxSize int64, stream bool) (target, error) {
	dir, err := os.MkdirTemp("", "rootbound-stdin")
	if err != nil {
		return target{}, err
	}
	clean := func() { os.RemoveAll(dir) }
	f, err := os.OpenFile(filepath.Join(dir, stdinName), os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o600)
	if err == nil && !stream {
		_, err = io.Copy(f, io.LimitReader(stdin, maxSize+1))
	}
	if err == nil {
		err = f.Close()
	}
	var d *os.File
	if err == nil {
		d, err = os.Open(dir)
	}
	if err != nil {
		clean()
		return target{}, fmt.Errorf("standard input: %w", err)
	}
	t := target{dir: d, file: stdinName, close: func() { d.Close(); clean() }}
	if stream {
		t.stream = stdin
	}
	return t, nil
}

// stdinPiece is how much of a streamed stdin one call searches at most
// (or the size cap, when smaller), but for a line longer than it (which is
// a piece of its own, up to the size cap): a piece ends at the last line
// end within it.
var stdinPiece = 4 << 20 // a variable for tests

// A piecer cuts a stream into pieces of whole lines.
type piecer struct {
	r    *bufio.Reader
	rest []byte // read past the last piece's end
	eof  bool
	err  error // a read that failed (not the end)
}

// next returns the next piece of whole lines (the stream's last line may
// lack its '\n'), or false at the end. A line longer than maxSize is cut
// after maxSize+1 bytes, and what is left of it dropped: the module says
// the piece is over the cap, as it says of a file.
func (p *piecer) next(maxSize int64) ([]byte, bool) {
	buf := make([]byte, max(1, min(int64(stdinPiece), maxSize))) // a piece is a file the cap lets through
	n := copy(buf, p.rest)
	p.rest = nil
	if !p.eof {
		m, err := io.ReadFull(p.r, buf[n:])
		n += m
		p.ended(err)
	}
	buf = buf[:n]
	switch i := bytes.LastIndexByte(buf, '\n'); {
	case n == 0:
		return nil, false
	case p.eof:
		return buf, true
	case i >= 0:
		p.rest = append(p.rest, buf[i+1:]...)
		return buf[:i+1], true
	}
	// One line longer than a piece: read to its end, up to the cap.
	for int64(len(buf)) <= maxSize && !p.eof {
		line, err := p.r.ReadSlice('\n')
		buf = append(buf, line...)
		if err == nil {
			return buf, true
		}
		if err != bufio.ErrBufferFull {
			p.ended(err)
		}
	}
	buf = buf[:min(int64(len(buf)), maxSize+1)]
	for !p.eof { // past the cap: the rest of the line is dropped
		if _, err := p.r.ReadSlice('\n'); err != bufio.ErrBufferFull {
			if err == nil {
				break
			}
			p.ended(err)
		}
	}
	return buf, true
}

// ended notes what a read's error says: the end, or a failure.
func (p *piecer) ended(err error) {
	if err != nil {
		p.eof = true
		if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
			p.err = err
		}
	}
}

// lines is how many lines b holds (a last one without its '\n' counts).
func lines(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// lastLines is the last n lines of b, a piece of whole lines.
func lastLines(b []byte, n int) []byte {
	i := len(b)
	for ; n > 0 && i > 0; n-- {
		i = bytes.LastIndexByte(b[:i-1], '\n') + 1
	}
	return b[i:]
}

// grepStream searches a streamed stdin (t.stream) a piece at a time, each
// piece a call of its own on the file of t, and prints what it finds as
// one search of one file: line numbers count from the stream's start,
// counts add up, a file list names it once, and each piece begins with
// the lines of the one before that context may take (a line printed
// already is not printed again). It stops, as rg does, at the first
// match of a list of files, at -m's count, at the results' cap, and at a
// piece found binary. A multiline pattern is not streamed (stdinTarget).
func grepStream(ctx context.Context, r *host.Runner, t target, g host.GrepArgs, maxSize int64, out *output) *host.Result {
	mode := g.OutputMode
	keep := 0
	if mode == protocol.ModeContent {
		keep = max(g.Context, g.BeforeContext, g.AfterContext)
	}
	file := filepath.Join(t.dir.Name(), stdinName)
	p := piecer{r: bufio.NewReaderSize(t.stream, 64<<10)}
	all := &host.Result{Tool: "grep", Pattern: g.Pattern, Mode: mode}
	all.Done.Status = protocol.StatusComplete
	var prev []byte
	before, printed, count, found := 0, 0, 0, false
	pieces, without := 0, 0
	var path protocol.Data = stdinName
	for {
		piece, ok := p.next(maxSize)
		if !ok {
			break
		}
		head := lastLines(prev, keep)
		body := append(append(make([]byte, 0, len(head)+len(piece)), head...), piece...)
		if err := os.WriteFile(file, body, 0o600); err != nil {
			all.Done.Error = protocol.NewError(protocol.CodeInternal, "standard input: "+err.Error())
			break
		}
		base, first, inPiece, floor := before-lines(head), true, 0, printed
		pieces++
		res, _ := r.GrepEach(ctx, g, func(it host.Item) error {
			path = it.Path
			switch mode {
			case protocol.ModeCount, protocol.ModeCountMatches:
				count += it.Count
				return nil
			case protocol.ModeFiles:
				found = true
				return nil
			case protocol.ModeFilesWithout:
				without++ // this piece holds no match
				return nil
			}
			if it.LineNumber += base; it.LineNumber <= floor {
				return nil // a line of the piece before, printed with it
			}
			if first && floor > 0 {
				it.Break = keep > 0 && it.LineNumber != floor+1
			}
			first, printed = false, it.LineNumber
			if !it.Context {
				inPiece++
			}
			return out.item(it)
		})
		all.Problems = append(all.Problems, res.Problems...)
		d := &all.Done
		d.Skipped.Add(res.Done.Skipped)
		d.Stats.BytesRead += res.Done.Stats.BytesRead
		d.Stats.Files, d.Stats.FilesRead = 1, 1
		d.Results += inPiece
		d.Truncated = d.Truncated || res.Done.Truncated
		if res.Done.Error != nil {
			d.Error, d.Status = res.Done.Error, res.Done.Status
		}
		before, prev = before+lines(piece), body
		// -m and --max-results count over the whole stream.
		if g.MaxCount > 0 && inPiece >= g.MaxCount || g.MaxResults < protocol.MaxResultsCeiling && inPiece >= g.MaxResults {
			d.Truncated = d.Truncated || g.MaxResults < protocol.MaxResultsCeiling && inPiece >= g.MaxResults
			break
		}
		if g.MaxCount > 0 {
			g.MaxCount -= inPiece
		}
		if g.MaxResults < protocol.MaxResultsCeiling {
			g.MaxResults -= inPiece
		}
		if d.Error != nil || res.Done.Skipped.Binary > 0 || out.quit || found && mode == protocol.ModeFiles || mode == protocol.ModeFilesWithout && without < pieces {
			break
		}
	}
	if p.err != nil && all.Done.Error == nil {
		all.Problems = append(all.Problems, protocol.Problem{Path: stdinName, Code: protocol.SkippedUnreadable, Message: "standard input: " + p.err.Error()})
		all.Done.Skipped.Unreadable++
	}
	var last host.Item
	switch {
	case count > 0:
		last = host.Item{Path: path, Count: count}
	case found && mode == protocol.ModeFiles, mode == protocol.ModeFilesWithout && without == pieces && all.Done.Error == nil:
		last = host.Item{Path: path}
	default:
		return all
	}
	all.Done.Results = 1
	_ = out.item(last)
	return all
}
