package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rootbound/rootbound/internal/testtree"
	"github.com/rootbound/rootbound/protocol"
)

// serveLine answers one request line through r.Serve.
func serveLine(t *testing.T, r *Runner, req protocol.Request) []byte {
	t.Helper()
	line, _ := json.Marshal(req)
	var out bytes.Buffer
	if err := r.Serve(context.Background(), bytes.NewReader(append(line, '\n')), &out); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// waitIndex waits until r's index is built.
func waitIndex(t *testing.T, r *Runner) {
	t.Helper()
	for range 3000 {
		r.mu.Lock()
		ready, inst := r.ix.ready, r.ix.inst
		r.mu.Unlock()
		if ready {
			return
		}
		if inst == nil {
			t.Fatal("the index build failed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the index was not built in 30 s")
}

// indexPair returns two Runners on dir as the root /w, one instance each,
// the first with an index (built when it returns), the other without;
// the test closes them.
func indexPair(t *testing.T, dir string) (withIndex, without *Runner) {
	t.Helper()
	ctx := context.Background()
	cfg := NewConfig().WithRoot("/w", dir).WithParallelism(1)
	withIndex, err := NewRunner(ctx, cfg.WithIndex(true, 0))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { withIndex.Close(ctx) })
	without, err = NewRunner(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { without.Close(ctx) })
	waitIndex(t, withIndex)
	return withIndex, without
}

// TestIndexHost runs greps through a Runner with an index (the module's
// index, the host's index instance) after random edits, and finds every
// answer byte for byte that of a Runner without one. The module's own
// differential test (internal/server, TestIndexedMatchesUnindexed) runs
// a thousand rounds natively; this runs them through wazero, the mount,
// and the host's routing.
func TestIndexHost(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	words := []string{"alpha", "beta", "gamma", "Delta", "épsilon", "zeta_init(", "theta", "x"}
	text := func() string {
		var b strings.Builder
		for range rng.IntN(8) {
			for range 1 + rng.IntN(5) {
				b.WriteString(words[rng.IntN(len(words))] + " ")
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	spec := map[string]string{".gitignore": "*.log\n"}
	var paths []string
	for i := range 40 {
		p := fmt.Sprintf("d%d/f%d.txt", i%5, i)
		paths = append(paths, p)
		spec[p] = text()
	}
	spec["skip.log"] = "alpha\n"
	spec[".git/info/exclude"] = ""
	spec[".git/HEAD"] = "ref: refs/heads/main\n"
	dir := testtree.New(t, spec)
	// The index trusts a file only once its last change is some seconds
	// old (the racy window): these are, when it is built.
	time.Sleep(racyWait)

	withIndex, without := indexPair(t, dir)

	greps := []protocol.GrepArgs{
		{Pattern: "alpha", Literal: true},
		{Pattern: "beta|gamma", OutputMode: protocol.ModeContent},
		{Pattern: "delta", Case: protocol.CaseInsensitive, OutputMode: protocol.ModeCount},
		{Pattern: "ÉPSILON", Case: protocol.CaseInsensitive},
		{Pattern: `\w+_init\(`, OutputMode: protocol.ModeContent},
		{Pattern: "[a-z]{5}"},
		{Pattern: "theta", NoIgnore: true, Hidden: new(bool)},
	}
	for round := range 150 {
		p := filepath.Join(dir, paths[rng.IntN(len(paths))])
		switch rng.IntN(12) {
		case 0, 5, 6, 7:
			os.Remove(p) // a FIFO is never written to
			os.WriteFile(p, []byte(text()), 0o644)
		case 8:
			rules := []string{"", "d1/\n", "*.txt\n!f3.txt\n"}
			os.WriteFile(filepath.Join(dir, ".git/info/exclude"), []byte(rules[rng.IntN(len(rules))]), 0o644)
		case 9:
			rules := []string{"*.log\n", "d2/\n", "f1*.txt\n"}
			os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(rules[rng.IntN(len(rules))]), 0o644)
		case 10:
			d := filepath.Join(dir, fmt.Sprintf("new%d/deeper", round))
			os.MkdirAll(d, 0o755)
			os.WriteFile(filepath.Join(d, "n.txt"), []byte("alpha beta\n"), 0o644)
		case 11:
			os.WriteFile(filepath.Join(dir, ".git/HEAD"), []byte(fmt.Sprintf("ref: refs/heads/b%d\n", round)), 0o644)
		case 1:
			os.Remove(p)
		case 2:
			os.Remove(p)
			os.Symlink("../skip.log", p)
		case 3:
			os.Remove(p)
			mkfifo(p)
		}
		g := greps[rng.IntN(len(greps))]
		req := protocol.Request{V: protocol.Version, ID: fmt.Sprint(round), Call: protocol.Call{Grep: &g}}
		if rng.IntN(3) == 0 {
			req = protocol.Request{V: protocol.Version, ID: fmt.Sprint(round), Call: protocol.Call{Glob: &protocol.GlobArgs{Pattern: "**/f1*.txt"}}}
		}
		if got, want := serveLine(t, withIndex, req), serveLine(t, without, req); !bytes.Equal(got, want) {
			t.Fatalf("round %d, %+v:\nwith the index:\n%s\nwithout:\n%s", round, req, got, want)
		}
	}
	withIndex.mu.Lock()
	calls := withIndex.ix.calls
	withIndex.mu.Unlock()
	if calls < 100 {
		t.Errorf("the index instance answered %d of 150 calls", calls)
	}
}

// racyWait outlasts the module's racy window (internal/server, racy).
const racyWait = 3100 * time.Millisecond

// TestIndexServeStripsHostFields: a program speaking the protocol cannot
// ask for an index build or a shard through Serve.
func TestIndexServeStripsHostFields(t *testing.T) {
	dir := testtree.New(t, map[string]string{"a.txt": "alpha\n"})
	ctx := context.Background()
	r, err := NewRunner(ctx, NewConfig().WithRoot("/w", dir).WithParallelism(1))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)
	out := serveLine(t, r, protocol.Request{V: protocol.Version, ID: "x", Index: &protocol.IndexArgs{}})
	if !bytes.Contains(out, []byte(`exactly one of \"glob\", \"grep\"`)) {
		t.Errorf("an index request through Serve: %s", out)
	}
	out = serveLine(t, r, protocol.Request{V: protocol.Version, ID: "x", Load: &protocol.Chunk{Root: "/w", Bytes: []byte("rbrt")}})
	if !bytes.Contains(out, []byte(`exactly one of \"glob\", \"grep\"`)) {
		t.Errorf("a load request through Serve: %s", out)
	}
	req, _ := r.served(protocol.Request{V: protocol.Version, ID: "y", Call: protocol.Call{Grep: &protocol.GrepArgs{Pattern: "a"}},
		Shard: &protocol.Shard{Count: 2}, Changes: []protocol.RootChanges{{Root: "/w", All: true}}}, 1000)
	if req.Shard != nil || req.Changes != nil {
		t.Errorf("Serve sends a program's shard or changes on: %+v", req)
	}
}

// TestCancelKeepsIndex: a grep on the index instance that its caller
// cancels midway is interrupted, not given up: the instance, and its
// index, are kept (at once, or once it answers: drain), and the next grep
// uses them.
func TestCancelKeepsIndex(t *testing.T) {
	dir := testtree.New(t, manyFiles())
	ctx := context.Background()
	r, err := NewRunner(ctx, NewConfig().WithRoot("/w", dir).WithIndex(true, 0))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)
	waitIndex(t, r)
	r.mu.Lock()
	before := r.ix.inst
	r.mu.Unlock()
	for range 3 {
		cctx, cancel := context.WithCancel(ctx)
		pctx := WithProgress(cctx, time.Millisecond, func(Progress) { cancel() })
		// Every file holds "some ", so the index narrows nothing, but
		// the pattern has a literal: the index instance runs it.
		res, err := r.Grep(pctx, GrepArgs{Pattern: `some [a-z]{20,}`})
		cancel()
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeCancelled {
			t.Fatalf("a cancelled grep: %v (%d results), want cancelled", err, res.Done.Results)
		}
		// On a busy machine the instance may answer after the caller had
		// its answer (drain): it is kept once it does.
		var after *instance
		var ready, busy bool
		var calls int
		for start := time.Now(); ; time.Sleep(time.Millisecond) {
			r.mu.Lock()
			after, ready, busy, calls = r.ix.inst, r.ix.ready, r.ix.busy, r.ix.calls
			r.mu.Unlock()
			if !busy || time.Since(start) > time.Minute {
				break
			}
		}
		if after != before || !ready || busy {
			t.Fatalf("the index instance was given up on a cancel (ready %v)", ready)
		}
		if calls == 0 {
			t.Fatal("the grep did not run on the index instance")
		}
	}
	res, err := r.Grep(ctx, GrepArgs{Pattern: "line 2999 of", OutputMode: ModeFiles})
	if err != nil || len(res.Items) != 1 || res.Items[0].Path != "d29/f2999.txt" {
		t.Fatalf("the grep after: %v %+v", err, res.Items)
	}
}

// manyFiles is a tree whose literal-free grep takes long enough to be
// cancelled midway: 3,000 files of 2 KiB in 30 directories.
// TestIndexSplitsWhatItCannotNarrow: on a Runner that splits a grep across
// instances, a grep the index cannot narrow (no literal, inverted,
// files_without_match) is split as without the index; one it can narrow
// runs on the index instance; either answers as a Runner without an index.
func TestIndexSplitsWhatItCannotNarrow(t *testing.T) {
	dir := testtree.New(t, manyFiles())
	ctx := context.Background()
	cfg := NewConfig().WithRoot("/w", dir).WithParallelism(2)
	r, err := NewRunner(ctx, cfg.WithIndex(true, 0))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)
	without, err := NewRunner(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer without.Close(ctx)
	waitIndex(t, r)
	for _, c := range []struct {
		name    string
		grep    GrepArgs
		indexed bool
	}{
		{name: "literal", grep: GrepArgs{Pattern: "line 2999 of", OutputMode: ModeFiles}, indexed: true},
		{name: "regex with a literal", grep: GrepArgs{Pattern: `line 29\d\d of`, OutputMode: ModeCount}, indexed: true},
		{name: "case-insensitive", grep: GrepArgs{Pattern: "LINE 2999 OF", Case: CaseInsensitive, OutputMode: ModeFiles}, indexed: true},
		{name: "no literal", grep: GrepArgs{Pattern: `[0-9]{4}\s+[a-z]{2}`, OutputMode: ModeCount}},
		{name: "a literal too short", grep: GrepArgs{Pattern: `of`, OutputMode: ModeCount}},
		{name: "inverted", grep: GrepArgs{Pattern: "line 2999 of", Invert: true, OutputMode: ModeCount}},
		{name: "files without", grep: GrepArgs{Pattern: "line 2999 of", OutputMode: ModeFilesWithout, MaxResults: 5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := r.narrows(&c.grep); got != c.indexed {
				t.Errorf("narrows: %v, want %v", got, c.indexed)
			}
			r.mu.Lock()
			before := r.ix.calls
			r.mu.Unlock()
			got, gerr := r.Grep(ctx, c.grep)
			want, werr := without.Grep(ctx, c.grep)
			r.mu.Lock()
			calls := r.ix.calls - before
			r.mu.Unlock()
			if (calls == 1) != c.indexed {
				t.Errorf("the index instance answered %d calls, want it to answer: %v", calls, c.indexed)
			}
			if fmt.Sprint(gerr) != fmt.Sprint(werr) || fmt.Sprint(got.Items) != fmt.Sprint(want.Items) || got.Done.Results != want.Done.Results {
				t.Errorf("with the index: %v %+v (%d), without: %v %+v (%d)", gerr, got.Items, got.Done.Results, werr, want.Items, want.Done.Results)
			}
		})
	}
}

func manyFiles() map[string]string {
	files := map[string]string{}
	for i := range 3000 {
		files[fmt.Sprintf("d%02d/f%04d.txt", i%30, i)] = strings.Repeat(fmt.Sprintf("line %d of some text\n", i), 100)
	}
	return files
}

// TestCancelKeepsShards: a grep split across instances that its caller
// cancels midway is interrupted: every instance answers and is kept.
func TestCancelKeepsShards(t *testing.T) {
	dir := testtree.New(t, manyFiles())
	ctx := context.Background()
	r, err := NewRunner(ctx, NewConfig().WithRoot("/w", dir).WithParallelism(2).WithInstances(2))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)
	r.Grep(ctx, GrepArgs{Pattern: "warm"}) // the walk's size, which decides a split
	// An instance is kept when it answers within graceAnswer of the
	// cancel. On a machine too busy to run it in that time (a CI run with
	// other work beside it lost both once), the call ends after the grace
	// and the round is taken again, at most 5 times; a call that ends
	// within the grace must have kept them.
	for round, slow := 0, 0; round < 3; {
		split := r.split.Load()
		cctx, cancel := context.WithCancel(ctx)
		var cancelled time.Time
		pctx := WithProgress(cctx, time.Millisecond, func(Progress) {
			if cancelled.IsZero() {
				cancelled = time.Now()
			}
			cancel()
		})
		_, err := r.Grep(pctx, GrepArgs{Pattern: `[a-z]{20,}`})
		took := time.Since(cancelled)
		cancel()
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeCancelled {
			t.Fatalf("a cancelled grep: %v, want cancelled", err)
		}
		if r.split.Load() == split {
			t.Fatal("the grep was not split")
		}
		r.mu.Lock()
		idle := len(r.idle)
		r.mu.Unlock()
		switch {
		case idle == 2:
			round++
		case took > graceAnswer && slow < 5:
			slow++
			t.Logf("%d instances kept after a cancel that took %v to end, past the grace (%v): again", idle, took, graceAnswer)
			r.more(2 - idle) // the instances it gave up, started again
			for start, warm := time.Now(), false; !warm; time.Sleep(time.Millisecond) {
				if time.Since(start) > time.Minute {
					t.Fatal("the instances started again are not warm after a minute")
				}
				r.mu.Lock()
				warm = !slices.ContainsFunc(r.idle, func(inst *instance) bool { return !inst.warm() })
				r.mu.Unlock()
			}
		default:
			t.Fatalf("%d instances kept after a cancel that took %v to end, want 2", idle, took)
		}
	}
}

// TestIndexCache: a Runner with an index cache starts from the index a
// Runner before it saved, and reads only the files changed since; a cache
// file of another root's, cut short or with a byte changed is ignored and
// the index built from the files; answers are those of a Runner without
// an index throughout; the cache is closed to other users.
func TestIndexCache(t *testing.T) {
	spec := map[string]string{}
	for i := range 40 {
		spec[fmt.Sprintf("d%d/f%d.txt", i%4, i)] = fmt.Sprintf("alpha %d\nbeta %d\n", i, i*i)
	}
	dir, other := testtree.New(t, spec), testtree.New(t, spec)
	time.Sleep(racyWait)
	cache := filepath.Join(t.TempDir(), "cache")
	ctx := context.Background()
	cfg := NewConfig().WithRoot("/w", dir).WithParallelism(1)
	without, err := NewRunner(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer without.Close(ctx)
	// start runs a Runner with the cache on root (dir or other) until its
	// index is built, checks its answers, and returns what its build read.
	start := func(root string) (read, files int64, r *Runner) {
		t.Helper()
		r, err := NewRunner(ctx, NewConfig().WithRoot("/w", root).WithParallelism(1).WithIndex(true, 0).WithIndexCache(cache))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close(ctx)
		if w := r.Warnings(); len(w) > 0 {
			t.Fatalf("warnings: %q", w)
		}
		waitIndex(t, r)
		if root == dir {
			for _, p := range []string{"alpha 7", "beta 1[0-9]{2}", "gamma"} {
				req := protocol.Request{V: protocol.Version, ID: "g", Call: protocol.Call{Grep: &protocol.GrepArgs{Pattern: p, OutputMode: protocol.ModeContent}}}
				if got, want := serveLine(t, r, req), serveLine(t, without, req); !bytes.Equal(got, want) {
					t.Fatalf("grep %q from the cache:\n%s\nwithout an index:\n%s", p, got, want)
				}
			}
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.ix.read, r.ix.files, r
	}
	if read, files, _ := start(dir); read != 40 || files != 40 {
		t.Fatalf("first build: %d of %d files read, want 40 of 40", read, files)
	}
	unix := runtime.GOOS != "windows" // where a mode says who may open a file
	if fi, err := os.Stat(cache); err != nil || unix && fi.Mode().Perm() != 0o700 {
		t.Fatalf("cache directory: %v; want mode 0700", err)
	}
	read, _, r := start(dir)
	if read != 0 {
		t.Errorf("nothing changed: %d files read", read)
	}
	path, _ := r.cacheFile(0)
	if fi, err := os.Stat(path); err != nil || unix && fi.Mode().Perm() != 0o600 {
		t.Fatalf("cache file: %v; want mode 0600", err)
	}
	// Edits while no Runner runs: one file changed, one gone, one new.
	os.WriteFile(filepath.Join(dir, "d1/f1.txt"), []byte("gamma\n"), 0o644)
	os.Remove(filepath.Join(dir, "d2/f2.txt"))
	os.WriteFile(filepath.Join(dir, "d3/new.txt"), []byte("alpha 7 gamma\n"), 0o644)
	if read, files, _ := start(dir); read != 2 || files != 40 {
		t.Errorf("after edits: %d of %d files read, want the 2 changed of 40", read, files)
	}
	// What a process left when it died writing the cache is removed a day
	// later; another's file being written now is left alone.
	stale, fresh := filepath.Join(cache, savingPrefix+"1"), filepath.Join(cache, savingPrefix+"2")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte("part"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-staleAfter - time.Hour)
	os.Chtimes(stale, old, old)
	start(dir)
	if _, err := os.Stat(stale); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a file left %v ago: %v, want it removed", staleAfter, err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a file being written: %v, want it kept", err)
	}
	// Another root's file under this root's name, then cut short, then a
	// byte changed: each is built from the files (and saved again).
	_, _, o := start(other)
	otherPath, _ := o.cacheFile(0)
	spoil := []struct {
		name string
		do   func() error
	}{
		{"another root's", func() error {
			b, err := os.ReadFile(otherPath)
			if err != nil {
				return err
			}
			return os.WriteFile(path, b, 0o600)
		}},
		{"cut short", func() error {
			fi, err := os.Stat(path)
			if err != nil {
				return err
			}
			return os.Truncate(path, fi.Size()/2)
		}},
		{"a byte changed", func() error {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			b[len(b)/2] ^= 0x40
			return os.WriteFile(path, b, 0o600)
		}},
	}
	for _, s := range spoil {
		if err := s.do(); err != nil {
			t.Fatal(err)
		}
		if read, files, _ := start(dir); read != files || files != 40 {
			t.Errorf("a cache file %s: %d of %d files read, want all", s.name, read, files)
		}
	}
	if !unix {
		return
	}
	// A directory others can open is not used.
	open := filepath.Join(t.TempDir(), "open")
	os.Mkdir(open, 0o755)
	os.Chmod(open, 0o755)
	r, err = NewRunner(ctx, cfg.WithIndex(true, 0).WithIndexCache(open))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)
	if w := r.Warnings(); len(w) != 1 || !strings.Contains(w[0], "other users") {
		t.Errorf("a cache directory of mode 0755: warnings %q", w)
	}
	waitIndex(t, r)
	if entries, _ := os.ReadDir(open); len(entries) != 0 {
		t.Errorf("%d files written in a directory others can open", len(entries))
	}
}

