package server

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/rootbound/rootbound/internal/meter"
	"github.com/rootbound/rootbound/internal/page"
	"github.com/rootbound/rootbound/internal/walk"
	"github.com/rootbound/rootbound/internal/wire"
	"github.com/rootbound/rootbound/protocol"
)

// maxProblemLines bounds the Problem lines of one call; the rest are only
// counted in Skipped.Unreadable, so a tree of unreadable files cannot flood
// a response.
const maxProblemLines = 20

// entryCost is what visiting one directory entry charges the meter, in its
// units (about a byte scanned each): with meter.Interval, the clock is read
// at least every 256 entries, which take well under a millisecond.
const entryCost = meter.Interval / 256

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
	maxText    int           // the longest line an item carries whole
	maxOutput  int64         // bytes of item lines; 0: no bound
	progress   time.Duration // between progress lines; 0: none
	progressAt time.Time     // when the next one is due
	entries    int64
	meter      *meter.Meter

	policy []protocol.RootPolicy
	max    int // max results
	offset int // results skipped before the first sent
	// page decides each result's fate; its held lines are a file's, valid
	// while the file is searched.
	page page.Page[[]byte]
	// A shard's state (protocol/shard.go, internal/wire/marks.go): shard is nil for a whole call.
	shard   *protocol.Shard
	pos     int64                // position of the next file the search takes
	fileSeq int64                // position of the file being searched; -1 between files
	within  bool                 // stopped while searching the file at pos
	own     protocol.Skipped     // the shard's own files' share of done.Skipped
	mark    *[wire.MarkLen]int64 // the mark of the file being searched
	marks   []byte               // a Mark line being filled
	nmarks  int                  // marks in it
	sent    [wire.MarkLen]int64  // a glob's: the counts of the last mark or walk line sent, but its files
	walker  *walk.Walker
	// outside: a range's shard has not reached its range yet; samples
	// are every step-th file of its share, for the host's next cut.
	outside bool
	samples []protocol.Sample
	step    int64
	// tape records the walk outside a file's search (tape.go), or nil.
	tape     *tape
	line     []byte          // the item line being written, reused
	items    wire.ItemWriter // item lines, a file's path encoded once
	done     protocol.Done
	err      *protocol.Error
	started  bool // past validation: an error now means partial, not failed
	problems int
	writeErr error
}

