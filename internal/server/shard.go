package server

import (
	"errors"

	"github.com/rootbound/rootbound/internal/search"
	"github.com/rootbound/rootbound/internal/walk"
	"github.com/rootbound/rootbound/internal/wire"
	"github.com/rootbound/rootbound/protocol"
)

// shardFiles makes search, the search of one file, a shard's
// (protocol/shard.go): it takes only the files of the shard's share, and
// says where each belongs and what it cost. A whole call gets search back.
func (c *call) shardFiles(w *walk.Walker, search func(rel, tpath string) error) func(rel, tpath string) error {
	if c.shard == nil {
		return search
	}
	c.walker = w
	var mark [wire.MarkLen]int64
	ranged := c.shard.Ranged()
	return func(rel, tpath string) error {
		seq := c.pos
		switch {
		case ranged:
			c.sample(rel, seq-protocol.RangeSeq(c.shard.Index))
		case c.shard.Index == 0:
			c.sample(rel, seq) // every shard walks every file: shard 0 says
		}
		if !c.shard.Owns(seq) {
			c.pos++
			return nil
		}
		sk := &c.done.Skipped
		mark = c.walkCounts(seq)
		c.fileSeq, c.mark = seq, &mark
		binary, tooLarge, unreadable := sk.Binary, sk.TooLarge, c.own.Unreadable
		err := search(rel, tpath)
		c.fileSeq, c.mark = -1, nil
		if err != nil {
			c.within = true
			return err
		}
		c.pos++
		// What the mark did not say: a skip found past the read.
		skip := []int64{wire.SkipSeq: seq, wire.SkipBinary: sk.Binary - binary - mark[wire.MarkBinary],
			wire.SkipTooLarge: sk.TooLarge - tooLarge - mark[wire.MarkTooLarge], wire.SkipUnreadable: c.own.Unreadable - unreadable}
		c.own.Binary += sk.Binary - binary
		c.own.TooLarge += sk.TooLarge - tooLarge
		if skip[wire.SkipBinary] == 0 && skip[wire.SkipTooLarge] == 0 && skip[wire.SkipUnreadable] == 0 {
			return nil
		}
		return c.write(&protocol.Line{ID: c.id, Skip: skip})
	}
}

// walkCounts is a Mark of the walk's counts now, at position seq.
func (c *call) walkCounts(seq int64) [wire.MarkLen]int64 {
	sk := &c.done.Skipped
	m := [wire.MarkLen]int64{
		wire.MarkSeq:     seq,
		wire.MarkIgnored: sk.Ignored, wire.MarkHidden: sk.Hidden, wire.MarkDenied: sk.Denied,
		wire.MarkUnreadable: sk.Unreadable - c.own.Unreadable,
	}
	if w := c.walker; w != nil { // nil before the walk
		m[wire.MarkDirs], m[wire.MarkFiles] = w.Dirs, w.Files
		m[wire.MarkSymlink], m[wire.MarkSpecial] = w.Symlink, w.Special
	}
	return m
}

// markFile adds the mark of a shard's file, once it was read (n bytes),
// to the batch sent before the next other line.
func (c *call) markFile(n int64, err error) error {
	if c.mark == nil {
		return nil
	}
	c.mark[wire.MarkBytes] = n
	if errors.Is(err, search.ErrBinary) {
		c.mark[wire.MarkBinary] = 1
	}
	if errors.Is(err, search.ErrTooLarge) {
		c.mark[wire.MarkTooLarge] = 1
	}
	if c.nmarks == 0 {
		c.marks = wire.StartMarkLine(c.marks[:0], c.id)
	} else {
		c.marks = append(c.marks, ',')
	}
	c.marks = wire.AppendMark(c.marks, c.mark)
	if c.nmarks++; c.nmarks == wire.MarkBatch {
		return c.flushMarks()
	}
	return nil
}

// markFound marks a file a glob's shard found, where the walk's counts
// besides its files changed since the last mark or walk line it sent: the
// host knows a found file's count of files from its position
// (protocol/shard.go), and a mark a file cost a glob a sixth of its time.
func (c *call) markFound() error {
	if c.mark == nil {
		return nil
	}
	counts := *c.mark
	counts[wire.MarkSeq], counts[wire.MarkFiles] = 0, 0
	if counts == c.sent {
		return nil
	}
	c.sent = counts
	return c.markFile(0, nil)
}

// flushMarks sends the marks batched, before any other line.
func (c *call) flushMarks() error {
	if c.nmarks == 0 || c.writeErr != nil {
		return c.writeErr
	}
	c.nmarks = 0
	c.marks = wire.EndMarkLine(c.marks)
	c.writeErr = c.enc.Write(c.marks)
	return c.writeErr
}

// writeWalk sends a Walk line.
func (c *call) writeWalk(mark *[wire.MarkLen]int64) error {
	c.sent = *mark
	c.sent[wire.MarkSeq], c.sent[wire.MarkFiles], c.sent[wire.MarkBytes] = 0, 0, 0
	if c.flushMarks() == nil {
		c.line = wire.AppendWalkLine(c.line[:0], c.id, mark)
		c.writeErr = c.enc.Write(c.line)
	}
	return c.writeErr
}