// TestIndexCacheLimit: past WithIndexCacheLimit, the index files of the
// roots used least recently are removed, the Runner's own (just loaded
// and saved) last; what is not an index file is left alone.
func TestIndexCacheLimit(t *testing.T) {
	dir := testtree.New(t, map[string]string{"a.txt": "alpha\n", "b/c.txt": "beta\n"})
	cache := filepath.Join(t.TempDir(), "cache")
	ctx := context.Background()
	run := func(limit int64) *Runner {
		t.Helper()
		r, err := NewRunner(ctx, NewConfig().WithRoot("/w", dir).WithParallelism(1).WithIndex(true, 0).
			WithIndexCache(cache).WithIndexCacheLimit(limit))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close(ctx)
		waitIndex(t, r)
		return r
	}
	own, _ := run(0).cacheFile(0)
	fi, err := os.Stat(own)
	if err != nil {
		t.Fatal(err)
	}
	// Three other roots' files, used an hour, two and three ago, and what
	// is no index file.
	for i, name := range []string{"ccc" + cacheSuffix, "bbb" + cacheSuffix, "aaa" + cacheSuffix, "notes.txt"} {
		p := filepath.Join(cache, name)
		if err := os.WriteFile(p, make([]byte, 3000), 0o600); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(-time.Duration(i+1) * time.Hour)
		os.Chtimes(p, at, at)
	}
	if err := os.Mkdir(filepath.Join(cache, "ddd"+cacheSuffix), 0o700); err != nil {
		t.Fatal(err)
	}
	left := func() []string {
		var names []string
		entries, _ := os.ReadDir(cache)
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	run(fi.Size() + 3000 + 1500)
	want := []string{"ccc" + cacheSuffix, "ddd" + cacheSuffix, filepath.Base(own), "notes.txt"}
	slices.Sort(want)
	if got := left(); !slices.Equal(got, want) {
		t.Fatalf("left in the cache: %q, want %q", got, want)
	}
	run(1) // less than its own file: nothing is kept
	if got, want := left(), []string{"ddd" + cacheSuffix, "notes.txt"}; !slices.Equal(got, want) {
		t.Fatalf("left in the cache: %q, want %q", got, want)
	}
}

// TestInterpreterFirst: a Runner started in the background with no
// compilation cache answers on wazero's interpreter while the module
// compiles, as a compiled one does; a call that has sent nothing when the
// compile ends moves to a compiled instance, with the same answer.
func TestInterpreterFirst(t *testing.T) {
	dir := testtree.New(t, map[string]string{"a.go": "package a\n// alpha\n", "b/c.txt": "alpha beta\n"})
	ctx := context.Background()
	compiled, err := NewRunner(ctx, NewConfig().WithRoot("/w", dir).WithRoot("/go", goSrc(t)).WithParallelism(1))
	if err != nil {
		t.Fatal(err)
	}
	defer compiled.Close(ctx)
	small := GrepArgs{Pattern: "alpha", OutputMode: protocol.ModeContent}
	// Nothing in the Go tree matches: no line before the answer, which
	// takes the interpreter far longer than the compile.
	large := GrepArgs{Pattern: "no such text in the go tree 7f3a", Path: "/go", MaxResults: protocol.MaxResultsCeiling}
	want := map[string]*Result{}
	for name, args := range map[string]GrepArgs{"small": small, "large": large} {
		if want[name], err = compiled.Grep(ctx, args); err != nil {
			t.Fatal(err)
		}
	}
	r, err := NewRunner(ctx, NewConfig().WithRoot("/w", dir).WithRoot("/go", goSrc(t)).WithParallelism(1).WithCacheDir("").WithLazyStart(true))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)
	got, err := r.Grep(ctx, small)
	if err != nil {
		t.Fatal(err)
	}
	if r.compiledNow() {
		t.Skip("the module compiled before the first call ended: nothing ran on the interpreter")
	}
	if r.interpreted.Load() != 1 || !reflect.DeepEqual(got.Items, want["small"].Items) || got.Done.Stats != want["small"].Done.Stats {
		t.Fatalf("on the interpreter (%d calls): %+v %+v; want %+v %+v", r.interpreted.Load(), got.Items, got.Done, want["small"].Items, want["small"].Done)
	}
	if got, err = r.Grep(ctx, large); err != nil {
		t.Fatal(err)
	}
	if r.handedOff.Load() != 1 || got.Done.Status != StatusComplete || got.Done.Stats != want["large"].Done.Stats {
		t.Fatalf("handed off %d: %+v; want %+v", r.handedOff.Load(), got.Done, want["large"].Done)
	}
}

