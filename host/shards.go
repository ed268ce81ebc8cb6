package host

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/rootbound/rootbound/internal/wire"
	"github.com/rootbound/rootbound/protocol"
)

// splitMinFiles is the smallest walk worth splitting: a grep whose path's
// last complete walk found fewer files runs on one instance. In `make
// bench`'s split table, a grep of a 12-file tree takes 2 ms and gains
// nothing from a second instance (each share is a request, and the merge
// waits for both); the node tree's 2,000 files gain 0.96–1.4× from run to
// run, the Go tree's 15,000 1.1–1.4×.
const splitMinFiles = 256

// shards is how many instances a request is split across: a grep, or a
// glob of files in walk order, on a runner that allows more than one
// (WithParallelism), unless its path's last walk was small; every other
// request runs on one. A glob is split by ranges only, when a plan for its
// walk is known (exchangeShards).
func (r *Runner) shards(req *protocol.Request) int {
	path, ok := walkPath(req)
	if !ok {
		return 1
	}
	if n, ok := r.walked.load(path); ok && n < r.splitMin {
		return 1
	}
	return r.cfg.parallelism
}

// walkPath is the path a request's walk starts at, when the request can be
// split (the module's shardable).
func walkPath(req *protocol.Request) (string, bool) {
	switch {
	case req == nil:
		return "", false
	case req.Grep != nil:
		return req.Grep.Path, true
	case req.Glob != nil:
		return req.Glob.Path, req.Glob.FilesInWalkOrder()
	}
	return "", false
}

// run sends a request (req: the line decoded, nil when it is not valid) to
// one instance, or splits it across several, and remembers how many files
// a complete grep's walk found.
func (r *Runner) run(ctx context.Context, req *protocol.Request, line []byte, id string, deadline time.Time, moduleMS int64,
	onLine func(raw []byte, l *protocol.Line) error) (Done, []byte) {
	var done Done
	var raw []byte
	var indexed *instance
	if req != nil && r.indexFor(req) {
		indexed = r.takeIndexed()
	}
	if !r.compiledNow() {
		// On the interpreter (WithLazyStart), a call runs whole on one
		// instance.
		done, raw = r.exchange(ctx, line, id, deadline, moduleMS, onLine)
	} else if indexed != nil {
		if changes := r.changes(); len(changes) > 0 {
			sent := *req
			sent.Changes = changes
			line, _ = json.Marshal(sent) // it was decoded from JSON
		}
		done, raw = r.exchangeOn(ctx, indexed, line, id, deadline, moduleMS, onLine)
	} else if n := r.shards(req); n > 1 {
		done, raw = r.exchangeShards(ctx, *req, n, deadline, moduleMS, onLine)
	} else {
		done, raw = r.exchange(ctx, line, id, deadline, moduleMS, onLine)
	}
	if path, ok := walkPath(req); ok && done.Status == StatusComplete && !done.Truncated {
		r.walked.store(path, done.Stats.Files)
	}
	return done, raw
}

// Merge keys: the lines at one position, in the order one instance writes
// them.
const (
	keyWalk       = iota // a problem about no file, before the file at the position
	keyStopBefore        // a shard's final line: it stopped before the file
	keyMark              // the file's mark
	keyFile              // the file's items, problems, skip
	keyStopWithin        // a shard's final line: it stopped while searching the file
)

// shardLine is the next line of one shard, decoded, with its merge key.
type shardLine struct {
	pos  int64
	key  int
	line protocol.Line
	mark [wire.MarkLen]int64
	raw  []byte
	// whole: no line, after a range walked whole (it sorts last).
	whole bool
}

func (a *shardLine) before(b *shardLine) bool {
	return a.pos < b.pos || a.pos == b.pos && a.key < b.key
}

// shard is one instance of a split call, as the host reads it.
type shard struct {
	inst  *instance             // nil in tests of the merge
	q     *lineQueue            // its answer's lines: its instance's
	head  *shardLine            // its next line; nil until read
	done  *protocol.Done        // its final line
	raw   []byte                // the final line as the module wrote it
	open  int64                 // the position of its file being searched (its last mark)
	marks [][wire.MarkLen]int64 // a batch of marks read, and the next to merge
	next  int
	pos   int64  // the last position it sent
	lost  string // why it ended without a final line
	items wire.ItemReader
	// line and item hold its head when it is a mark, a walk or an item,
	// the lines of which there are one or two a result: a head is merged
	// before the next is read, and what the merge hands on is copied.
	line shardLine
	item protocol.Item
}

