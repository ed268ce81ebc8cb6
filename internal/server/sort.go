package server

import (
	"container/heap"
	"slices"

	"github.com/rootbound/rootbound/internal/nofollow"
	"github.com/rootbound/rootbound/internal/walk"
	"github.com/rootbound/rootbound/protocol"
)

// age is when a file was last modified, and its place in the walk.
type age struct {
	mtime int64 // Unix nanoseconds; 0 when unknown
	seq   int   // walk order, which breaks ties
}

// newer orders newest first, then in walk order.
func (a age) newer(b age) int {
	switch {
	case a.mtime > b.mtime:
		return -1
	case a.mtime < b.mtime:
		return 1
	}
	return a.seq - b.seq
}

// fileTime is a file to search and its age.
type fileTime struct {
	rel, tpath string
	age
}

// kept is a result held to be sent by age.
type kept struct {
	age
	item *protocol.Item
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

// sortNewest sorts files newest first; ties keep walk order.
func sortNewest(files []fileTime) {
	for i := range files {
		files[i].seq = i
	}
	slices.SortFunc(files, func(a, b fileTime) int { return a.newer(b.age) })
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
	f := kept{age{mtime: mtime(o.tree, tpath), seq: o.seen}, it}
	// Kept in the order found until the page is full, and a heap from
	// then on: most globs find fewer than a page, and need no heap.
	if limit := o.c.offset + o.c.max + 1; len(o.keep) < limit {
		if o.keep = append(o.keep, f); len(o.keep) == limit {
			heap.Init(&o.keep)
		}
		return nil
	}
	if f.newer(o.keep[0].age) < 0 {
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
	files := []kept(o.keep)
	slices.SortFunc(files, func(a, b kept) int { return a.newer(b.age) })
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
type oldestFirst []kept

func (h oldestFirst) Len() int           { return len(h) }
func (h oldestFirst) Less(i, j int) bool { return h[i].newer(h[j].age) > 0 }
func (h oldestFirst) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *oldestFirst) Push(x any)        { *h = append(*h, x.(kept)) }
func (h *oldestFirst) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
