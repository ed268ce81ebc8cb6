//go:build !wasip1

package nofollow_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/internal/nofollow"
	"github.com/rootbound/rootbound/internal/testtree"
)

func TestTree(t *testing.T) {
	dir := testtree.New(t, map[string]string{
		".git/config":     "secret",
		"src/deep/a.txt":  "a",
		"src/b.txt":       "b",
		"g":               "->.git",
		"lnk":             "->src",
		"src/up":          "->..",
		"src/file-link":   "->b.txt",
		"chain":           "->lnk",
		"src/deep/parent": "->../deep",
	})
	tree, err := nofollow.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	tests := []struct {
		name string
		path string
		link string // the *LinkError's Path, "" for none
		err  error  // else an error it Is
		want string // else the contents
	}{
		{name: "file", path: "src/b.txt", want: "b"},
		{name: "deep file", path: "src/deep/a.txt", want: "a"},
		{name: "link first", path: "g/config", link: "g"},
		{name: "link in the middle", path: "src/up/.git/config", link: "src/up"},
		{name: "link to a link", path: "chain/b.txt", link: "chain"},
		{name: "link last", path: "src/file-link", link: "src/file-link"},
		{name: "link after a real directory, back again", path: "src/deep/parent/a.txt", link: "src/deep/parent"},
		{name: "dot dot", path: "src/../.git/config", err: nofollow.ErrBadPath},
		{name: "absolute", path: "/src/b.txt", err: nofollow.ErrBadPath},
		{name: "missing", path: "src/none.txt", err: fs.ErrNotExist},
		{name: "a file as a directory", path: "src/b.txt/x", err: errors.New("any")},
		{name: "after all that, the first file again", path: "src/b.txt", want: "b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fd, st, err := tree.OpenFile(tt.path)
			var le *nofollow.LinkError
			switch {
			case tt.link != "":
				if !errors.As(err, &le) || le.Path != tt.link {
					t.Fatalf("OpenFile(%q) = %v, want a link error at %q", tt.path, err, tt.link)
				}
			case tt.err != nil:
				if err == nil || tt.err.Error() != "any" && !errors.Is(err, tt.err) {
					t.Fatalf("OpenFile(%q) = %v, want %v", tt.path, err, tt.err)
				}
				if errors.As(err, &le) {
					t.Fatalf("OpenFile(%q) = %v, want no link error", tt.path, err)
				}
			default:
				if err != nil {
					t.Fatalf("OpenFile(%q): %v", tt.path, err)
				}
				f := os.NewFile(uintptr(fd), "f") // the file's now: closed once, by it
				defer f.Close()
				b := make([]byte, 16)
				n, _ := f.Read(b)
				if string(b[:n]) != tt.want || st.Type != nofollow.File || st.Size != int64(len(tt.want)) {
					t.Fatalf("OpenFile(%q) read %q, stat %+v", tt.path, b[:n], st)
				}
			}
		})
	}
	// Lstat describes a link at the end and refuses one before it.
	if st, err := tree.Lstat("g"); err != nil || st.Type != nofollow.Symlink {
		t.Errorf("Lstat(g) = %+v, %v; want a symlink", st, err)
	}
	var le *nofollow.LinkError
	if _, err := tree.Lstat("lnk/b.txt"); !errors.As(err, &le) || le.Path != "lnk" {
		t.Errorf("Lstat(lnk/b.txt) = %v, want a link error at lnk", err)
	}
	if st, err := tree.Lstat(""); err != nil || st.Type != nofollow.Dir {
		t.Errorf("Lstat of the top = %+v, %v", st, err)
	}
}

