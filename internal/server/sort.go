package server

import (
	"container/heap"
	"slices"

	"github.com/rootbound/rootbound/internal/nofollow"
	"github.com/rootbound/rootbound/internal/walk"
	"github.com/rootbound/rootbound/protocol"
)

// fileTime is a file and when it was last modified.
type fileTime struct {
	rel, tpath string
	mtime      int64 // Unix nanoseconds; 0 when unknown
	seq        int   // walk order, which breaks ties
	item       *protocol.Item
}

// mtime is the modification time of the file or directory tpath of t (the
// entry itself, never a link's target), 0 if it cannot be read.
func mtime(t *nofollow.Tree, tpath string) int64 {
	st, err := t.Lstat(tpath)
	if err != nil {
		return 0
	}
	return st.Mtime
}

// newer orders newest first, then in walk order.
func newer(a, b fileTime) int {
	switch {
	case a.mtime > b.mtime:
		return -1
	case a.mtime < b.mtime:
		return 1
	}
	return a.seq - b.seq
}

// sortNewest sorts files newest first; ties keep walk order.
func sortNewest(files []fileTime) {
	for i := range files {
		files[i].seq = i
	}
	slices.SortFunc(files, newer)
}

// output sends a call's results: in walk order as they come, or, sorted
// by time, once the walk is done, keeping only the newest offset+max+1 (a
// heap: memory bounded by what a page asks for, not by the tree), which
// then go through the call's offset and max_results as any results do.
type output struct {
	c     *call
	tree  *nofollow.Tree
	byAge bool
	keep  oldestFirst
	seen  int
}

func (c *call) sorted(order protocol.Sort, tree *nofollow.Tree) *output {
	return &output{c: c, tree: tree, byAge: order == protocol.SortMTime}
}

// add sends or keeps one result; tpath is where it is, for its time.
func (o *output) add(it *protocol.Item, tpath string) error {
	if !o.byAge {
		return o.c.emit(it)
	}
	o.seen++
	f := fileTime{mtime: mtime(o.tree, tpath), seq: o.seen, item: it}
	if len(o.keep) < o.c.offset+o.c.max+1 {
		heap.Push(&o.keep, f)
		return nil
	}
	if newer(f, o.keep[0]) < 0 {
		o.keep[0] = f
		heap.Fix(&o.keep, 0)
	}
	return nil
}

// flush sends what add kept, newest first.
func (o *output) flush() error {
	if !o.byAge {
		return nil
	}
	files := []fileTime(o.keep)
	slices.SortFunc(files, newer)
	for _, f := range files {
		if err := o.c.emit(f.item); err != nil {
			if err == walk.SkipAll {
				return nil
			}
			return err
		}
	}
	return nil
}

// oldestFirst is a heap whose top is the result to drop first.
type oldestFirst []fileTime

func (h oldestFirst) Len() int           { return len(h) }
func (h oldestFirst) Less(i, j int) bool { return newer(h[i], h[j]) > 0 }
func (h oldestFirst) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *oldestFirst) Push(x any)        { *h = append(*h, x.(fileTime)) }
func (h *oldestFirst) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
