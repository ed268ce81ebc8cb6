package server

import (
	"container/heap"
	"slices"
	"strings"

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

// kept is a result held to be sent in order.
type kept struct {
	age
	item *protocol.Item
}

// before orders two held results by order: newest first (SortMTime), or
// by their paths' bytes (SortPath); ties in walk order.
func before(order protocol.Sort, a, b kept) int {
	if order == protocol.SortPath {
		if c := strings.Compare(string(a.item.Path), string(b.item.Path)); c != 0 {
			return c
		}
		return a.seq - b.seq
	}
	return a.newer(b.age)
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

// sortFiles sorts files to search in order: newest first (SortMTime) or
// by their paths' bytes (SortPath); ties keep walk order.
func sortFiles(files []fileTime, order protocol.Sort) {
	for i := range files {
		files[i].seq = i
	}
	if order == protocol.SortPath {
		slices.SortStableFunc(files, func(a, b fileTime) int { return strings.Compare(a.rel, b.rel) })
		return
	}
	slices.SortFunc(files, func(a, b fileTime) int { return a.newer(b.age) })
}

// output sends a call's results: in walk order as they come, or, sorted
// by time or path, once the walk is done, keeping only the first
// offset+max+1 in that order (a heap: memory bounded by what a page asks
// for, not by the tree), which then go through the call's offset and
// max_results as any results do.
type output struct {
	c     *call
	tree  *nofollow.Tree
	order protocol.Sort // "" for walk order
	keep  lastFirst
	seen  int
}

func (c *call) sorted(order protocol.Sort, tree *nofollow.Tree) *output {
	if order != protocol.SortMTime && order != protocol.SortPath {
		order = ""
	}
	return &output{c: c, tree: tree, order: order, keep: lastFirst{order: order}}
}

// add sends or keeps one result; tpath is where it is, for its time.
func (o *output) add(it *protocol.Item, tpath string) error {
	if o.order == "" {
		return o.c.emit(it)
	}
	o.seen++
	f := kept{age{seq: o.seen}, it}
	if o.order == protocol.SortMTime {
		f.mtime = mtime(o.tree, tpath)
	}
	// Kept in the order found until the page is full, and a heap from
	// then on: most globs find fewer than a page, and need no heap.
	if limit := o.c.offset + o.c.max + 1; len(o.keep.kept) < limit {
		if o.keep.kept = append(o.keep.kept, f); len(o.keep.kept) == limit {
			heap.Init(&o.keep)
		}
		return nil
	}
	if before(o.order, f, o.keep.kept[0]) < 0 {
		o.keep.kept[0] = f
		heap.Fix(&o.keep, 0)
	}
	return nil
}

// flush sends what add kept, in order.
func (o *output) flush() error {
	if o.order == "" {
		return nil
	}
	files := o.keep.kept
	slices.SortFunc(files, func(a, b kept) int { return before(o.order, a, b) })
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

// lastFirst is a heap whose top is the result to drop first: the last
// in order.
type lastFirst struct {
	order protocol.Sort
	kept  []kept
}

func (h lastFirst) Len() int           { return len(h.kept) }
func (h lastFirst) Less(i, j int) bool { return before(h.order, h.kept[i], h.kept[j]) > 0 }
func (h lastFirst) Swap(i, j int)      { h.kept[i], h.kept[j] = h.kept[j], h.kept[i] }
func (h *lastFirst) Push(x any)        { h.kept = append(h.kept, x.(kept)) }
func (h *lastFirst) Pop() any {
	x := h.kept[len(h.kept)-1]
	h.kept = h.kept[:len(h.kept)-1]
	return x
}