// reuse makes l the shard's head line, in its own space.
func (s *shard) reuse(l shardLine) *shardLine {
	s.line = l
	return &s.line
}

// shardCall is a grep split across instances: the host sends each its
// share, reads their lines as the merge needs them (each instance blocks
// on its own full pipe, so a reorder buffer holds at most a pipe's worth
// per instance) and hands the merged lines on, in order, as they come.
type shardCall struct {
	r        *Runner
	id       string
	shards   []shard
	m        *merger
	onLine   func(raw []byte, l *protocol.Line) error
	lineErr  error
	moduleMS int64
	timer    *time.Timer
	ctxDone  <-chan struct{}
	// interrupted: every shard's clock was moved past its deadline (the
	// caller cancelled, or stopped taking results); revoked: their mounts
	// too (no answer in time, or the deadline passed).
	interrupted, revoked bool
	gaveUp               bool
	turns                time.Duration // instances per core, at least 1
	// ranged: the shards walk ranges (ranges.go), whose lines are read
	// as they come, not as the merge needs them, until stopRead closes:
	// a range's shard would otherwise wait on its full pipe until the
	// merge reached its range.
	ranged   bool
	stopRead chan struct{}
	reading  sync.WaitGroup
}

// exchangeShards is exchange for a grep or glob split across n instances:
// the same lines, the same final line, as one instance would write (the
// merger decides them), the same deadline and cancellation (every shard's
// clock moves, its mounts are revoked, then it is killed; a cancelled call's
// shards that answer once their clocks moved are kept).
//
// A glob reads no file: split by position, each shard would walk the whole
// tree for nothing. It is split by ranges or not at all, and with no plan
// for its walk yet it runs on one instance as the one shard of its call,
// whose samples make the plan of the next.
func (r *Runner) exchangeShards(ctx context.Context, req protocol.Request, n int, deadline time.Time, moduleMS int64,
	onLine func(raw []byte, l *protocol.Line) error) (Done, []byte) {
	if ctx.Err() != nil {
		return notStarted(ctx, "before it started"), nil
	}
	glob := req.Glob != nil
	if glob && r.ranges(&req, n) == nil {
		n = 1
	}
	first, err := r.acquire(ctx)
	if err != nil {
		return acquireFailed(ctx, err), nil
	}
	insts := append([]*instance{first}, r.more(n-1)...)
	if len(insts) == 1 && !glob {
		line, _ := json.Marshal(req) // it was decoded from JSON
		return r.exchangeOn(ctx, first, line, req.ID, deadline, moduleMS, onLine)
	}
	n = len(insts)
	ranges := r.ranges(&req, n)
	if glob && ranges == nil && n > 1 {
		for _, inst := range insts[1:] {
			r.giveBack(inst)
		}
		insts, n = insts[:1], 1
	}
	if n > 1 {
		r.split.Add(1)
	}
	c := &shardCall{r: r, id: req.ID, onLine: onLine, moduleMS: moduleMS, ctxDone: ctx.Done()}
	c.shards = make([]shard, n)
	if c.ranged = ranges != nil; c.ranged {
		c.stopRead = make(chan struct{})
		r.ranged.Add(1)
	}
	for k, inst := range insts {
		s := &c.shards[k]
		s.inst, s.q, s.open = inst, &inst.out, -1
		req.Shard = &protocol.Shard{Index: k, Count: n}
		if c.ranged {
			s.q = &lineQueue{ch: readAhead(inst.out.ch, c.stopRead, &c.reading)}
			req.Shard = &ranges[k]
		}
		line, _ := json.Marshal(req) // it was decoded from JSON
		if err := inst.send(line); err != nil {
			s.lost = "the module is gone: " + exitText(inst)
			s.head = &shardLine{key: keyStopBefore}
		}
	}
	c.m = newMerger(&req, c.emit)
	// Instances beyond the cores take turns on them: the graces past the
	// deadline grow by as many turns.
	c.turns = time.Duration(max(1, (n+runtime.GOMAXPROCS(0)-1)/runtime.GOMAXPROCS(0)))
	c.timer = time.NewTimer(time.Until(deadline) + graceAnswer*c.turns)
	defer c.timer.Stop()

	end := c.merge()
	if c.gaveUp {
		c.finish()
		return c.stopped(ctx), nil
	}
	c.drain()
	wire, raw := c.final(end)
	c.finish()
	if wire.Status == protocol.StatusComplete && !wire.Truncated && !c.revoked && !c.interrupted {
		dones := make([]*protocol.Done, n)
		for k := range c.shards {
			dones[k] = c.shards[k].done
		}
		if p := planOf(dones, c.ranged); p != nil {
			r.plans.store(r.planKey(&req), p)
		}
	}
	done := wire
	if c.revoked || c.interrupted {
		s := c.stopped(ctx)
		done.Status, done.Error = s.Status, s.Error
		wire.Status, wire.Error = s.Status, protocol.NewError(s.Error.Code, s.Error.Message)
		raw = nil
	}
	if raw == nil {
		raw, _ = json.Marshal(&protocol.Line{ID: c.id, Done: &wire})
		raw = append(raw, '\n')
	}
	return done, raw
}