// handle runs one request line (tooLong: a line over MaxLineBytes, already
// discarded) and returns the call, ready to finish.
func (s *Server) handle(line []byte, tooLong bool, enc *protocol.Encoder, bw *bufio.Writer) *call {
	c := &call{enc: enc, bw: bw, now: s.now, maxSize: protocol.DefaultMaxFileSize, maxText: protocol.DefaultMaxTextBytes}
	c.meter = meter.New(c.checkClock)
	if tooLong {
		c.err = protocol.ErrLineTooLong()
		return c
	}
	req, perr := protocol.DecodeRequest(line)
	c.id = req.ID
	if perr != nil {
		c.err = perr
		return c
	}
	// What the change feed names is applied whatever becomes of the call:
	// the host sends it once.
	s.changed(req.Changes)
	if l := req.Limits; l != nil {
		if l.DeadlineMS < 0 || l.MaxEntries < 0 || l.MaxBytes < 0 || l.MaxFileSize < 0 || l.MaxOutputBytes < 0 || l.MaxTextBytes < 0 {
			c.err = protocol.NewError(protocol.CodeInvalidArgument, "limits must not be negative")
			return c
		}
		if l.DeadlineMS > protocol.MaxDeadlineMS {
			c.err = protocol.NewError(protocol.CodeInvalidArgument,
				fmt.Sprintf("deadline_ms %d, want at most %d (a year)", l.DeadlineMS, protocol.MaxDeadlineMS))
			return c
		}
		if l.MaxFileSize > protocol.MaxFileSizeCeiling {
			c.err = protocol.NewError(protocol.CodeInvalidArgument,
				fmt.Sprintf("max_file_size %d, want at most %d (1 GiB: a file is read whole into the module's memory)", l.MaxFileSize, protocol.MaxFileSizeCeiling))
			return c
		}
		if l.DeadlineMS > 0 {
			c.deadline = s.now().Add(time.Duration(l.DeadlineMS) * time.Millisecond)
		}
		c.maxEntries, c.maxBytes, c.maxOutput = l.MaxEntries, l.MaxBytes, l.MaxOutputBytes
		if l.ProgressMS > 0 {
			c.progress = time.Duration(min(l.ProgressMS, protocol.MaxDeadlineMS)) * time.Millisecond
			c.progressAt = s.now().Add(c.progress)
		}
		if l.MaxFileSize > 0 {
			c.maxSize = l.MaxFileSize
		}
		if l.MaxTextBytes > 0 {
			c.maxText = int(min(l.MaxTextBytes, 1<<40))
		}
	}
	c.policy = req.Policy
	c.fileSeq = -1
	if req.Shard != nil {
		if c.err = req.Shard.Check(); c.err != nil {
			return c
		}
		if c.err = shardable(&req.Call, req.Shard); c.err != nil {
			return c
		}
		c.shard, c.step = req.Shard, 1
		if req.Shard.Ranged() {
			c.pos, c.outside = protocol.RangeSeq(req.Shard.Index), req.Shard.From != ""
		}
	}
	switch {
	case req.Index != nil:
		s.index(c, req.Index)
	case req.Load != nil:
		s.load(c, req.Load)
	default:
		s.dispatch(c, &req.Call)
	}
	return c
}

