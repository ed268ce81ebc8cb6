//go:build unix

// The wasip1 walker (readdir_wasip1.go) runs under the hosts' suites
// (conformance, hostile); these tests build natively: wasip1 has no mkfifo.

package walk_test

import (
	"errors"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"

	"github.com/rootbound/rootbound/internal/nofollow"
	"github.com/rootbound/rootbound/internal/testtree"
	"github.com/rootbound/rootbound/internal/walk"
)

func TestWalk(t *testing.T) {
	dir := testtree.New(t, map[string]string{
		"b.go":         "",
		"a/z.go":       "",
		"a.go":         "",
		".github/ci":   "",
		".git/config":  "",
		"sub/.git":     "gitdir: elsewhere",
		"sub/x y.txt":  "",
		"link-file":    "->b.go",
		"link-dir":     "->a",
		"link-outside": "->/etc",
		"dangling":     "->nowhere",
	})
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	w := &walk.Walker{
		Tree:    open(t, dir),
		Check:   func() error { return nil },
		File:    func(rel, _ string) error { got = append(got, rel); return nil },
		Problem: func(rel string, err error) error { t.Errorf("problem %s: %v", rel, err); return nil },
	}
	if err := w.Walk(""); err != nil {
		t.Fatal(err)
	}
	want := []string{".github/ci", "a/z.go", "a.go", "b.go", "sub/x y.txt"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	if w.Symlink != 4 || w.Special != 1 || w.Files != 5 || w.Dirs != 4 {
		t.Errorf("counts: symlink %d special %d files %d dirs %d, want 4 1 5 4", w.Symlink, w.Special, w.Files, w.Dirs)
	}
}

func TestWalkStops(t *testing.T) {
	dir := testtree.New(t, map[string]string{"a": "", "b": "", "c": ""})
	stop := errors.New("stop")
	n := 0
	tree := open(t, dir)
	w := &walk.Walker{
		Tree: tree,
		Check: func() error {
			n++
			if n == 2 {
				return stop
			}
			return nil
		},
		File:    func(string, string) error { return nil },
		Problem: func(string, error) error { return nil },
	}
	if err := w.Walk(""); !errors.Is(err, stop) {
		t.Errorf("Walk = %v, want the Check error", err)
	}
	w = &walk.Walker{
		Tree:    tree,
		Check:   func() error { return nil },
		File:    func(string, string) error { return walk.SkipAll },
		Problem: func(string, error) error { return nil },
	}
	if err := w.Walk(""); err != nil || w.Files != 1 {
		t.Errorf("SkipAll: err %v after %d files, want nil after 1", err, w.Files)
	}
}

// TestWalkRanges cuts a walk into ranges at every path it hands on and at
// paths it does not: the ranges' files, in order, are the whole walk's,
// each where Compare puts it, and their counters add up to the whole
// walk's (each entry is counted by the range it is in, a directory's
// listing too).
func TestWalkRanges(t *testing.T) {
	dir := testtree.New(t, map[string]string{
		"a/z.go": "", "a/b/c.go": "", "a/b/d/e.go": "", "a b": "", "a.go": "", "a-1/x": "",
		"b.go": "", "link": "->b.go", "sub/x y.txt": "", "sub/.git": "gitdir: x", "z/empty/.keep": "",
	})
	if err := syscall.Mkfifo(filepath.Join(dir, "a", "b", "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	tree := open(t, dir)
	type counts struct{ dirs, files, symlink, special, entries int64 }
	walkRange := func(from, to string) ([]string, counts) {
		var files []string
		var c counts
		w := &walk.Walker{
			Tree: tree, From: from, To: to,
			Check:   func() error { c.entries++; return nil },
			Begin:   func() { c.entries = 0 },
			File:    func(rel, _ string) error { files = append(files, rel); return nil },
			Problem: func(rel string, err error) error { t.Errorf("problem %s: %v", rel, err); return nil },
		}
		if err := w.Walk(""); err != nil {
			t.Fatalf("[%q, %q): %v", from, to, err)
		}
		c.dirs, c.files, c.symlink, c.special = w.Dirs, w.Files, w.Symlink, w.Special
		return files, c
	}
	all, whole := walkRange("", "")
	for i := 1; i < len(all); i++ {
		if walk.Compare(all[i-1], all[i]) >= 0 {
			t.Errorf("Compare(%q, %q) >= 0, but the walk hands them on in that order", all[i-1], all[i])
		}
	}
	cuts := append([]string{"a", "a/b", "a/b/", "a/b/d", "a.", "a0", "sub/x", "z", "zz"}, all...)
	for _, from := range cuts {
		for _, to := range cuts {
			if walk.Compare(from, to) >= 0 {
				continue
			}
			var got []string
			var sum counts
			for _, r := range [][2]string{{"", from}, {from, to}, {to, ""}} {
				files, c := walkRange(r[0], r[1])
				for _, f := range files {
					if walk.Compare(f, r[0]) < 0 || r[1] != "" && walk.Compare(f, r[1]) >= 0 {
						t.Errorf("range [%q, %q) took %q", r[0], r[1], f)
					}
				}
				got = append(got, files...)
				sum.dirs, sum.files, sum.symlink, sum.special = sum.dirs+c.dirs, sum.files+c.files, sum.symlink+c.symlink, sum.special+c.special
				sum.entries += c.entries
			}
			if !reflect.DeepEqual(got, all) {
				t.Errorf("cut at %q and %q: files %q, want %q", from, to, got, all)
			}
			if sum != whole {
				t.Errorf("cut at %q and %q: counts %+v, want the whole walk's %+v", from, to, sum, whole)
			}
		}
	}
}

func open(t *testing.T, dir string) *nofollow.Tree {
	t.Helper()
	tree, err := nofollow.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tree.Close)
	return tree
}
