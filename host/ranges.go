package host

import (
	"encoding/json"

	"github.com/rootbound/rootbound/internal/walk"
	"github.com/rootbound/rootbound/protocol"
)

// A split grep's shards walk ranges of the tree, not all of it, once an
// earlier grep that walked the same way said where its files lie (its
// shards' samples): the host cuts the files there into as many ranges as
// shards, of about the same cost each, files and the bytes read of them
// (protocol/shard.go; RATIONALE.md, "Why split a grep's walk by
// ranges?"). A cut is only where to split: a tree changed since is still
// walked whole, each file by the range it falls in, at worst less evenly.

// A plan is where an earlier grep's files lay: every so many of them, in
// walk order, at their position among all and with the bytes read before
// them, and how many files and bytes there were.
type plan struct {
	samples      []protocol.Sample
	files, bytes int64
}

// fileCost is what the host counts a file as, in bytes read, when it cuts
// a walk into ranges of equal cost: a file's walk, open and request is
// worth this many bytes of its search (RATIONALE.md, "Why split a grep's
// walk by ranges?", has the measurement: go test ./host -bench RangeCut).
var fileCost int64 = 8 << 10

// cost is the cost of the files before a sample, or of all with
// (files, bytes).
func cost(files, bytes int64) int64 { return files*fileCost + bytes }

// planKey is what decides a walk: the tool (a grep's globs take files
// over ignore files, a glob's do not), its path, what picks its files, and
// the policy of the roots. A glob's own pattern is not in it: it is
// matched against what the walk hands on.
func (r *Runner) planKey(req *protocol.Request) string {
	type picks struct {
		Tool                    string
		Path, Glob, Iglob       any
		Exclude, Type, TypeNot  any
		Hidden                  *bool
		NoIgnore, CaseExclusion bool
		MaxDepth                int
		Policy                  []protocol.RootPolicy
	}
	var k picks
	if g := req.Grep; g != nil {
		k = picks{"grep", g.Path, g.Glob, g.Iglob, nil, g.Type, g.TypeNot, g.Hidden, g.NoIgnore, false, g.MaxDepth, r.policy}
	} else if g := req.Glob; g != nil {
		k = picks{"glob", g.Path, g.Glob, nil, g.Exclude, g.Type, g.TypeNot, g.Hidden, g.NoIgnore, g.CaseInsensitive && len(g.Exclude) > 0, g.MaxDepth, r.policy}
	}
	b, _ := json.Marshal(k)
	return string(b)
}

// ranges are the shares of n shards by the plan for req's walk, or nil:
// none is known, the grep is sorted (its order is not the walk's), or the
// plan has too few samples to cut n ranges of files in order.
func (r *Runner) ranges(req *protocol.Request, n int) []protocol.Shard {
	if req.Grep != nil && req.Grep.Sort != "" {
		return nil
	}
	p, ok := r.plans.load(r.planKey(req))
	if !ok {
		return nil
	}
	return p.cut(n)
}

// cut cuts the plan's files into n ranges of about the same cost (files
// and the bytes read of them): each range after the first starts at the
// sample, past the cut before, whose cost is nearest to its share of the
// whole; nil when no sample is left for a cut.
func (p *plan) cut(n int) []protocol.Shard {
	if n < 2 || p.files < int64(2*n) {
		return nil
	}
	at := func(i int) int64 { return cost(p.samples[i].Seq, p.samples[i].Bytes) }
	out := make([]protocol.Shard, n)
	whole, i := cost(p.files, p.bytes), 0
	for k := range out {
		out[k] = protocol.Shard{Index: k, Count: n}
		if k == 0 {
			continue
		}
		for i < len(p.samples) && (p.samples[i].Seq == 0 || walk.Compare(string(p.samples[i].Path), string(out[k-1].From)) <= 0) {
			i++
		}
		if i == len(p.samples) {
			return nil
		}
		target := int64(k) * whole / int64(n)
		for i+1 < len(p.samples) && at(i+1) <= target {
			i++
		}
		if i+1 < len(p.samples) && at(i+1)-target < target-at(i) {
			i++
		}
		s := p.samples[i]
		out[k].From, out[k].Entries = s.Path, max(s.Entries-1, 0) // the entries before it
		out[k-1].To = s.Path
	}
	return out
}

// planOf is the plan a split grep's shards give when each walked its share
// whole (status complete, not stopped within a file); nil otherwise. A
// range's samples are placed after the files and bytes of the ranges
// before it. By position, every shard walks every file, and shard 0's
// samples say where they lie, but it read only its own: its bytes are
// scaled to the whole's.
func planOf(dones []*protocol.Done, ranged bool) *plan {
	for _, d := range dones {
		if !wholeRange(d) {
			return nil
		}
	}
	p := &plan{}
	if !ranged {
		p.files = dones[0].Stats.Files
		scale := 0.0 // shard 0 read nothing: cut by files alone
		if own := dones[0].Shard.Bytes; own > 0 {
			for _, d := range dones {
				p.bytes += d.Shard.Bytes
			}
			scale = float64(p.bytes) / float64(own)
		}
		for _, s := range dones[0].Shard.Samples {
			s.Bytes = int64(float64(s.Bytes) * scale)
			p.samples = append(p.samples, s)
		}
		return p
	}
	for _, d := range dones {
		for _, s := range d.Shard.Samples {
			s.Seq += p.files
			s.Bytes += p.bytes
			p.samples = append(p.samples, s)
		}
		p.files += d.Stats.Files
		p.bytes += d.Shard.Bytes
	}
	return p
}
