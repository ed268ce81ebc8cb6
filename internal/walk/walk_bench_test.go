package walk_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rootbound/rootbound/internal/nofollow"
	"github.com/rootbound/rootbound/internal/walk"
)

// BenchmarkWalk walks a tree (ROOTBOUND_BENCH_TREE, or $GOROOT/src) as
// a glob that matches nothing would, without its rules: "os" is the walk
// any Go program writes (os.ReadDir, recursively), "Walker" this
// package's. Run natively and in wasm under wazero (`make bench -run
// walk`), it says what a walk's entry costs before any rule is applied:
// the floor a glob's walk stands on, in each.
func BenchmarkWalk(b *testing.B) {
	dir := os.Getenv("ROOTBOUND_BENCH_TREE")
	if dir == "" {
		if root := os.Getenv("GOROOT"); root != "" {
			dir = filepath.Join(root, "src")
		}
	}
	if _, err := os.Stat(dir); dir == "" || err != nil {
		b.Skip("no tree: set ROOTBOUND_BENCH_TREE or GOROOT")
	}
	entries := 0
	var osWalk func(dir string)
	osWalk = func(dir string) {
		es, err := os.ReadDir(dir)
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range es {
			entries++
			if e.IsDir() {
				osWalk(dir + "/" + e.Name())
			}
		}
	}
	b.Run("os", func(b *testing.B) {
		for b.Loop() {
			entries = 0
			osWalk(dir)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(entries), "ns/entry")
	})
	b.Run("Walker", func(b *testing.B) {
		// In wasm a tree's top is a preopened directory: the nearest
		// one above dir, and the walk starts below it. A tree a call,
		// as the module opens one: a directory is listed once a tree.
		top, below := dir, ""
		tree, err := nofollow.Open(top)
		for err != nil && filepath.Dir(top) != top {
			below = filepath.ToSlash(filepath.Join(filepath.Base(top), below))
			top = filepath.Dir(top)
			tree, err = nofollow.Open(top)
		}
		if err != nil {
			b.Fatal(err)
		}
		tree.Close()
		n := 0
		w := &walk.Walker{
			Check:   func() error { n++; return nil },
			File:    func(rel, tpath string) error { return nil },
			Problem: func(rel string, err error) error { b.Fatal(rel, err); return nil },
		}
		for b.Loop() {
			n = 0
			if w.Tree, err = nofollow.Open(top); err != nil {
				b.Fatal(err)
			}
			if err := w.Walk(below); err != nil {
				b.Fatal(err)
			}
			w.Tree.Close()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entry")
	})
}