// TestTreeDeep walks down past maxOpen and back up, opening a file at every
// level on the way up, so ancestors closed to stay under the bound are
// reopened; and checks that what is held open stays bounded.
func TestTreeDeep(t *testing.T) {
	const depth = 300
	dir, _ := deepTree(t, depth)
	tree, err := nofollow.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	rel := func(level int) string { return strings.Repeat("d/", level+1) + "f" }
	before := openFDs(t)
	if _, err := tree.Dir(strings.TrimSuffix(strings.Repeat("d/", depth), "/")); err != nil {
		t.Fatal(err)
	}
	if held := openFDs(t) - before; held > 130 {
		t.Errorf("%d descriptors held at depth %d, want at most about 128", held, depth)
	}
	for i := depth - 1; i >= 0; i-- {
		fd, _, err := tree.OpenFile(rel(i))
		if err != nil {
			t.Fatalf("level %d: %v", i, err)
		}
		b := make([]byte, 8)
		f := os.NewFile(uintptr(fd), "f") // the file's now: closed once, by it
		n, _ := f.Read(b)
		f.Close()
		if string(b[:n]) != fmt.Sprint(i) {
			t.Fatalf("level %d read %q", i, b[:n])
		}
	}
	tree.Close()
	if after := openFDs(t); after > before {
		t.Errorf("%d descriptors left open after Close", after-before)
	}
}

// deepTree makes depth directories d/d/…, each holding a file f of its
// level, in a temporary directory, and returns that and the deepest.
func deepTree(t *testing.T, depth int) (top, deepest string) {
	top = t.TempDir()
	p := top
	for i := 0; i < depth; i++ {
		p = filepath.Join(p, "d")
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "f"), []byte(fmt.Sprint(i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return top, p
}

// TestTreeWalkDown: a walk down a deep path, a level at a time, each
// level's file opened before the next (as the module loads each level's
// ignore files), opens each directory once (not the path from the top
// each time), holds no more than maxOpen, and still refuses a link.
func TestTreeWalkDown(t *testing.T) {
	const depth = 500
	dir, p := deepTree(t, depth)
	os.Symlink("d", filepath.Join(p, "l"))
	tree, err := nofollow.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	before := openFDs(t)
	rel := ""
	for i := 0; i < depth; i++ {
		rel = strings.TrimPrefix(rel+"/d", "/")
		if _, err := tree.Dir(rel); err != nil {
			t.Fatalf("level %d: %v", i, err)
		}
		fd, _, err := tree.OpenFile(rel + "/f")
		if err != nil {
			t.Fatalf("level %d: %v", i, err)
		}
		nofollow.Close(fd)
	}
	if got := tree.Opened(); got != depth {
		t.Errorf("%d directories opened for a walk %d deep, want %d", got, depth, depth)
	}
	if held := openFDs(t) - before; held > 130 {
		t.Errorf("%d descriptors held at depth %d, want at most about 128", held, depth)
	}
	var le *nofollow.LinkError
	if _, err := tree.Dir(rel + "/l"); !errors.As(err, &le) || le.Path != rel+"/l" {
		t.Errorf("a link one level down: %v, want a LinkError naming it", err)
	}
	if _, err := tree.Dir("d/d"); err != nil { // back up, from what is still open
		t.Errorf("back up: %v", err)
	}
}

// TestTreeHeldDirectory: a directory swapped for a link to .git after it
// was opened is not followed: the tree goes on reading the directory it
// opened, and a fresh open of the name is refused.
func TestTreeHeldDirectory(t *testing.T) {
	dir := testtree.New(t, map[string]string{"a/b/x.txt": "inside", ".git/b/x.txt": "secret"})
	tree, err := nofollow.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	if _, err := tree.Dir("a/b"); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "a"), filepath.Join(dir, "a.real")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".git", filepath.Join(dir, "a")); err != nil {
		t.Fatal(err)
	}
	fd, _, err := tree.OpenFile("a/b/x.txt")
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 16)
	f := os.NewFile(uintptr(fd), "f") // the file's now: closed once, by it
	n, _ := f.Read(b)
	f.Close()
	if string(b[:n]) != "inside" {
		t.Errorf("read %q through the held directory, want inside", b[:n])
	}
	tree.Close()
	if tree, err = nofollow.Open(dir); err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	var le *nofollow.LinkError
	if _, _, err := tree.OpenFile("a/b/x.txt"); !errors.As(err, &le) || le.Path != "a" {
		t.Errorf("fresh open through the link: %v, want a link error at a", err)
	}
}

func openFDs(t *testing.T) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(ents)
}
