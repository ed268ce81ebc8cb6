package ignore_test

// Differential tests: generated trees and rules, answered by the whole core
// (package server, natively: the walk, ignore files, the policy) and by
// independent implementations, which must agree on every query.
//
//   - TestAgainstGit: which files git ignores (`git ls-files -o -i
//     --exclude-standard`), with .gitignore files at any level, negations,
//     anchors, "**", classes, escapes, trailing spaces, CRLF, a byte order
//     mark, .git/info/exclude.
//   - TestAgainstRipgrepAndFd: what `rg --hidden -l` and `fd -H` list, with
//     .gitignore, .ignore and (rg only; fd does not read it) .rgignore
//     files at any level, whose precedence is ripgrep's, not git's.
//
// git before 2.52 matched the literal start of a path pattern apart from
// its rest, so "a**/b" matched "ab"; 2.52 fixed that and we follow it, so
// the generator never writes "**" right after a name in a path pattern.

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
	"testing"

	"github.com/rootbound/rootbound/internal/server"
	"github.com/rootbound/rootbound/internal/testtree"
	"github.com/rootbound/rootbound/protocol"
)

func TestMain(m *testing.M) { os.Exit(testtree.Main(m)) }

// names are the entry names trees are made of: ordinary ones, and ones
// that exercise the syntax (escapes, spaces, classes, non-ASCII bytes).
var names = []string{
	"a", "b", "ab", "a.c", "b.txt", "x.log", "app.min.js", "app.js", "build", "node_modules",
	"dist", "src", "lib", ".hidden", ".env", "A", "a1", "9z", "x y", "trail ", "#hash",
	"!bang", "[x]", "*star", "q?", "é.txt", "Makefile", "keep.log", "deep",
}

var dirNames = []string{"a", "b", "build", "node_modules", "dist", "src", "lib", ".hidden", "deep", "x y", "A"}

// tree is a generated tree: its files and directories, relative paths.
type tree struct {
	files, dirs []string
}

func genTree(rng *rand.Rand, dir string, depth int, rel string, t *tree) {
	n := 2 + rng.IntN(5)
	for range n {
		if depth < 3 && rng.IntN(3) == 0 {
			name := dirNames[rng.IntN(len(dirNames))]
			p := path(rel, name)
			if slices.Contains(t.dirs, p) || slices.Contains(t.files, p) {
				continue
			}
			t.dirs = append(t.dirs, p)
			os.MkdirAll(filepath.Join(dir, p), 0o755)
			genTree(rng, dir, depth+1, p, t)
			continue
		}
		name := names[rng.IntN(len(names))]
		p := path(rel, name)
		if slices.Contains(t.dirs, p) || slices.Contains(t.files, p) {
			continue
		}
		t.files = append(t.files, p)
		os.WriteFile(filepath.Join(dir, p), []byte("needle\n"), 0o644)
	}
}

