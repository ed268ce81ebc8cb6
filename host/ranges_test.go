package host

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/rootbound/rootbound/protocol"
)

// TestPlanCut: ranges are cut at about equal costs, a file counted as
// fileCost bytes besides what was read of it, so the files that hold most
// of the bytes get a range of fewer files.
func TestPlanCut(t *testing.T) {
	fc := fileCost
	for _, tc := range []struct {
		name string
		size func(i int64) int64 // the bytes read of file i
		n    int
		want []string // where each range after the first starts
	}{
		{name: "even", size: func(int64) int64 { return fc }, n: 2, want: []string{"f050"}},
		{name: "even in four", size: func(int64) int64 { return fc }, n: 4, want: []string{"f020", "f050", "f070"}},
		{name: "nothing read: by files", size: func(int64) int64 { return 0 }, n: 2, want: []string{"f050"}},
		{name: "the first half five times larger", size: func(i int64) int64 { return fc * (1 + 4*int64(b2i(i < 50))) }, n: 2, want: []string{"f030"}},
		{name: "the first half five times larger, in four", size: func(i int64) int64 { return fc * (1 + 4*int64(b2i(i < 50))) }, n: 4, want: []string{"f020", "f030", "f050"}},
		{name: "one file holds nearly all", size: func(i int64) int64 { return 1000 * fc * int64(b2i(i == 95)) }, n: 2, want: []string{"f090"}},
	} {
		p := &plan{files: 100}
		for i := range int64(100) {
			if i%10 == 0 {
				p.samples = append(p.samples, protocol.Sample{Path: protocol.Data(fmt.Sprintf("f%03d", i)), Seq: i, Bytes: p.bytes})
			}
			p.bytes += tc.size(i)
		}
		var got []string
		for _, s := range p.cut(tc.n) {
			if s.Index > 0 {
				got = append(got, string(s.From))
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: ranges start at %q, want %q", tc.name, got, tc.want)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestPlanOfPosition: by position, shard 0's samples say where the files
// lie, but it read only its own: their bytes are scaled to all shards'.
func TestPlanOfPosition(t *testing.T) {
	done := func(files, read int64, samples ...protocol.Sample) *protocol.Done {
		return &protocol.Done{Status: protocol.StatusComplete, Stats: protocol.Stats{Files: files},
			Shard: &protocol.ShardEnd{At: files, Samples: samples, Bytes: read}}
	}
	for _, tc := range []struct {
		name      string
		dones     []*protocol.Done
		bytes     int64
		sampleSum []int64
	}{
		{name: "scaled", dones: []*protocol.Done{done(4, 100, protocol.Sample{Path: "a", Seq: 2, Bytes: 50}), done(4, 300)}, bytes: 400, sampleSum: []int64{200}},
		{name: "shard 0 read nothing: by files", dones: []*protocol.Done{done(4, 0, protocol.Sample{Path: "a", Seq: 2}), done(4, 300)}, bytes: 0, sampleSum: []int64{0}},
	} {
		p := planOf(tc.dones, false)
		if p == nil {
			t.Fatalf("%s: no plan", tc.name)
		}
		var got []int64
		for _, s := range p.samples {
			got = append(got, s.Bytes)
		}
		if p.files != 4 || p.bytes != tc.bytes || !slices.Equal(got, tc.sampleSum) {
			t.Errorf("%s: plan of %d files, %d bytes, samples at %v bytes; want 4, %d, %v", tc.name, p.files, p.bytes, got, tc.bytes, tc.sampleSum)
		}
	}
}

// TestMemoBound: a memo keeps at most its max, the one stored last among
// them; storing a key it keeps again forgets none.
func TestMemoBound(t *testing.T) {
	c := newMemo[int](4)
	for i := range 10 {
		c.store(fmt.Sprint(i), i)
		if v, ok := c.load(fmt.Sprint(i)); !ok || v != i {
			t.Fatalf("after storing %d: load = %d, %v", i, v, ok)
		}
		if len(c.m) > 4 {
			t.Fatalf("after storing %d: %d kept, max 4", i, len(c.m))
		}
	}
	kept := maps.Clone(c.m)
	for k := range kept {
		c.store(k, -1)
	}
	if len(c.m) != len(kept) {
		t.Fatalf("storing kept keys again: %d kept, want %d", len(c.m), len(kept))
	}
	for k := range kept {
		if v, _ := c.load(k); v != -1 {
			t.Fatalf("%s = %d after storing -1", k, v)
		}
	}
}
