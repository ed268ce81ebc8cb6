package host

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootbound/rootbound/internal/server"
	"github.com/rootbound/rootbound/internal/testtree"
	"github.com/rootbound/rootbound/protocol"
)

// The merge of a split grep, held to its oracle: the same request answered
// by one instance of the core (natively, in process) and by n shards whose
// answers the host's merge puts together must be the same lines, byte for
// byte, whatever the offset, max_results, context, output cap, budgets,
// order and number of shards. Conformance holds the same through wazero
// on its cases; this reaches the corners at fuzzing speed.

// splitTree is a tree with what a merge must get right: files with many
// and few matches, lines next to each other (context), a binary file, one
// with a NUL past the first 8 KiB, an ignore file, hidden files, an
// unreadable directory.
func splitTree(t testing.TB) string {
	spec := map[string]string{
		".gitignore":        "*.log\n!keep.log\n",
		"a/one.txt":         "x1\nnothing\nx2\nx3\n",
		"a/two.txt":         strings.Repeat("x line\nother\n", 9),
		"a/keep.log":        "x kept\n",
		"a/skip.log":        "x ignored\n",
		"b/.hidden":         "x hidden\n",
		"b/c/deep.txt":      "zzz\nx deep\nzzz\nzzz\nx deeper\n",
		"b/c/none.txt":      "nothing here\n",
		"b/bin.dat":         "x\x00binary\n",
		"b/late.dat":        strings.Repeat("x padding line\n", 700) + "\x00",
		"c/many.txt":        strings.Repeat("x\ny\nx\n", 20),
		"c/.gitignore":      "/ignored.txt\n",
		"c/ignored.txt":     "x\n",
		"d/e/f/g.txt":       "g x g\n",
		"d/e/big.txt":       strings.Repeat("x big\n", 500),
		"z.txt":             "x last\n",
		"locked/secret.txt": "x\n",
	}
	dir := testtree.New(t, spec)
	if err := os.Chmod(filepath.Join(dir, "locked"), 0); err == nil {
		t.Cleanup(func() { os.Chmod(filepath.Join(dir, "locked"), 0o755) })
	}
	// Times for sort: mtime, distinct and with ties.
	for i, p := range []string{"a/one.txt", "a/two.txt", "b/c/deep.txt", "c/many.txt", "z.txt", "d/e/big.txt"} {
		ts := time.Unix(1_700_000_000+int64(i%4)*1000, 0)
		os.Chtimes(filepath.Join(dir, p), ts, ts)
	}
	return dir
}