func path(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// genRule writes one line of an ignore file, from what the tree holds.
func genRule(rng *rand.Rand, t *tree, full bool) string {
	pick := func(s []string) string {
		if len(s) == 0 {
			return "a"
		}
		return s[rng.IntN(len(s))]
	}
	base := func(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }
	exts := []string{".c", ".txt", ".log", ".js", ".min.js"}
	var r string
	conventional := []func() string{
		func() string { return base(pick(t.files)) },
		func() string { return base(pick(t.dirs)) + "/" },
		func() string { return base(pick(t.dirs)) },
		func() string { return "*" + pick(exts) },
		func() string { return "/" + pick(t.files) },
		func() string { return "/" + pick(t.dirs) + "/" },
		func() string { return pick(t.dirs) + "/*" },
		func() string { return pick(t.dirs) + "/**" },
		func() string { return "**/" + base(pick(t.files)) },
		func() string { return "**/" + base(pick(t.dirs)) + "/" },
		func() string { return pick(t.dirs) + "/**/" + base(pick(t.files)) },
		func() string { return pick(t.dirs) + "/*" + pick(exts) },
		func() string { return ".*" },
	}
	syntax := []func() string{
		func() string { return "[!a]*" },
		func() string { return "[[:digit:]]*" },
		func() string { return "*[[:upper:]]*" },
		func() string { return "?" },
		func() string { return "??" },
		func() string { return "[a-c]*" },
		func() string { return "[^ab]" },
		func() string { return `\#hash` },
		func() string { return "#hash" }, // a comment
		func() string { return `\!bang` },
		func() string { return "!bang" },
		func() string { return `trail\ ` },
		func() string { return "trail " }, // the space is trimmed
		func() string { return base(pick(t.files)) + "   " },
		func() string { return `\[x]` },
		func() string { return "[x]" },
		func() string { return `\*star` },
		func() string { return `q\?` },
		func() string { return "*" },
		func() string { return "**" },
		func() string { return "*/" },
		func() string { return "a/**/b" },
		func() string { return "**/a/**" },
		func() string { return "*/*" },
		func() string { return "/*" },
		func() string { return "/*/" },
		func() string { return "*.[ct]*" },
		func() string { return "é*" },
		func() string { return "\xc3?.txt" },
		func() string { return "x?y" },
		func() string { return "[[:space:]]*" },
		func() string { return "*[[:punct:]]*" },
		func() string { return "" },
		func() string { return "/" },
		func() string { return "[z-a]*" },
		func() string { return "[a" },
	}
	if full && rng.IntN(3) == 0 {
		r = syntax[rng.IntN(len(syntax))]()
	} else {
		r = conventional[rng.IntN(len(conventional))]()
	}
	if rng.IntN(4) == 0 {
		r = "!" + r
	}
	return r
}

// writeRules replaces the tree's ignore files with generated ones. kinds
// are the file names to write; full uses the whole syntax (for git).
func writeRules(rng *rand.Rand, dir string, t *tree, kinds []string, full bool) {
	for _, d := range append([]string{""}, t.dirs...) {
		for _, k := range kinds {
			os.Remove(filepath.Join(dir, d, k))
		}
	}
	places := append([]string{"", ""}, t.dirs...)
	for range 1 + rng.IntN(4) {
		d := places[rng.IntN(len(places))]
		k := kinds[rng.IntN(len(kinds))]
		var b strings.Builder
		if full && rng.IntN(10) == 0 {
			b.WriteString("\xef\xbb\xbf")
		}
		eol := "\n"
		if full && rng.IntN(5) == 0 {
			eol = "\r\n"
		}
		for range 1 + rng.IntN(6) {
			b.WriteString(genRule(rng, t, full) + eol)
		}
		f := filepath.Join(dir, d, k)
		old, _ := os.ReadFile(f)
		os.WriteFile(f, append(old, b.String()...), 0o644)
	}
}

const (
	globAll    = `"glob":{"pattern":"*","max_results":1000000}`
	grepNeedle = `"grep":{"pattern":"needle","max_results":1000000}`
)

// ours answers one request (globAll, grepNeedle) with the core, natively.
func ours(t *testing.T, dir string, call string) []string {
	t.Helper()
	s, err := server.New([]server.Root{{Name: "/w", Dir: dir}})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	req := `{"v":1,"id":"q",` + call + `}` + "\n"
	if err := s.Serve(strings.NewReader(req), &out); err != nil {
		t.Fatal(err)
	}
	return items(t, out.Bytes())
}

func items(t *testing.T, out []byte) []string {
	t.Helper()
	var paths []string
	for _, l := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var line protocol.Line
		if err := json.Unmarshal(l, &line); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		switch {
		case line.Item != nil:
			paths = append(paths, string(line.Item.Path))
		case line.Problem != nil:
			t.Fatalf("problem: %+v", line.Problem)
		case line.Done.Status != protocol.StatusComplete:
			t.Fatalf("done: %+v", line.Done)
		}
	}
	slices.Sort(paths)
	return paths
}

// allFiles lists every file of the tree but .git's, ignore files included.
func allFiles(t *testing.T, dir string) []string {
	var all []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			all = append(all, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(all)
	return all
}

// command runs an oracle in dir with a configuration of its own (no user
// or system settings), returning its NUL-separated output, sorted.
func command(t *testing.T, dir string, name string, args ...string) []string {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+filepath.Join(home, "gitconfig"), "RIPGREP_CONFIG_PATH=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	// rg says "No files were searched" (exit 2) when everything is
	// ignored, and exits 1 when nothing matches: both are empty answers.
	quiet := stderr.Len() == 0 || strings.Contains(stderr.String(), "No files were searched")
	if err != nil && !(!strings.HasSuffix(name, "git") && len(out) == 0 && quiet) {
		t.Fatalf("%s %v: %v\n%s", name, args, err, stderr.String())
	}
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p = strings.TrimPrefix(p, "./"); p != "" {
			paths = append(paths, strings.TrimSuffix(p, "/"))
		}
	}
	slices.Sort(paths)
	return paths
}

func diff(a, b []string) (onlyA, onlyB []string) {
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			onlyA = append(onlyA, x)
		}
	}
	for _, x := range b {
		if _, ok := slices.BinarySearch(a, x); !ok {
			onlyB = append(onlyB, x)
		}
	}
	return
}

