package host

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rootbound/rootbound/internal/testtree"
	"github.com/rootbound/rootbound/protocol"
)

// TestHostileFeedLost: when the change feed can no longer follow
// a root, the index looks at each file again and never answers from what
// it read before. Each case changes the tree after the index is built, in
// a way the feed cannot follow, then edits a file twice, a grep after
// each: the index's answers are byte for byte those of a Runner without
// one. On the old feed, the second edit was missed: the first grep after
// the loss looked at every file, and then the feed went on as if whole.
func TestHostileFeedLost(t *testing.T) {
	for _, tc := range []struct {
		name string
		// lose makes the feed lose the root (dir: the root's directory);
		// it returns the directory the edits go to.
		lose func(t *testing.T, dir string) string
	}{
		{name: "the root renamed and made again", lose: func(t *testing.T, dir string) string {
			// The mount serves the directory it holds, now named
			// dir.moved; dir names a new, empty one.
			if err := os.Rename(dir, dir+".moved"); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(dir+".moved", "d")
		}},
		{name: "a directory moved out of the root and another moved in", lose: func(t *testing.T, dir string) string {
			// The watch of d goes with it and still names dir/d; the
			// d moved in is new to the index.
			testtree.Write(t, dir+".in", map[string]string{"a.txt": "first\n"})
			if err := os.Rename(filepath.Join(dir, "d"), dir+".out"); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(dir+".in", filepath.Join(dir, "d")); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(dir, "d")
		}},
		{name: "the watch limit reached", lose: func(t *testing.T, dir string) string {
			addWatch = func(int, string, uint32) (int, error) { return -1, unix.ENOSPC }
			t.Cleanup(func() { addWatch = unix.InotifyAddWatch })
			fresh := filepath.Join(dir, "fresh")
			if err := os.Mkdir(fresh, 0o755); err != nil {
				t.Fatal(err)
			}
			return fresh
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			dir := filepath.Join(base, "root")
			testtree.Write(t, dir, map[string]string{"d/a.txt": "first\n", "b.txt": "other\n"})
			time.Sleep(racyWait)
			withIndex, without := indexPair(t, dir)
			withIndex.mu.Lock()
			fed := withIndex.ix.feeds != nil
			withIndex.mu.Unlock()
			if !fed {
				t.Skip("no change feed on this file system")
			}
			edits := tc.lose(t, dir)
			for i, word := range []string{"second", "third"} {
				if err := os.WriteFile(filepath.Join(edits, "a.txt"), []byte(word+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				// Past the racy window, the grep indexes what it reads and
				// trusts it: the next edit is seen only through the feed,
				// or by a look at the file when the feed is lost.
				time.Sleep(racyWait)
				req := protocol.Request{V: protocol.Version, ID: fmt.Sprint(i), Call: protocol.Call{Grep: &protocol.GrepArgs{Pattern: word, OutputMode: protocol.ModeContent}}}
				got, want := serveLine(t, withIndex, req), serveLine(t, without, req)
				if !bytes.Equal(got, want) {
					t.Fatalf("edit %d (%s):\nwith the index:\n%s\nwithout:\n%s", i+1, word, got, want)
				}
				if !bytes.Contains(want, []byte(word)) {
					t.Fatalf("edit %d: the Runner without an index did not find %q either:\n%s", i+1, word, want)
				}
			}
		})
	}
}