// final is the call's final line, once the shards were drained; end is
// the line that ended the merge (nil: the merger ended it). raw is the line as a shard wrote
// it when one instance's would be the same, nil otherwise.
func (c *shardCall) final(end *shardLine) (wire protocol.Done, raw []byte) {
	if end != nil && end.line.Done != nil && end.line.Done.Shard == nil {
		// It never started (a bad argument, a path not found): every
		// shard says the same, as one instance would.
		return *end.line.Done, end.raw
	}
	var endDone *protocol.Done
	ignoredBy := ""
	for i := range c.shards {
		if d := c.shards[i].done; d != nil && d.Shard != nil {
			ignoredBy = d.IgnoredBy
			break
		}
	}
	if end != nil {
		if s := c.shardOf(end); s != nil && s.lost != "" {
			code, msg := protocol.CodeInternal, s.lost
			if s.inst != nil && s.inst.dead() {
				code, msg = crashError(s.inst)
			}
			c.m.end = protocol.NewError(code, msg)
		} else {
			endDone = end.line.Done
		}
	}
	return c.m.done(endDone, ignoredBy), nil
}

// merge feeds the merger the shards' lines in position order until the
// call ends, and returns the line that ended it (nil when the merger
// did).
func (c *shardCall) merge() *shardLine {
	for {
		var next *shardLine
		for k := range c.shards {
			s := &c.shards[k]
			if s.head == nil {
				c.read(k)
				if c.gaveUp {
					return nil
				}
			}
			if next == nil || s.head.before(next) {
				next = s.head
			}
		}
		if next.whole { // every range was walked whole: the call is complete
			return &shardLine{pos: math.MaxInt64, key: keyStopBefore,
				line: protocol.Line{ID: c.id, Done: &protocol.Done{Status: protocol.StatusComplete, Shard: &protocol.ShardEnd{}}}}
		}
		if next.key == keyStopBefore || next.key == keyStopWithin {
			if !c.ranged || !wholeRange(next.line.Done) {
				return next
			}
			// A range walked whole: its counts are added, and the merge
			// goes on to the next range.
			c.m.rangeDone(next.line.Done)
			c.shardOf(next).head = &shardLine{pos: math.MaxInt64, key: keyStopBefore, whole: true}
			continue
		}
		s := c.shardOf(next)
		s.head = nil
		var err error
		l := &next.line
		switch {
		case next.key == keyMark:
			c.m.mark(next.mark)
		case l.Walk != nil:
			c.m.walkRead(next.mark)
		case l.Item != nil:
			c.m.found(next.pos)
			err = c.m.item(l.Item)
		case l.Problem != nil:
			err = c.m.problem(l.Problem)
		case l.Skip != nil:
			c.m.skipped(l.Skip)
		}
		if err != nil && c.lineErr == nil {
			c.lineErr = err
			c.interrupt()
		}
		if c.m.ended {
			return nil
		}
	}
}