// nativeAnswer sends one request line to a native server and returns its lines.
func nativeAnswer(t testing.TB, s *server.Server, req protocol.Request) []byte {
	line, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := s.Serve(bytes.NewReader(append(line, '\n')), &out); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// splitAnswer answers req as n shards of the native core whose answers
// the host merges.
func splitAnswer(t testing.TB, s *server.Server, req protocol.Request, n int) []byte {
	shards := make([]protocol.Shard, n)
	for k := range shards {
		shards[k] = protocol.Shard{Index: k, Count: n}
	}
	out, _ := shardAnswer(t, s, req, shards, false)
	return out
}

// shardAnswer answers req as the shards given (by position, or ranged),
// and gives the shards' final lines beside the merged answer.
func shardAnswer(t testing.TB, s *server.Server, req protocol.Request, shards []protocol.Shard, ranged bool) ([]byte, []*protocol.Done) {
	n := len(shards)
	c := &shardCall{id: req.ID, shards: make([]shard, n), timer: time.NewTimer(time.Hour), turns: 1, ranged: ranged}
	defer c.timer.Stop()
	var out bytes.Buffer
	c.onLine = func(raw []byte, _ *protocol.Line) error { out.Write(raw); return nil }
	for k := range c.shards {
		req.Shard = &shards[k]
		lines := bytes.SplitAfter(nativeAnswer(t, s, req), []byte("\n"))
		ch := make(chan []byte, len(lines))
		for _, l := range lines {
			if len(l) > 0 {
				ch <- l
			}
		}
		close(ch)
		c.shards[k] = shard{q: &lineQueue{ch: ch}, open: -1}
	}
	c.m = newMerger(&req, c.emit)
	end := c.merge()
	c.drain()
	wire, raw := c.final(end)
	if raw == nil {
		raw, _ = json.Marshal(&protocol.Line{ID: c.id, Done: &wire})
		raw = append(raw, '\n')
	}
	out.Write(raw)
	dones := make([]*protocol.Done, n)
	for k := range c.shards {
		dones[k] = c.shards[k].done
	}
	return out.Bytes(), dones
}

// rangedShards cuts n ranges for req by the plan of its walk whole
// (no limits, every result), as the host does after a first split call by
// position; again, when again is set, by the plan of that walk in ranges.
// Nil when the host would not cut ranges.
func rangedShards(t testing.TB, s *server.Server, req protocol.Request, n int, again bool) []protocol.Shard {
	whole := protocol.Request{V: req.V, ID: req.ID, Policy: req.Policy}
	if req.Glob != nil {
		g := *req.Glob
		g.Offset, g.MaxResults = 0, protocol.MaxResultsCeiling
		whole.Glob = &g
	} else {
		if req.Grep.Sort != "" {
			return nil
		}
		g := *req.Grep
		g.Offset, g.MaxResults = 0, protocol.MaxResultsCeiling
		whole.Grep = &g
	}
	by := make([]protocol.Shard, n)
	for k := range by {
		by[k] = protocol.Shard{Index: k, Count: n}
	}
	_, dones := shardAnswer(t, s, whole, by, false)
	p := planOf(dones, false)
	if p == nil {
		t.Fatalf("no plan from a whole walk: %+v", dones[0])
	}
	shards := p.cut(n)
	if shards == nil || !again {
		return shards
	}
	_, dones = shardAnswer(t, s, whole, shards, true)
	if p = planOf(dones, true); p == nil {
		t.Fatalf("no plan from a whole walk in ranges: %+v", dones)
	}
	return p.cut(n)
}

// splitCase is a grep and its limits, drawn from a few numbers.
type splitCase struct {
	pattern, mode                uint8
	offset, max                  uint8
	before, after                uint8
	maxOutput, maxBytes, entries uint16
	flags                        uint8 // 1 sort by mtime, 2 only matching, 4 invert, 8 max_count 2, 16 hidden files left out, 32 a glob
	shards                       uint8
}

func (sc splitCase) request() (protocol.Request, int) {
	req := protocol.Request{V: protocol.Version, ID: "s", Limits: &protocol.Limits{}}
	if sc.maxOutput > 0 {
		req.Limits.MaxOutputBytes = int64(sc.maxOutput%4000) + 100
	}
	if sc.maxBytes > 0 {
		req.Limits.MaxBytes = int64(sc.maxBytes % 20000)
	}
	if sc.entries > 0 {
		req.Limits.MaxEntries = int64(sc.entries % 40)
	}
	if sc.flags&16 != 0 {
		req.Policy = []protocol.RootPolicy{{Root: "/workspace", HideHidden: true}}
	}
	if sc.flags&32 != 0 {
		// A glob: its patterns in place of a grep's, the same limits.
		patterns := []string{"*.txt", "**", "*.log", "b/**", "*.none", "[a-c]/*", "*.dat"}
		req.Glob = &protocol.GlobArgs{Pattern: patterns[int(sc.pattern)%len(patterns)], Offset: int(sc.offset % 40), MaxResults: int(sc.max%30) + 1}
		return req, int(sc.shards%6) + 2
	}
	patterns := []string{"x", "x\\d", "deep|last", "^zzz$", "nothing", "big", "q+"}
	modes := []protocol.OutputMode{protocol.ModeContent, protocol.ModeFiles, protocol.ModeCount, protocol.ModeCountMatches}
	g := &protocol.GrepArgs{
		Pattern:    patterns[int(sc.pattern)%len(patterns)],
		OutputMode: modes[int(sc.mode)%len(modes)],
		Offset:     int(sc.offset % 40),
		MaxResults: int(sc.max%30) + 1,
	}
	if g.OutputMode == protocol.ModeContent {
		g.BeforeContext, g.AfterContext = int(sc.before%4), int(sc.after%4)
		g.OnlyMatching = sc.flags&2 != 0
		g.Invert = sc.flags&4 != 0 && !g.OnlyMatching
	}
	if sc.flags&1 != 0 {
		g.Sort = protocol.SortMTime
	}
	if sc.flags&8 != 0 {
		g.MaxCount = 2
	}
	req.Grep = g
	return req, int(sc.shards%6) + 2
}

// check holds the answer split by position, and by ranges (cut by a plan
// from a split by position, and by one from a split by ranges), to one
// instance's; it reports whether ranges were cut.
func (sc splitCase) check(t *testing.T, s *server.Server) bool {
	req, n := sc.request()
	want := nativeAnswer(t, s, req)
	got := splitAnswer(t, s, req, n)
	if !bytes.Equal(got, want) {
		line, _ := json.Marshal(req)
		t.Fatalf("%s split across %d differs from one instance:\n got:\n%s\nwant:\n%s", line, n, got, want)
	}
	// A glob with no plan runs as the one shard of its call.
	if got, _ := shardAnswer(t, s, req, []protocol.Shard{{Count: 1}}, false); !bytes.Equal(got, want) {
		line, _ := json.Marshal(req)
		t.Fatalf("%s as one shard differs from one instance:\n got:\n%s\nwant:\n%s", line, got, want)
	}
	ranged := false
	for _, again := range []bool{false, true} {
		shards := rangedShards(t, s, req, n, again)
		if shards == nil {
			continue
		}
		ranged = true
		got, _ := shardAnswer(t, s, req, shards, true)
		if !bytes.Equal(got, want) {
			line, _ := json.Marshal(req)
			cuts, _ := json.Marshal(shards)
			t.Fatalf("%s split in ranges %s differs from one instance:\n got:\n%s\nwant:\n%s", line, cuts, got, want)
		}
	}
	return ranged
}

func TestSplitMatchesOne(t *testing.T) {
	s, err := server.New([]server.Root{{Name: "/workspace", Dir: splitTree(t)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		sc   splitCase
	}{
		{"content, every result", splitCase{max: 29}},
		{"content, truncated", splitCase{max: 4}},
		{"content, a page with context", splitCase{offset: 5, max: 6, before: 2, after: 1}},
		{"content, context, truncated in a file", splitCase{pattern: 0, offset: 1, max: 10, before: 1, after: 2}},
		{"files", splitCase{mode: 1, max: 29}},
		{"files, a page", splitCase{mode: 1, offset: 3, max: 2}},
		{"count, newest first", splitCase{mode: 2, max: 29, flags: 1}},
		{"count matches, newest first, a page", splitCase{mode: 3, offset: 2, max: 2, flags: 1}},
		{"output cap", splitCase{max: 29, maxOutput: 700}},
		{"output cap with context", splitCase{max: 29, maxOutput: 1500, before: 1, after: 1}},
		{"byte budget", splitCase{max: 29, maxBytes: 300}},
		{"byte budget at an ignore file", splitCase{max: 29, maxBytes: 17}},
		{"entry budget", splitCase{max: 29, entries: 13}},
		{"only matching", splitCase{pattern: 1, max: 29, flags: 2}},
		{"invert with context", splitCase{pattern: 4, max: 20, before: 1, flags: 4}},
		{"max count", splitCase{max: 29, flags: 8, after: 1}},
		{"hidden left out", splitCase{mode: 1, max: 29, flags: 16}},
		{"no match", splitCase{pattern: 6, max: 29}},
		{"glob, every result", splitCase{max: 29, flags: 32}},
		{"glob of all, truncated", splitCase{pattern: 1, max: 4, flags: 32}},
		{"glob, a page", splitCase{pattern: 1, offset: 5, max: 6, flags: 32}},
		{"glob, output cap", splitCase{pattern: 1, max: 29, maxOutput: 200, flags: 32}},
		{"glob, byte budget at an ignore file", splitCase{pattern: 1, max: 29, maxBytes: 17, flags: 32}},
		{"glob, entry budget", splitCase{pattern: 1, max: 29, entries: 13, flags: 32}},
		{"glob, hidden left out", splitCase{pattern: 3, max: 29, flags: 48}},
		{"glob, no match", splitCase{pattern: 4, max: 29, flags: 32}},
	} {
		for _, shards := range []uint8{0, 1, 3, 5} { // 2, 3, 5, 7 shards
			tc.sc.shards = shards
			t.Run(fmt.Sprintf("%s/%d", tc.name, int(shards)+2), func(t *testing.T) {
				if !tc.sc.check(t, s) && tc.sc.flags&1 == 0 && shards < 3 {
					t.Errorf("no ranges were cut for %d shards", int(shards)+2)
				}
			})
		}
	}
}

func FuzzSplit(f *testing.F) {
	f.Add(uint8(0), uint8(0), uint8(0), uint8(4), uint8(1), uint8(1), uint16(0), uint16(0), uint16(0), uint8(0), uint8(0))
	f.Add(uint8(1), uint8(3), uint8(2), uint8(2), uint8(0), uint8(0), uint16(900), uint16(500), uint16(0), uint8(1), uint8(3))
	f.Add(uint8(0), uint8(0), uint8(7), uint8(9), uint8(3), uint8(2), uint16(2000), uint16(0), uint16(30), uint8(8), uint8(1))
	f.Add(uint8(1), uint8(0), uint8(3), uint8(5), uint8(0), uint8(0), uint16(300), uint16(0), uint16(25), uint8(48), uint8(2))
	s, err := server.New([]server.Root{{Name: "/workspace", Dir: splitTree(f)}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, pattern, mode, offset, max, before, after uint8, maxOutput, maxBytes, entries uint16, flags, shards uint8) {
		splitCase{pattern, mode, offset, max, before, after, maxOutput, maxBytes, entries, flags, shards}.check(t, s)
	})
}

// TestSmallTreeOneInstance: a grep whose path's last walk found fewer than
// splitMinFiles files runs on one instance; the first, not yet known, is
// split.
func TestSmallTreeOneInstance(t *testing.T) {
	ctx := context.Background()
	r, err := NewRunner(ctx, NewConfig().WithRoot("/workspace", splitTree(t)).WithParallelism(2))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)
	for i, want := range []uint64{1, 1, 1} {
		if _, err := r.Grep(ctx, GrepArgs{Pattern: "x"}); err != nil {
			t.Fatal(err)
		}
		if got := r.split.Load(); got != want {
			t.Fatalf("after grep %d: %d calls split, want %d", i+1, got, want)
		}
	}
}

// TestSplitRangesAnywhere cuts ranges where no plan would (directories,
// paths that are not there, a range with no file), as a plan of a tree
// changed since may: the answer is still one instance's, but for where an
// entry budget ends it (a range's shard starts its count where the plan
// said, which a changed tree moves).
func TestSplitRangesAnywhere(t *testing.T) {
	s, err := server.New([]server.Root{{Name: "/workspace", Dir: splitTree(t)}})
	if err != nil {
		t.Fatal(err)
	}
	cuts := []string{"a", "a/two.txt", "a0", "b/c", "b/c/m", "b/late.dat", "c/ignored.txt", "d/e/f", "locked", "z.txt", "zz"}
	for _, sc := range []splitCase{
		{max: 29}, {max: 4}, {offset: 5, max: 6, before: 2, after: 1}, {mode: 1, max: 29}, {mode: 2, max: 29},
		{max: 29, maxOutput: 700}, {max: 29, maxBytes: 300}, {max: 29, maxBytes: 17}, {mode: 1, max: 29, flags: 16},
	} {
		req, _ := sc.request()
		want := nativeAnswer(t, s, req)
		for i, from := range cuts {
			for _, to := range cuts[i+1:] {
				shards := []protocol.Shard{{Index: 0, Count: 3, To: protocol.Data(from)},
					{Index: 1, Count: 3, From: protocol.Data(from), To: protocol.Data(to)}, {Index: 2, Count: 3, From: protocol.Data(to)}}
				if got, _ := shardAnswer(t, s, req, shards, true); !bytes.Equal(got, want) {
					line, _ := json.Marshal(req)
					t.Fatalf("%s split at %q and %q differs from one instance:\n got:\n%s\nwant:\n%s", line, from, to, got, want)
				}
			}
		}
	}
}

// TestSplitByRanges: a Runner's second split of a walk is by ranges, cut
// where the first said its files lie, and answers as one instance does,
// also once the tree changed under the cuts (a file added, one at a cut
// removed, a directory made); a glob's first runs whole as one shard.
func TestSplitByRanges(t *testing.T) {
	for _, tc := range []struct {
		name string
		call func(r *Runner) (*Result, error)
	}{
		{"grep", func(r *Runner) (*Result, error) {
			return r.Grep(context.Background(), GrepArgs{Pattern: "x", OutputMode: protocol.ModeContent, MaxResults: protocol.MaxResultsCeiling})
		}},
		{"glob", func(r *Runner) (*Result, error) {
			return r.Glob(context.Background(), GlobArgs{Pattern: "*", MaxResults: protocol.MaxResultsCeiling})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			dir := splitTree(t)
			one, err := NewRunner(ctx, NewConfig().WithRoot("/workspace", dir).WithParallelism(1))
			if err != nil {
				t.Fatal(err)
			}
			defer one.Close(ctx)
			r, err := NewRunner(ctx, NewConfig().WithRoot("/workspace", dir).WithParallelism(2).WithInstances(2))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close(ctx)
			r.splitMin = 0
			same := func(step string) {
				t.Helper()
				want, err := tc.call(one)
				if err != nil {
					t.Fatal(err)
				}
				got, err := tc.call(r)
				if err != nil {
					t.Fatal(err)
				}
				w, _ := json.Marshal([]any{want.Items, want.Problems, want.Done})
				g, _ := json.Marshal([]any{got.Items, got.Problems, got.Done})
				if !bytes.Equal(g, w) {
					t.Fatalf("%s: split by ranges:\n%s\none instance:\n%s", step, g, w)
				}
			}
			same("first")
			if n := r.ranged.Load(); n != 0 {
				t.Fatalf("the first split was by ranges (%d): no plan was known", n)
			}
			same("second")
			if n := r.ranged.Load(); n != 1 {
				t.Fatalf("%d splits by ranges, want 1", n)
			}
			os.WriteFile(filepath.Join(dir, "b", "new.txt"), []byte("x new\n"), 0o644)
			for _, p := range []string{"b/c/deep.txt", "b/c/none.txt", "b/bin.dat", "c/many.txt"} {
				os.Remove(filepath.Join(dir, p))
			}
			os.MkdirAll(filepath.Join(dir, "b", "c", "e"), 0o755)
			os.WriteFile(filepath.Join(dir, "b", "c", "e", "f.txt"), []byte("x f\n"), 0o644)
			same("after changes")
			same("again")
			if n := r.ranged.Load(); n != 3 {
				t.Fatalf("%d splits by ranges, want 3", n)
			}
		})
	}
}
