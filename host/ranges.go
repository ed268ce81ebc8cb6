package host

import (
	"encoding/json"

	"github.com/rootbound/rootbound/internal/walk"
	"github.com/rootbound/rootbound/protocol"
)

// A split grep's shards walk ranges of the tree, not all of it, once an
// earlier grep that walked the same way said where its files lie (its
// shards' samples): the host cuts the files there into as many ranges as
// shards, of about as many files each (protocol/shard.go; RATIONALE.md,
// "Why split a grep's walk by ranges?"). A cut is only where to split: a
// tree changed since is still walked whole, each file by the range it
// falls in, at worst less evenly.

// A plan is where an earlier grep's files lay: every so many of them, in
// walk order, at their position among all, and how many there were.
type plan struct {
	samples []protocol.Sample
	files   int64
}

// planKey is what decides a grep's walk: its path, what picks its files,
// and the policy of the roots.
func (r *Runner) planKey(g *protocol.GrepArgs) string {
	b, _ := json.Marshal(struct {
		Path, Glob, Iglob, Type, TypeNot any
		Hidden                           *bool
		NoIgnore                         bool
		MaxDepth                         int
		Policy                           []protocol.RootPolicy
	}{g.Path, g.Glob, g.Iglob, g.Type, g.TypeNot, g.Hidden, g.NoIgnore, g.MaxDepth, r.policy})
	return string(b)
}

// ranges are the shares of n shards by the plan for g, or nil: none is
// known, the grep is sorted (its order is not the walk's), or the plan
// has too few samples to cut n ranges of files in order.
func (r *Runner) ranges(g *protocol.GrepArgs, n int) []protocol.Shard {
	if g.Sort != "" {
		return nil
	}
	v, ok := r.plans.Load(r.planKey(g))
	if !ok {
		return nil
	}
	return v.(*plan).cut(n)
}

// cut cuts the plan's files into n ranges of about files/n each, at the
// first sample at or past each n-th; nil when two cuts would fall on one
// sample.
func (p *plan) cut(n int) []protocol.Shard {
	if n < 2 || p.files < int64(2*n) {
		return nil
	}
	out := make([]protocol.Shard, n)
	i := 0
	for k := range out {
		out[k] = protocol.Shard{Index: k, Count: n}
		if k == 0 {
			continue
		}
		target := int64(k) * p.files / int64(n)
		for i < len(p.samples) && (p.samples[i].Seq < target || walk.Compare(string(p.samples[i].Path), string(out[k-1].From)) <= 0) {
			i++
		}
		if i == len(p.samples) {
			return nil
		}
		s := p.samples[i]
		out[k].From, out[k].Entries = s.Path, max(s.Entries-1, 0) // the entries before it
		out[k-1].To = s.Path
	}
	return out
}

// planOf is the plan a split grep's shards give when each walked its share
// whole (status complete, not stopped within a file); nil otherwise. A
// range's samples are placed after the files of the ranges before it; by
// position, every shard walks every file, and shard 0's say it all.
func planOf(dones []*protocol.Done, ranged bool) *plan {
	for _, d := range dones {
		if !wholeRange(d) {
			return nil
		}
	}
	if !ranged {
		return &plan{samples: dones[0].Shard.Samples, files: dones[0].Stats.Files}
	}
	p := &plan{}
	for _, d := range dones {
		for _, s := range d.Shard.Samples {
			s.Seq += p.files
			p.samples = append(p.samples, s)
		}
		p.files += d.Stats.Files
	}
	return p
}