func (c *shardCall) shardOf(l *shardLine) *shard {
	for k := range c.shards {
		if c.shards[k].head == l {
			return &c.shards[k]
		}
	}
	return nil
}

// emit hands a merged line on, until the caller stops taking them.
func (c *shardCall) emit(raw []byte, l *protocol.Line) error {
	if c.lineErr != nil {
		return nil
	}
	return c.onLine(raw, l)
}

// read reads shard k's next line into its head: it waits for it, and,
// meanwhile, for the deadline and the caller's context. Progress lines are
// passed on (shard 0's, with the merged counts) and not kept.
func (c *shardCall) read(k int) {
	s := &c.shards[k]
	if s.next < len(s.marks) { // the rest of a batch of marks
		s.head = s.reuse(shardLine{pos: s.marks[s.next][wire.MarkSeq], key: keyMark, mark: s.marks[s.next]})
		s.next++
		return
	}
	for {
		if raw, ok := s.q.next(); ok {
			if l := c.decode(s, raw); l != nil {
				s.head = l
				return
			}
			if s.lost != "" {
				s.head = &shardLine{pos: s.pos, key: keyStopWithin}
				return
			}
			continue
		}
		select {
		case chunk, ok := <-s.q.ch:
			if !ok {
				s.lost = "the module stopped"
				if s.inst != nil {
					<-s.inst.exited
					s.lost += ": " + exitText(s.inst)
				}
				s.head = &shardLine{pos: s.pos, key: keyStopWithin}
				return
			}
			s.q.pending = chunk
		case <-c.ctxDone:
			c.ctxDone = nil
			c.interrupt()
		case <-c.timer.C:
			if !c.revoked {
				c.revoke()
				continue
			}
			c.gaveUp = true
			return
		}
	}
}

// decode decodes a shard's line and gives its merge key; nil for a
// progress line (passed on) or a line that is not the protocol's (the
// shard is then lost).
func (c *shardCall) decode(s *shard, raw []byte) *shardLine {
	if id, seq, it, ok := s.items.Parse(raw); ok && id == c.id && seq >= 0 {
		s.pos, s.item = seq, it
		return s.reuse(shardLine{pos: seq, key: keyFile, line: protocol.Line{ID: id, Item: &s.item}})
	}
	if id, walk, marks, ok := wire.ParseMarkLine(raw, s.marks[:0]); ok && id == c.id && len(marks) > 0 {
		s.marks = marks
		last := marks[len(marks)-1]
		s.pos = last[wire.MarkSeq]
		if walk {
			s.marks = s.marks[:0]
			return s.reuse(shardLine{pos: s.pos, key: keyWalk, mark: last, line: protocol.Line{Walk: last[:]}})
		}
		s.open, s.next = s.pos, 1
		return s.reuse(shardLine{pos: marks[0][wire.MarkSeq], key: keyMark, mark: marks[0]})
	}
	var l protocol.Line
	if err := json.Unmarshal(raw, &l); err != nil || l.ID != c.id {
		s.lost = fmt.Sprintf("unexpected line from the module: %.200q", raw)
		return nil
	}
	switch {
	case l.Progress != nil:
		if s == &c.shards[0] && c.m != nil {
			p := protocol.Progress{Entries: l.Progress.Entries, FilesRead: c.m.filesRead, Results: c.m.page.Results()}
			pl := &protocol.Line{ID: c.id, Progress: &p}
			b, _ := json.Marshal(pl)
			if err := c.emit(append(b, '\n'), pl); err != nil && c.lineErr == nil {
				c.lineErr = err
				c.interrupt()
			}
		}
		return nil
	case l.Done != nil:
		s.done = l.Done
		s.raw = raw
		if e := l.Done.Shard; e != nil {
			if e.Within {
				return &shardLine{pos: e.At, key: keyStopWithin, line: l, raw: raw}
			}
			return &shardLine{pos: e.At, key: keyStopBefore, line: l, raw: raw}
		}
		return &shardLine{key: keyStopBefore, line: l, raw: raw}
	case l.Problem != nil && l.Seq != nil:
		s.pos = *l.Seq
		if *l.Seq == s.open {
			return &shardLine{pos: s.pos, key: keyFile, line: l}
		}
		return &shardLine{pos: s.pos, key: keyWalk, line: l}
	case len(l.Skip) == wire.SkipLen:
		return &shardLine{pos: l.Skip[wire.SkipSeq], key: keyFile, line: l}
	}
	s.lost = fmt.Sprintf("unexpected line from the module: %.200q", raw)
	return nil
}