// TestInterpreterHandsOff: a call on the interpreter that has sent lines
// when the module is compiled runs again on a compiled instance, and its
// caller gets each line once: the answer one compiled instance gives.
func TestInterpreterHandsOff(t *testing.T) {
	ctx := context.Background()
	cfg := NewConfig().WithRoot("/go", goSrc(t)).WithParallelism(1)
	compiled, err := NewRunner(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer compiled.Close(ctx)
	// Many files, the first of them found at once.
	args := GrepArgs{Pattern: "package", OutputMode: protocol.ModeFiles, MaxResults: protocol.MaxResultsCeiling}
	want, err := compiled.Grep(ctx, args)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRunner(ctx, cfg.WithCacheDir("").WithLazyStart(true))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)
	var got []Item
	res, err := r.GrepEach(ctx, args, func(it Item) error { got = append(got, it); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if r.interpreted.Load() != 1 || r.handedOff.Load() != 1 {
		t.Skipf("%d calls on the interpreter, %d handed off: the machine compiled too fast or interpreted too slow to tell", r.interpreted.Load(), r.handedOff.Load())
	}
	if !reflect.DeepEqual(got, want.Items) || res.Done.Stats != want.Done.Stats || res.Done.Results != want.Done.Results {
		t.Fatalf("handed off: %d items, %+v; want %d, %+v", len(got), res.Done, len(want.Items), want.Done)
	}
}

// goSrc is the Go tree's src: a tree every machine has, large enough
// that a grep of it outlasts a compile on the interpreter.
func goSrc(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("go env GOROOT: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "src")
}
