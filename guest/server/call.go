package server

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/rootbound/rootbound/guest/protocol"
	"github.com/rootbound/rootbound/guest/walk"
)

// maxProblemLines bounds the Problem lines of one call; the rest are only
// counted in Skipped.Unreadable, so a tree of unreadable files cannot flood
// a response.
const maxProblemLines = 20

// clockEvery is how many entries pass between two looks at the clock: a
// look is a WASI call, and 64 entries take well under a millisecond.
const clockEvery = 64

// call is the state of one request: its limits, its counters and the lines
// it has written.
type call struct {
	id  string
	enc *protocol.Encoder
	bw  *bufio.Writer
	now func() time.Time

	deadline   time.Time
	maxEntries int64
	maxBytes   int64
	maxSize    int64
	entries    int64

	max      int // max results
	done     protocol.Done
	err      *protocol.Error
	started  bool // past validation: an error now means partial, not failed
	problems int
	writeErr error
}

// handle runs one request line (tooLong: a line over MaxLineBytes, already
// discarded) and returns the call, ready to finish.
func (s *Server) handle(line []byte, tooLong bool, enc *protocol.Encoder, bw *bufio.Writer) *call {
	c := &call{enc: enc, bw: bw, now: s.now, maxSize: protocol.DefaultMaxFileSize}
	if tooLong {
		c.err = protocol.NewError(protocol.CodeInvalidArgument,
			fmt.Sprintf("protocol: request line longer than %d bytes", protocol.MaxLineBytes))
		return c
	}
	req, perr := protocol.DecodeRequest(line)
	c.id = req.ID
	if perr != nil {
		c.err = perr
		return c
	}
	if l := req.Limits; l != nil {
		if l.DeadlineMS < 0 || l.MaxEntries < 0 || l.MaxBytes < 0 || l.MaxFileSize < 0 {
			c.err = protocol.NewError(protocol.CodeInvalidArgument, "protocol: limits must not be negative")
			return c
		}
		if l.DeadlineMS > 0 {
			c.deadline = s.now().Add(time.Duration(l.DeadlineMS) * time.Millisecond)
		}
		c.maxEntries, c.maxBytes = l.MaxEntries, l.MaxBytes
		if l.MaxFileSize > 0 {
			c.maxSize = l.MaxFileSize
		}
	}
	if req.Glob != nil {
		s.glob(c, req.Glob)
	} else {
		s.grep(c, req.Grep)
	}
	return c
}

// maxResults validates a max_results argument.
func (c *call) maxResults(n int) *protocol.Error {
	switch {
	case n == 0:
		c.max = protocol.DefaultMaxResults
	case n < 0 || n > protocol.MaxResultsCeiling:
		return protocol.NewError(protocol.CodeInvalidArgument,
			fmt.Sprintf("max_results %d, want 1 to %d", n, protocol.MaxResultsCeiling))
	default:
		c.max = n
	}
	return nil
}

// check runs between entries: the entry budget, and the clock every
// clockEvery entries.
func (c *call) check() error {
	c.entries++
	if c.maxEntries > 0 && c.entries > c.maxEntries {
		return protocol.NewError(protocol.CodeBudget,
			fmt.Sprintf("work budget spent: %d directory entries visited", c.maxEntries))
	}
	if c.entries%clockEvery == 0 {
		return c.checkClock()
	}
	return nil
}

func (c *call) checkClock() error {
	if !c.deadline.IsZero() && !c.now().Before(c.deadline) {
		return protocol.NewError(protocol.CodeDeadline, "deadline reached before the search finished")
	}
	return nil
}

// addBytes counts bytes read against the byte budget.
func (c *call) addBytes(n int64) error {
	c.done.Stats.BytesRead += n
	if c.maxBytes > 0 && c.done.Stats.BytesRead > c.maxBytes {
		return protocol.NewError(protocol.CodeBudget,
			fmt.Sprintf("work budget spent: %d bytes read", c.maxBytes))
	}
	return nil
}

// emit sends one result, or ends the walk when max results were sent and
// another one turned up.
func (c *call) emit(it *protocol.Item) error {
	if c.done.Results == c.max {
		c.done.Truncated = true
		return walk.SkipAll
	}
	c.done.Results++
	return c.write(&protocol.Line{ID: c.id, Item: it})
}

func (c *call) write(l *protocol.Line) error {
	if c.writeErr == nil {
		c.writeErr = c.enc.Encode(l)
	}
	return c.writeErr
}

// problem records a path that could not be read. A revoked mount (the host
// cancelled the call: every file system call fails with ENOTSUP) ends the
// call instead.
func (c *call) problem(display string, err error) error {
	if errors.Is(err, syscall.ENOTSUP) {
		return protocol.NewError(protocol.CodeCancelled, "the host cancelled the call")
	}
	c.done.Skipped.Unreadable++
	if c.problems >= maxProblemLines {
		return nil
	}
	c.problems++
	return c.write(&protocol.Line{ID: c.id, Problem: &protocol.Problem{
		Path: protocol.Data(display), Code: protocol.SkippedUnreadable, Message: errnoText(err),
	}})
}

// errnoText is an error's cause without its path: a native build's paths are
// host paths, which must not leak.
func errnoText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}

// end records how the walk ended.
func (c *call) end(err error, w *walk.Walker) {
	c.done.Stats.Dirs = w.Dirs
	c.done.Stats.Files = w.Files
	c.done.Skipped.Symlink = w.Symlink
	c.done.Skipped.Special = w.Special
	if err != nil {
		c.err = protocol.AsError(err)
	}
}

// finish writes the final line and flushes.
func (c *call) finish() error {
	d := c.done
	switch {
	case c.err == nil:
		d.Status = protocol.StatusComplete
	case c.started:
		d.Status = protocol.StatusPartial
	default:
		d.Status = protocol.StatusFailed
	}
	d.Error = c.err
	if c.writeErr != nil {
		return c.writeErr
	}
	if err := c.enc.Encode(&protocol.Line{ID: c.id, Done: &d}); err != nil {
		return err
	}
	return c.bw.Flush()
}