// interrupt ends every shard's request as exchangeOn ends a cancelled one:
// their clocks move past the deadline and each answers at its next look,
// its instance kept; one that does not answer in time is revoked.
func (c *shardCall) interrupt() {
	if c.interrupted || c.revoked {
		return
	}
	c.interrupted = true
	for k := range c.shards {
		c.shards[k].inst.interrupt(c.moduleMS)
	}
	c.timer.Reset(graceAnswer * c.turns)
}

// revoke ends every shard's request and revokes their mounts: the
// deadline passed, or an interrupted call did not answer.
func (c *shardCall) revoke() {
	if c.revoked {
		return
	}
	c.revoked = true
	for k := range c.shards {
		c.shards[k].inst.revoke(c.moduleMS)
	}
	c.timer.Reset(graceRevoke * c.turns)
}

// drain ends the shards still searching once the call has its answer: their
// clocks move past the deadline (their mounts stay), each answers at its
// next look, and its lines are dropped.
func (c *shardCall) drain() {
	for k := range c.shards {
		s := &c.shards[k]
		if s.done == nil && s.lost == "" && !c.revoked && s.inst != nil {
			s.inst.interrupt(c.moduleMS)
		}
	}
	if !c.revoked {
		c.timer.Reset((graceAnswer + graceRevoke) * c.turns)
	}
	for k := range c.shards {
		s := &c.shards[k]
		for s.done == nil && s.lost == "" && !c.gaveUp {
			s.head = nil
			c.read(k)
		}
	}
}

// wholeRange says whether a shard ended with its share walked whole (not
// stopped, not within a file): a range's lets the merge go on, and any
// split's samples are kept only then.
func wholeRange(d *protocol.Done) bool {
	return d != nil && d.Shard != nil && d.Status == protocol.StatusComplete && !d.Shard.Within
}

// readAhead hands on in's chunks as they come, holding any number not yet
// taken, until in closes (then out does, once it is empty) or stop does;
// reading is done when it has stopped taking in's.
func readAhead(in <-chan []byte, stop <-chan struct{}, reading *sync.WaitGroup) <-chan []byte {
	out := make(chan []byte)
	reading.Add(1)
	go func() {
		defer reading.Done()
		defer close(out)
		var held [][]byte
		for in != nil || len(held) > 0 {
			var send chan<- []byte
			var first []byte
			if len(held) > 0 {
				send, first = out, held[0]
			}
			select {
			case b, ok := <-in:
				if !ok {
					in = nil
					continue
				}
				held = append(held, b)
			case send <- first:
				held[0] = nil
				held = held[1:]
			case <-stop:
				return
			}
		}
	}()
	return out
}

// finish gives back the instances that answered, and stops the others.
func (c *shardCall) finish() {
	if c.stopRead != nil {
		// Before an instance takes another request, whose lines are
		// not this call's to read.
		close(c.stopRead)
		c.stopRead = nil
		c.reading.Wait()
	}
	for k := range c.shards {
		s := &c.shards[k]
		clean := s.done != nil && s.lost == "" && !c.revoked && !c.gaveUp
		switch {
		case k == 0 && clean:
			c.r.release(s.inst)
		case k == 0:
			c.r.discard(s.inst)
		case clean:
			c.r.giveBack(s.inst)
		default:
			s.inst.stop()
		}
	}
}

// stopped is the final line of a call the host ended.
func (c *shardCall) stopped(ctx context.Context) Done {
	if c.lineErr != nil {
		return Done{Status: StatusPartial, Error: newError(protocol.CodeCancelled, "the caller stopped taking results: "+c.lineErr.Error())}
	}
	code, msg := stopped(ctx, during)
	return Done{Status: StatusPartial, Error: newError(code, msg)}
}
