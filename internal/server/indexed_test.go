//go:build linux

package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rootbound/rootbound/internal/testtree"
	"github.com/rootbound/rootbound/protocol"
)

// indexRounds is how many edit-then-search rounds TestIndexedMatchesUnindexed
// runs; ROOTBOUND_INDEX_ROUNDS asks for more.
func indexRounds() int {
	var n int
	if _, err := fmt.Sscan(os.Getenv("ROOTBOUND_INDEX_ROUNDS"), &n); err == nil && n > 0 {
		return n
	}
	return 1000
}

// TestIndexedMatchesUnindexed edits a tree at random, every kind of edit
// the index must see (create, rewrite at the same size and at another,
// truncate, delete, rename over another file, swap for a link or a FIFO,
// binary and UTF-16 files, ignore files edited), and after each round
// greps it with patterns of every kind the index treats apart: answers from
// a server with an index are byte for byte those of one without, and the
// files of a files_with_matches grep are rg's.
func TestIndexedMatchesUnindexed(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(20, 26))
	words := []string{"alpha", "beta", "gamma", "DELTA", "delta", "épsilon", "ÉPSILON", "zeta", "eta_init(x)", "theta", "iota",
		"longidentifierhere", "return", "x", "", "kappa lambda"}
	text := func() string {
		var b strings.Builder
		for range rng.IntN(12) {
			for range 1 + rng.IntN(6) {
				b.WriteString(words[rng.IntN(len(words))])
				b.WriteByte(' ')
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	paths := []string{"a.txt", "b.txt", "c.go", "sub/d.txt", "sub/e.go", "sub/deep/f.txt", "sub/deep/g.md", ".hidden/h.txt",
		"ignored/i.txt", "j.log", "k.txt", "sub/l.txt"}
	spec := map[string]string{".gitignore": "*.log\nignored/\n"}
	for _, p := range paths {
		spec[p] = text()
	}
	testtree.Write(t, dir, spec)

	roots := []Root{{Name: "/r", Dir: dir}}
	indexed, err := New(roots)
	if err != nil {
		t.Fatal(err)
	}
	// Every file the test reads is trusted at once: the racy window is
	// tested on its own (TestIndexRacy); here each edit is made visible
	// to a stat (touch, below) instead.
	indexed.now = func() time.Time { return time.Now().Add(time.Hour) }
	plain, _ := New(roots)
	idx := answer(t, indexed, protocol.Request{V: protocol.Version, ID: "i", Index: &protocol.IndexArgs{}})
	if !bytes.Contains(idx, []byte(`"status":"complete"`)) {
		t.Fatalf("index: %s", idx)
	}
	// fed has an index a change feed follows: the test is its feed, and
	// names each path it edits (at times its directory, at times all).
	fed, _ := New(roots)
	fed.now = indexed.now
	answer(t, fed, protocol.Request{V: protocol.Version, ID: "i", Index: &protocol.IndexArgs{Fed: true}})
	var named []string
	all := false
	// persisted is a fed server that a new one, as a new process, takes
	// the place of now and then, starting from what the last one saved:
	// intact, cut short, with a byte changed, another root's, or nothing.
	other := t.TempDir()
	testtree.Write(t, other, spec)
	foreign := saveIndex(t, []Root{{Name: "/r", Dir: other}}, nil, indexed.now)
	persisted, saved := restartIndexed(t, roots, nil, indexed.now)
	restarts, reused := 0, 0 // reused: restarts that kept entries from what was saved

	// touch makes an edit visible to a stat: a change within the clock
	// tick of the last may keep its change time, as a racy write does.
	ctime := func(p string) int64 { // of a regular file; -1 for anything else
		var st syscall.Stat_t
		if syscall.Lstat(p, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
			return -1
		}
		return st.Ctim.Nano()
	}
	edit := func(p string, do func(full string) error) {
		switch rng.IntN(20) {
		case 0:
			all = true
		case 1, 2:
			d := filepath.ToSlash(filepath.Dir(p))
			if d == "." {
				d = "" // the root
			}
			named = append(named, d)
		default:
			named = append(named, p)
		}
		full := filepath.Join(dir, filepath.FromSlash(p))
		before := ctime(full)
		if fi, err := os.Lstat(full); err == nil && !fi.Mode().IsRegular() {
			os.Remove(full) // a link or a FIFO: never written through, never read
		}
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := do(full); err != nil {
			t.Fatalf("edit %s: %v", p, err)
		}
		for after := ctime(full); after >= 0 && after == before; after = ctime(full) {
			time.Sleep(time.Millisecond)
			syscall.Chmod(full, 0o644)
		}
	}
	edits := []func(p string){
		func(p string) { edit(p, func(f string) error { return os.WriteFile(f, []byte(text()), 0o644) }) },
		func(p string) { // the same size, other bytes
			edit(p, func(f string) error {
				old, _ := os.ReadFile(f)
				b := []byte(text())
				for len(b) < len(old) {
					b = append(b, ' ')
				}
				return os.WriteFile(f, b[:len(old)], 0o644)
			})
		},
		func(p string) { edit(p, func(f string) error { os.Truncate(f, 0); return nil }) },
		func(p string) { edit(p, func(f string) error { os.RemoveAll(f); return nil }) },
		func(p string) { // rename another file over it
			q := paths[rng.IntN(len(paths))]
			if q == p {
				return
			}
			named = append(named, q)
			edit(p, func(f string) error {
				src := filepath.Join(dir, filepath.FromSlash(q))
				if _, err := os.Lstat(src); err != nil {
					return nil
				}
				return os.Rename(src, f)
			})
		},
		func(p string) {
			edit(p, func(f string) error { os.RemoveAll(f); return os.Symlink("a.txt", f) })
		},
		func(p string) {
			edit(p, func(f string) error { os.RemoveAll(f); return syscall.Mkfifo(f, 0o644) })
		},
		func(p string) {
			edit(p, func(f string) error { return os.WriteFile(f, []byte("alpha\x00beta\n"), 0o644) })
		},
		func(p string) { // UTF-16, with its byte order mark
			edit(p, func(f string) error { return os.WriteFile(f, []byte("\xff\xfea\x00l\x00p\x00h\x00a\x00\n\x00"), 0o644) })
		},
		func(string) {
			edit(".gitignore", func(f string) error {
				rules := []string{"*.log\n", "sub/deep/\n", "*.md\n!g.md\n", "", "a.txt\n"}
				return os.WriteFile(f, []byte(rules[rng.IntN(len(rules))]), 0o644)
			})
		},
	}
	type grep struct {
		pattern string
		args    protocol.GrepArgs
		rg      []string
	}
	greps := []grep{
		{pattern: "alpha", args: protocol.GrepArgs{Literal: true}, rg: []string{"-F"}},
		{pattern: "beta|gamma"},
		{pattern: "delta", args: protocol.GrepArgs{Case: protocol.CaseInsensitive}, rg: []string{"-i"}},
		{pattern: "épsilon", args: protocol.GrepArgs{Case: protocol.CaseInsensitive}, rg: []string{"-i"}},
		{pattern: `\w+_init\(`},
		{pattern: "[a-z]{12,}"},
		{pattern: "zeta", args: protocol.GrepArgs{Word: true}, rg: []string{"-w"}},
		{pattern: "alpha", args: protocol.GrepArgs{Invert: true, OutputMode: protocol.ModeCount}, rg: nil},
		{pattern: "kappa lambda", args: protocol.GrepArgs{NoIgnore: true}, rg: []string{"--no-ignore"}},
		{pattern: "theta", args: protocol.GrepArgs{OutputMode: protocol.ModeContent, Context: 1}},
		{pattern: "beta", args: protocol.GrepArgs{Text: true}, rg: []string{"-a"}},
	}
	globs := []protocol.GlobArgs{
		{Pattern: "*.txt"},
		{Pattern: "**/*.go"},
		{Pattern: "sub/**"},
		{Pattern: "*", Exclude: []string{"*.md"}},
		{Pattern: "*.TXT", CaseInsensitive: true},
		{Pattern: "*", Sort: protocol.SortMTime},
		{Pattern: "*", EntryType: []string{"directory", "file"}},
		{Pattern: "*.txt", Path: "sub"},
	}
	rg, _ := exec.LookPath("rg")
	defer func() {
		for _, s := range []*Server{indexed, fed} {
			if ri := s.indexes["/r"]; ri == nil || ri.passed < indexRounds()/2 {
				t.Errorf("the index passed over %d files in %d rounds: it was hardly used", ri.passed, indexRounds())
			}
		}
		if reused < indexRounds()/100 {
			t.Errorf("%d of %d restarts kept entries from a saved index", reused, restarts)
		} else {
			t.Logf("%d of %d restarts kept entries from a saved index", reused, restarts)
		}
		if n := fed.indexes["/r"].replays; n < indexRounds()/10 {
			t.Errorf("%d of %d calls (a grep and a glob a round) replayed a walk", n, 2*indexRounds())
		} else {
			t.Logf("%d of %d calls (a grep and a glob a round) replayed a walk", n, 2*indexRounds())
		}
	}()
	for round := range indexRounds() {
		// As an agent's session: mostly files' contents edited, at
		// times none, at times anything else.
		for range rng.IntN(3) {
			k := rng.IntN(len(edits))
			if rng.IntN(3) > 0 {
				k = rng.IntN(2) // a file's contents
			}
			edits[k](paths[rng.IntN(len(paths))])
		}
		if rng.IntN(10) == 0 {
			p := fmt.Sprintf("new/n%d.txt", round)
			paths = append(paths, p)
			edits[0](p)
		}
		g := greps[rng.IntN(len(greps))]
		a := g.args
		a.Pattern = g.pattern
		if a.OutputMode == "" && rng.IntN(2) == 0 {
			a.OutputMode = protocol.ModeContent
		}
		// Pages, scopes and budgets that end a walk part way, where a
		// replayed walk must end too, with the same counts.
		switch rng.IntN(8) {
		case 0:
			a.MaxResults = 1 + rng.IntN(3)
		case 1:
			a.Path = "sub"
		case 2:
			a.Offset = rng.IntN(3)
		}
		req := protocol.Request{V: protocol.Version, ID: fmt.Sprint(round), Call: protocol.Call{Grep: &a}}
		if rng.IntN(10) == 0 {
			// A byte budget alone lets a replay pass over files the
			// index rules out in bulk, up to where the budget ends.
			req.Limits = &protocol.Limits{MaxBytes: int64(rng.IntN(400))}
			if rng.IntN(2) == 0 {
				req.Limits.MaxEntries = int64(rng.IntN(30))
			}
		}
		got, want := answer(t, indexed, req), answer(t, plain, req)
		if !bytes.Equal(got, want) {
			t.Fatalf("round %d, grep %+v:\nindexed:\n%s\nwithout the index:\n%s", round, a, got, want)
		}
		req.Changes = []protocol.RootChanges{{Root: "/r", Paths: named, All: all}}
		named, all = nil, false
		if fromFed := answer(t, fed, req); !bytes.Equal(fromFed, want) {
			t.Fatalf("round %d, grep %+v, changes %+v:\nindexed, fed:\n%s\nwithout the index:\n%s", round, a, req.Changes, fromFed, want)
		}
		if fromSaved := answer(t, persisted, req); !bytes.Equal(fromSaved, want) {
			t.Fatalf("round %d, grep %+v, from a saved index:\n%s\nwithout the index:\n%s", round, a, fromSaved, want)
		}
		if rng.IntN(8) == 0 {
			load := saved
			switch rng.IntN(6) {
			case 0:
				load = load[:rng.IntN(len(load))]
			case 1:
				load = slices.Clone(load)
				load[rng.IntN(len(load))] ^= byte(1 + rng.IntN(255))
			case 2:
				load = foreign
			case 3:
				load = nil
			}
			var read, files int64
			restarts++
			persisted, saved, read, files = restartCounted(t, roots, load, indexed.now)
			if saved == nil { // nothing changed since: what it loaded is current
				saved = load
			}
			if read < files {
				reused++
			}
		}
		// A glob on the fed server replays the walks of globs before it.
		gl := globs[rng.IntN(len(globs))]
		if rng.IntN(4) == 0 {
			gl.MaxResults = 1 + rng.IntN(3)
		}
		greq := protocol.Request{V: protocol.Version, ID: fmt.Sprint(round), Call: protocol.Call{Glob: &gl}}
		if got, want := answer(t, fed, greq), answer(t, plain, greq); !bytes.Equal(got, want) {
			t.Fatalf("round %d, glob %+v:\nindexed, fed:\n%s\nwithout the index:\n%s", round, gl, got, want)
		}
		whole := a.MaxResults == 0 && a.Path == "" && a.Offset == 0 && req.Limits == nil
		if rg == "" || !whole || a.OutputMode != "" && a.OutputMode != protocol.ModeFiles || g.args.Invert {
			continue
		}
		args := append([]string{"--no-config", "--hidden", "--no-require-git", "--no-ignore-global", "-l", "--no-messages"}, g.rg...)
		cmd := exec.Command(rg, append(args, "-e", g.pattern, ".")...)
		cmd.Dir = dir
		out, _ := cmd.Output()
		var rgFiles, ours []string
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if l != "" {
				rgFiles = append(rgFiles, strings.TrimPrefix(l, "./"))
			}
		}
		for _, l := range bytes.Split(bytes.TrimSpace(got), []byte("\n")) {
			var line protocol.Line
			if json.Unmarshal(l, &line) == nil && line.Item != nil {
				ours = append(ours, string(line.Item.Path))
			}
		}
		slices.Sort(rgFiles)
		slices.Sort(ours)
		if !slices.Equal(rgFiles, ours) {
			t.Fatalf("round %d, grep %q: rg -l found %q, the indexed grep %q", round, g.pattern, rgFiles, ours)
		}
	}
}

// TestIndexRacy: a file changed within the racy window of its read is not
// trusted by the index (read by every grep), one changed before it is.
func TestIndexRacy(t *testing.T) {
	dir := testtree.New(t, map[string]string{"old.txt": "alpha\n", "new.txt": "alpha\n"})
	past := time.Now().Add(-time.Minute)
	if err := os.Chtimes(filepath.Join(dir, "old.txt"), past, past); err != nil {
		t.Fatal(err)
	}
	s, _ := New([]Root{{Name: "/r", Dir: dir}})
	// The change time cannot be set back: the clock moves on instead, past
	// old.txt's change, not past new.txt's (written after it).
	start := time.Now()
	time.Sleep(20 * time.Millisecond)
	if err := os.WriteFile(filepath.Join(dir, "new.txt"), []byte("alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.now = func() time.Time { return start.Add(racy) }
	answer(t, s, protocol.Request{V: protocol.Version, ID: "i", Index: &protocol.IndexArgs{}})
	ri := s.indexes["/r"]
	if _, ok := ri.files["old.txt"]; !ok {
		t.Error("old.txt, changed before the racy window, is not indexed")
	}
	if _, ok := ri.files["new.txt"]; ok {
		t.Error("new.txt, changed within the racy window, is indexed")
	}
}

// TestIndexMemoryCap: what a root's index holds in all (the index, its
// files' entries, its recorded walks) stays near its cap (a file is added
// after the look at it), files past three quarters of it are left to be
// read, walks are kept while they fit, and answers do not change.
func TestIndexMemoryCap(t *testing.T) {
	files := map[string]string{}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		var b strings.Builder
		for range 40 {
			fmt.Fprintf(&b, "w%x ", rng.Uint32())
		}
		files[fmt.Sprintf("d%d/file_%04d.txt", i%7, i)] = fmt.Sprintf("line %d: alpha_%d beta %s\n", i, i*7919%1000, b.String())
	}
	dir := testtree.New(t, files)
	plain, _ := New([]Root{{Name: "/r", Dir: dir}})
	for _, max := range []int64{4 << 20, 6 << 20, 64 << 20} {
		s, _ := New([]Root{{Name: "/r", Dir: dir}})
		s.now = func() time.Time { return time.Now().Add(2 * racy) } // the files are older than the racy window
		answer(t, s, protocol.Request{V: protocol.Version, ID: "i", Index: &protocol.IndexArgs{MaxBytes: max, Fed: true}})
		ri := s.indexes["/r"]
		for _, p := range []string{"alpha_1", "beta", "alpha_99", "nothing"} {
			for _, mode := range []protocol.OutputMode{protocol.ModeFiles, protocol.ModeContent} {
				req := protocol.Request{V: protocol.Version, ID: "g", Call: protocol.Call{Grep: &protocol.GrepArgs{Pattern: p, OutputMode: mode, MaxResults: protocol.MaxResultsCeiling}}}
				if got, want := answer(t, s, req), answer(t, plain, req); !bytes.Equal(got, want) {
					t.Fatalf("cap %d, grep %q: with the index\n%s\nwithout\n%s", max, p, got, want)
				}
			}
			req := protocol.Request{V: protocol.Version, ID: "g", Call: protocol.Call{Glob: &protocol.GlobArgs{Pattern: "*.txt", MaxResults: protocol.MaxResultsCeiling}}}
			if got, want := answer(t, s, req), answer(t, plain, req); !bytes.Equal(got, want) {
				t.Fatalf("cap %d, glob: with the index\n%s\nwithout\n%s", max, got, want)
			}
		}
		if used := ri.used(); used > max+max/4 {
			t.Errorf("cap %d: the index holds %d (index %d, files %d, tapes %d)", max, used, ri.ix.Bytes(), ri.held, ri.taped)
		}
		t.Logf("cap %d: %d files, index %d, files %d, tapes %d, full %v", max, len(ri.files), ri.ix.Bytes(), ri.held, ri.taped, ri.full)
		if max < 64<<20 && !ri.full {
			t.Errorf("cap %d: not full with %d files held", max, len(ri.files))
		}
		if max == 64<<20 && (ri.full || len(ri.tapes) == 0) {
			t.Errorf("cap %d: full %v, %d tapes: the tree fits", max, ri.full, len(ri.tapes))
		}
	}
}

// TestIndexShareOfText: whatever max_bytes allows, a root's index holds
// at most three quarters of the text it indexed (and textFloor): a file
// of dense text (random bytes, a trigram at almost every offset) that
// would take it past that is left out and read by every grep, and the
// files after it are indexed.
func TestIndexShareOfText(t *testing.T) {
	defer func(f int64) { textFloor = f }(textFloor)
	textFloor = 2<<20 + 256<<10 // the build's scratch (2 MiB) and a little
	rng := rand.New(rand.NewPCG(3, 4))
	dense := make([]byte, 2<<20)
	for i := range dense {
		dense[i] = byte(' ' + rng.IntN(95))
	}
	copy(dense[1<<20:], "needle_in_dense")
	files := map[string]string{"m/dense.txt": string(dense)}
	for i := range 50 {
		files[fmt.Sprintf("%c/file_%02d.txt", "az"[i%2], i)] = fmt.Sprintf("plain text %d with needle_%d\n", i, i%5)
	}
	dir := testtree.New(t, files)
	s, _ := New([]Root{{Name: "/r", Dir: dir}})
	s.now = func() time.Time { return time.Now().Add(2 * racy) }
	answer(t, s, protocol.Request{V: protocol.Version, ID: "i", Index: &protocol.IndexArgs{MaxBytes: 1 << 30}})
	ri := s.indexes["/r"]
	if ri.files["m/dense.txt"] != nil {
		t.Errorf("the dense file is indexed: the index holds %d of %d bytes of text", ri.used(), ri.text)
	}
	if len(ri.files) != 50 {
		t.Errorf("%d files indexed, want the 50 before and after the dense one", len(ri.files))
	}
	if limit := textFloor + ri.text/4*3; ri.used()-ri.taped > limit {
		t.Errorf("the index holds %d, past its share %d", ri.used()-ri.taped, limit)
	}
	plain, _ := New([]Root{{Name: "/r", Dir: dir}})
	for _, p := range []string{"needle_in_dense", "needle_3", "absent_word"} {
		req := protocol.Request{V: protocol.Version, ID: "g", Call: protocol.Call{Grep: &protocol.GrepArgs{Pattern: p, Literal: true, MaxResults: protocol.MaxResultsCeiling}}}
		if got, want := answer(t, s, req), answer(t, plain, req); !bytes.Equal(got, want) {
			t.Errorf("grep %q: with the index\n%s\nwithout\n%s", p, got, want)
		}
	}
}