// shardable says why a call cannot be the shard sh, or nil: only a grep,
// and a glob of files alone in walk order (its results are the files its
// walk takes, in order, as a grep's), are split; a sorted grep's order is
// not the walk's, so it is split by position only.
func shardable(call *protocol.Call, sh *protocol.Shard) *protocol.Error {
	switch g := call.Glob; {
	case call.Grep != nil:
		if sh.Ranged() && call.Grep.Sort != "" {
			return protocol.NewError(protocol.CodeInvalidArgument, "shard: a sorted grep is not split by ranges")
		}
	case g != nil:
		if !g.FilesInWalkOrder() {
			return protocol.NewError(protocol.CodeInvalidArgument, "shard: only a glob of files in walk order is split")
		}
	default:
		return protocol.NewError(protocol.CodeInvalidArgument, "shard: only a grep or a glob is split across instances")
	}
	return nil
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

// setOffset validates an offset argument and starts the page of results
// past it, with before and after context lines.
func (c *call) setOffset(n, before, after int) *protocol.Error {
	if n < 0 || n > protocol.MaxResultsCeiling {
		return protocol.NewError(protocol.CodeInvalidArgument,
			fmt.Sprintf("offset %d, want 0 to %d", n, protocol.MaxResultsCeiling))
	}
	c.offset = n
	l := page.Limits{Offset: n, Max: c.max, Before: before, After: after, MaxOutput: c.maxOutput}
	if c.shard != nil {
		// The host applies the offset; a shard sends every result the
		// call's page may need, and the one past it that truncates it.
		// No output cap either: the host's decides, at the item where
		// one instance's would, which it can only see sent.
		l.Offset, l.Max, l.MaxOutput = 0, n+c.max+1, 0
	}
	c.page = page.New[[]byte](l)
	return nil
}

// check runs before each entry: the entry budget, and the meter.
func (c *call) check() error {
	c.entries++
	if c.maxEntries > 0 && c.entries > c.maxEntries {
		return wire.ErrEntryBudget(c.maxEntries)
	}
	return c.meter.Spend(entryCost)
}

// checkClock is the meter's check: it reads the clock (a host call, which
// also lets a wazero host's garbage collector stop the world) and ends the
// call at its deadline. A host that cancels a call moves the module's clock
// past every deadline, so this is also where a cancellation is noticed.
func (c *call) checkClock() error {
	if c.deadline.IsZero() && c.progress == 0 {
		return nil // nothing to look at the clock for
	}
	now := c.now()
	if !c.deadline.IsZero() && !now.Before(c.deadline) {
		return protocol.NewError(protocol.CodeDeadline, "deadline reached before the search finished")
	}
	if c.progress > 0 && c.started && !now.Before(c.progressAt) {
		// Between two lines: the meter is never charged while one is
		// written.
		c.progressAt = now.Add(c.progress)
		if c.write(&protocol.Line{ID: c.id, Progress: &protocol.Progress{
			Entries: c.entries, FilesRead: c.done.Stats.FilesRead, Results: c.done.Results + c.page.Results()}}) == nil {
			c.writeErr = c.bw.Flush()
		}
	}
	return nil
}

// addBytes counts bytes read against the byte budget.
func (c *call) addBytes(n int64) error {
	if c.tape != nil && n > 0 {
		c.tape.taped(tapeEvent{bytes: n})
	}
	c.done.Stats.BytesRead += n
	if c.shard != nil && c.fileSeq < 0 && c.sendsWalk() {
		// The walk's reads (ignore files) are every shard's, or a
		// range's own: shard 0, or the range, says where they fall, for
		// the whole call's byte budget.
		mark := c.walkCounts(c.pos)
		mark[wire.MarkBytes] = n
		if err := c.writeWalk(&mark); err != nil {
			return err
		}
	}
	if c.maxBytes > 0 && c.done.Stats.BytesRead > c.maxBytes {
		return wire.ErrByteBudget(c.maxBytes)
	}
	return nil
}

// emit sends one result, or ends the walk when max results were sent and
// another one turned up, or when this one would take the answer's item
// lines past maxOutput bytes.
func (c *call) emit(it *protocol.Item) error { return c.send(c.page.Next(), it) }

// send sends a result whose fate the page decided.
func (c *call) send(f page.Fate, it *protocol.Item) error {
	switch f {
	case page.Skipped:
		return nil
	case page.Past:
		return walk.SkipAll
	}
	if err := c.write1(it); err != nil {
		return err
	}
	c.page.Sent(it.LineNumber)
	return nil
}

// write1 writes an item line, or ends the walk when it would take the
// answer's item lines past maxOutput bytes.
func (c *call) write1(it *protocol.Item) error {
	if c.flushMarks() != nil {
		return c.writeErr
	}
	it.Break = c.page.Break(string(it.Path), it.LineNumber)
	if c.shard == nil {
		c.line = c.items.Append(c.line[:0], c.id, it)
	} else {
		c.line = c.items.AppendShard(c.line[:0], c.id, c.fileSeq, it)
	}
	if !c.page.Fits(len(c.line), string(it.Path), it.LineNumber) {
		return walk.SkipAll
	}
	c.writeErr = c.enc.Write(c.line)
	return c.writeErr
}

func (c *call) write(l *protocol.Line) error {
	if c.flushMarks() == nil {
		c.writeErr = c.enc.Encode(l)
	}
	return c.writeErr
}

// problem records a path that could not be read, and the search goes on.
// Any errno may be a file's own (FUSE, /proc and /sys produce them all), so
// none is taken for the host's doing: the clock is looked at first, and a
// host that cancelled the call has moved it past the deadline.
func (c *call) problem(display string, err error) error {
	if err := c.meter.Check(); err != nil {
		return err
	}
	if c.tape != nil {
		c.tape.taped(tapeEvent{display: display, message: errnoText(err)})
	}
	c.done.Skipped.Unreadable++
	if c.fileSeq >= 0 {
		c.own.Unreadable++
	}
	return c.record(display, protocol.SkippedUnreadable, errnoText(err))
}

// record sends a problem record, unless maxProblemLines were sent (the
// caller counts it in Skipped either way).
func (c *call) record(display, code, message string) error {
	if c.problems >= maxProblemLines || c.outside {
		return nil
	}
	seq := c.fileSeq
	if c.shard != nil && seq < 0 && !c.sendsWalk() {
		// A problem about no file of the shard's own is every shard's:
		// counted by each, sent by shard 0 (or a range's own).
		return nil
	}
	c.problems++
	l := &protocol.Line{ID: c.id, Problem: &protocol.Problem{
		Path: protocol.Data(display), Code: code, Message: message,
	}}
	if c.shard != nil {
		if seq < 0 {
			seq = c.pos
		}
		l.Seq = &seq
	}
	return c.write(l)
}

// sendsWalk says whether a shard sends what its walk does outside a file
// (ignore files read, problems about no file): every shard's walk does it
// all, and shard 0 sends it; a range's shard sends its range's.
func (c *call) sendsWalk() bool {
	if c.shard.Ranged() {
		return !c.outside
	}
	return c.shard.Index == 0
}

// inRange bounds a range's shard's walk to its range.
func (c *call) inRange(w *walk.Walker) {
	if sh := c.shard; sh != nil && sh.Ranged() {
		w.From, w.To, w.Begin = string(sh.From), string(sh.To), c.beginRange
	}
}

// beginRange starts a range's shard at its range (walk.Walker.Begin):
// what it counted before was the directories above it, the range
// before's.
func (c *call) beginRange() {
	c.outside = false
	c.sent = [wire.MarkLen]int64{}
	c.entries = c.shard.Entries
	c.done.Skipped = protocol.Skipped{}
	c.done.Stats.BytesRead = 0
	c.problems = 0
}

// maxSamples bounds a shard's samples: 128 files of its share, evenly
// spaced (each step-th; the step doubles as the share grows).
const maxSamples = 128

// sample keeps the file at rel, at position seq of the shard's share, when
// it falls on the step.
func (c *call) sample(rel string, seq int64) {
	if seq%c.step != 0 {
		return
	}
	c.samples = append(c.samples, protocol.Sample{Path: protocol.Data(rel), Seq: seq, Entries: c.entries, Bytes: c.done.Stats.BytesRead})
	if len(c.samples) > maxSamples {
		n := 0
		for i := 0; i < len(c.samples); i += 2 {
			c.samples[n] = c.samples[i]
			n++
		}
		c.samples = c.samples[:n]
		c.step *= 2
	}
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
	// The index counts what it indexed; every other tool's results are
	// its page's.
	d.Results += c.page.Results()
	if c.page.Truncated() {
		// Facts, which a host words: the next page starts past what
		// was sent; a read's (it has Lines) is its own, in lines.
		d.Truncated, d.Capped = true, c.page.Capped()
		if d.Lines == 0 {
			d.NextOffset = c.page.NextOffset()
		}
	}
	switch {
	case c.err == nil:
		d.Status = protocol.StatusComplete
	case c.started:
		d.Status = protocol.StatusPartial
	default:
		d.Status = protocol.StatusFailed
	}
	d.Error = c.err
	if c.shard != nil && c.started {
		read := d.Stats.BytesRead
		// The walk's share: the files' own come in their marks and skips.
		d.Stats.FilesRead, d.Stats.BytesRead = 0, 0
		d.Skipped.Binary -= c.own.Binary
		d.Skipped.TooLarge -= c.own.TooLarge
		d.Skipped.Unreadable -= c.own.Unreadable
		d.Truncated, d.NextOffset = false, 0
		d.Shard = &protocol.ShardEnd{At: c.pos, Within: c.within}
		if c.err == nil && !c.within && !c.page.Truncated() {
			d.Shard.Samples, d.Shard.Bytes = c.samples, read
		}
	}
	if c.flushMarks() != nil {
		return c.writeErr
	}
	if err := c.enc.Encode(&protocol.Line{ID: c.id, Done: &d}); err != nil {
		return err
	}
	return c.bw.Flush()
}