// dump shows a tree's ignore files, for a failure message.
func dump(dir string) string {
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && (slices.Contains([]string{".gitignore", ".ignore", ".rgignore"}, d.Name()) || strings.HasSuffix(p, "info/exclude")) {
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			fmt.Fprintf(&b, "--- %s\n%q\n", rel, data)
		}
		return nil
	})
	return b.String()
}

func TestAgainstGit(t *testing.T) {
	git := testtree.Tool(t, "git")
	rng := rand.New(rand.NewPCG(7, 10))
	queries, divergent := 0, 0
	for range 110 {
		dir := t.TempDir()
		command(t, dir, git, "init", "-q", ".")
		var tr tree
		genTree(rng, dir, 0, "", &tr)
		for range 5 {
			writeRules(rng, dir, &tr, []string{".gitignore"}, true)
			exclude := filepath.Join(dir, ".git", "info", "exclude")
			os.MkdirAll(filepath.Dir(exclude), 0o755)
			os.WriteFile(exclude, nil, 0o644)
			if rng.IntN(3) == 0 {
				os.WriteFile(exclude, []byte(genRule(rng, &tr, true)+"\n"+genRule(rng, &tr, true)+"\n"), 0o644)
			}
			queries++
			ignored := command(t, dir, git, "ls-files", "-z", "-o", "-i", "--exclude-standard")
			all := allFiles(t, dir)
			kept := ours(t, dir, globAll)
			// What git ignores and what we keep must split the tree.
			both, neither := intersect(ignored, kept), missing(all, ignored, kept)
			if len(both)+len(neither) > 0 {
				divergent++
				if divergent <= 3 {
					t.Errorf("query %d: git ignores and we list %q; git keeps and we leave out %q\n%s", queries, both, neither, dump(dir))
				}
			}
		}
	}
	t.Logf("%d (tree, rules) queries against git %s, %d divergent", queries, gitVersion(t, git), divergent)
	if queries < 500 {
		t.Fatalf("only %d queries", queries)
	}
}

func intersect(a, b []string) []string {
	var out []string
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); ok {
			out = append(out, x)
		}
	}
	return out
}

func missing(all, a, b []string) []string {
	var out []string
	for _, x := range all {
		_, inA := slices.BinarySearch(a, x)
		_, inB := slices.BinarySearch(b, x)
		if !inA && !inB {
			out = append(out, x)
		}
	}
	return out
}

func gitVersion(t *testing.T, git string) string {
	out, _ := exec.Command(git, "--version").Output()
	return strings.TrimSpace(strings.TrimPrefix(string(out), "git version "))
}

func TestAgainstRipgrepAndFd(t *testing.T) {
	rg := testtree.Tool(t, "rg")
	fd := testtree.Tool(t, "fdfind")
	git := testtree.Tool(t, "git")
	rng := rand.New(rand.NewPCG(11, 13))
	queries, divergent := 0, 0
	for i := range 60 {
		dir := t.TempDir()
		// A repository, so that fd (8.6 has no --no-require-git) reads
		// .gitignore files as rg --no-require-git does.
		command(t, dir, git, "init", "-q", ".")
		var tr tree
		genTree(rng, dir, 0, "", &tr)
		for range 4 {
			kinds := []string{".gitignore", ".ignore"}
			withRg := i%2 == 0
			if withRg {
				kinds = append(kinds, ".rgignore")
			}
			writeRules(rng, dir, &tr, kinds, false)
			queries++
			kept := ours(t, dir, globAll)
			grepped := ours(t, dir, grepNeedle)
			rgList := command(t, dir, rg, "--no-config", "--hidden", "--no-require-git", "--no-ignore-global", "-g", "!.git", "--null", "-l", "needle")
			a, b := diff(grepped, rgList)
			if len(a)+len(b) > 0 {
				divergent++
				t.Errorf("rg: only we list %q, only rg lists %q\n%s", a, b, dump(dir))
			}
			if !withRg {
				fdList := command(t, dir, fd, "-H", "-E", ".git", "--no-ignore-parent", "--type", "f", "-0")
				a, b = diff(kept, fdList)
				if len(a)+len(b) > 0 {
					divergent++
					t.Errorf("fd: only we list %q, only fd lists %q\n%s", a, b, dump(dir))
				}
			}
			if divergent > 3 {
				t.FailNow()
			}
		}
	}
	t.Logf("%d (tree, rules) queries against rg and fd, %d divergent", queries, divergent)
}
