package server

import (
	"errors"

	"github.com/rootbound/rootbound/internal/search"
	"github.com/rootbound/rootbound/internal/walk"
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
	var mark [protocol.MarkLen]int64
	return func(rel, tpath string) error {
		seq := c.pos
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
		skip := []int64{protocol.SkipSeq: seq, protocol.SkipBinary: sk.Binary - binary - mark[protocol.MarkBinary],
			protocol.SkipTooLarge: sk.TooLarge - tooLarge - mark[protocol.MarkTooLarge], protocol.SkipUnreadable: c.own.Unreadable - unreadable}
		c.own.Binary += sk.Binary - binary
		c.own.TooLarge += sk.TooLarge - tooLarge
		if skip[protocol.SkipBinary] == 0 && skip[protocol.SkipTooLarge] == 0 && skip[protocol.SkipUnreadable] == 0 {
			return nil
		}
		return c.write(&protocol.Line{ID: c.id, Skip: skip})
	}
}

// walkCounts is a Mark of the walk's counts now, at position seq.
func (c *call) walkCounts(seq int64) [protocol.MarkLen]int64 {
	sk := &c.done.Skipped
	m := [protocol.MarkLen]int64{
		protocol.MarkSeq:     seq,
		protocol.MarkIgnored: sk.Ignored, protocol.MarkHidden: sk.Hidden, protocol.MarkDenied: sk.Denied,
		protocol.MarkUnreadable: sk.Unreadable - c.own.Unreadable,
	}
	if w := c.walker; w != nil { // nil before the walk
		m[protocol.MarkDirs], m[protocol.MarkFiles] = w.Dirs, w.Files
		m[protocol.MarkSymlink], m[protocol.MarkSpecial] = w.Symlink, w.Special
	}
	return m
}

// markFile adds the mark of a shard's file, once it was read (n bytes),
// to the batch sent before the next other line.
func (c *call) markFile(n int64, err error) error {
	if c.mark == nil {
		return nil
	}
	c.mark[protocol.MarkBytes] = n
	if errors.Is(err, search.ErrBinary) {
		c.mark[protocol.MarkBinary] = 1
	}
	if errors.Is(err, search.ErrTooLarge) {
		c.mark[protocol.MarkTooLarge] = 1
	}
	if c.nmarks == 0 {
		c.marks = protocol.StartMarkLine(c.marks[:0], c.id)
	} else {
		c.marks = append(c.marks, ',')
	}
	c.marks = protocol.AppendMark(c.marks, c.mark)
	if c.nmarks++; c.nmarks == protocol.MarkBatch {
		return c.flushMarks()
	}
	return nil
}

// flushMarks sends the marks batched, before any other line.
func (c *call) flushMarks() error {
	if c.nmarks == 0 || c.writeErr != nil {
		return c.writeErr
	}
	c.nmarks = 0
	c.marks = protocol.EndMarkLine(c.marks)
	c.writeErr = c.enc.Write(c.marks)
	return c.writeErr
}

// writeWalk sends a Walk line.
func (c *call) writeWalk(mark *[protocol.MarkLen]int64) error {
	if c.flushMarks() == nil {
		c.line = protocol.AppendWalkLine(c.line[:0], c.id, mark)
		c.writeErr = c.enc.Write(c.line)
	}
	return c.writeErr
}
