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

func open(t *testing.T, dir string) *nofollow.Tree {
	t.Helper()
	tree, err := nofollow.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tree.Close)
	return tree
}
