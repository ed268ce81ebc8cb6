package host

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzLinks builds random trees of directories, files and symbolic links
// (to each other, to .git, to a denied or hidden directory, up and out of
// the root), greps through a random path with the wazero host under a
// policy (deny secrets/, hide hidden files), and checks the answer against
// a model of the tree: a path with a link at any component is refused with
// CodeSymlink; any other answer holds exactly the files a walk that never
// follows a link and applies the policy would read, under the names they
// have, and nothing else (no file behind a link, in .git, denied or
// hidden, and nothing outside the root).
func FuzzLinks(f *testing.F) {
	// g -> .git, then g/f.txt; a -> secrets, then a/f.txt; b/c -> ../.hid.
	f.Add([]byte{0, 0, 2, 1, 1, 5, 2, 0, 0, 2}, []byte{0, 5})
	f.Add([]byte{0, 0, 4, 1, 1, 5, 2, 0, 0, 4}, []byte{0, 5})
	f.Add([]byte{0, 0, 3, 1, 1, 5, 0, 0, 1, 2, 2, 7, 3}, []byte{1, 7, 5})
	f.Add([]byte{0, 0, 0, 1, 1, 5, 2, 0, 1, 9}, []byte{1, 0xFF, 0, 5})
	f.Add([]byte{0, 0, 0, 0, 1, 1, 1, 2, 5, 2, 2, 6, 1}, []byte{})

	base := f.TempDir()
	root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
	for _, d := range []string{root, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			f.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "f.txt"), []byte("MARK-outside\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	ctx := context.Background()
	r, err := NewRunner(ctx, NewConfig().WithRoot("/workspace", root).
		WithRootPolicy("/workspace", RootPolicy{Deny: []string{"secrets/"}, HideHidden: true}))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { r.Close(ctx) })

	f.Fuzz(func(t *testing.T, spec, query []byte) {
		m := buildLinkModel(spec, outside)
		if err := m.write(root); err != nil {
			t.Skip(err) // a name the file system refuses
		}
		q := m.query(query)
		res, _ := r.Grep(ctx, GrepArgs{Pattern: "MARK-", Path: q, OutputMode: ModeContent, MaxResults: 1000})
		got := map[string]string{} // marker -> path shown
		for _, it := range res.Items {
			if it.Text != nil {
				got[string(*it.Text)] = string(it.Path)
			}
		}
		code := ""
		if res.Done.Error != nil {
			code = res.Done.Error.Code
		}
		wantCode, want := m.expect(q)
		if code != wantCode {
			t.Fatalf("tree %s\npath %q: code %q, want %q (%s)", m, q, code, wantCode, res.Text())
		}
		for marker, p := range got {
			if w, ok := want[marker]; !ok || w != p {
				t.Fatalf("tree %s\npath %q: read %s as %q, which the model keeps out (want %v)", m, q, marker, p, want)
			}
		}
		if code == "" && len(got) != len(want) {
			t.Fatalf("tree %s\npath %q: read %v, want %v", m, q, got, want)
		}
	})
}

// linkNames are the names a tree is made of: plain ones, .git, a hidden
// one, the denied one, files.
var linkNames = []string{"a", "b", ".git", ".hid", "secrets", "f.txt", "g.txt", "c"}

type linkNode struct {
	kind   byte // 'd', 'f' or 'l'
	target string
}

// linkModel is a tree: paths below the root ("" is the root) and what
// each is.
type linkModel struct {
	nodes map[string]linkNode
	order []string
}

func buildLinkModel(spec []byte, outside string) *linkModel {
	m := &linkModel{nodes: map[string]linkNode{"": {kind: 'd'}}, order: []string{""}}
	for i := 0; i+2 < len(spec) && len(m.order) < 16; i += 3 {
		op, parentSel, nameSel := spec[i], spec[i+1], spec[i+2]
		var dirs []string
		for _, p := range m.order {
			if m.nodes[p].kind == 'd' {
				dirs = append(dirs, p)
			}
		}
		parent := dirs[int(parentSel)%len(dirs)]
		p := path.Join(parent, linkNames[int(nameSel)%len(linkNames)])
		if _, ok := m.nodes[p]; ok {
			continue
		}
		n := linkNode{kind: "dfl"[op%3]}
		if n.kind == 'l' {
			// A target: a node of the tree (relative to the link's
			// directory), up, or out of the root.
			choices := append([]string{".", "..", "../..", outside}, m.order[1:]...)
			t := choices[int(op/3)%len(choices)]
			if t != "." && t != ".." && t != "../.." && t != outside {
				up := strings.Repeat("../", strings.Count(parent, "/")+min(len(parent), 1))
				t = up + t
			}
			n.target = t
		}
		m.nodes[p] = n
		m.order = append(m.order, p)
	}
	return m
}

func (m *linkModel) String() string {
	var b strings.Builder
	for _, p := range m.order[1:] {
		n := m.nodes[p]
		fmt.Fprintf(&b, "%s:%c%s ", p, n.kind, n.target)
	}
	return b.String()
}

// write makes the tree under root, in place of whatever was there.
func (m *linkModel) write(root string) error {
	ents, _ := os.ReadDir(root)
	for _, e := range ents {
		if err := os.RemoveAll(filepath.Join(root, e.Name())); err != nil {
			return err
		}
	}
	for i, p := range m.order[1:] {
		full := filepath.Join(root, p)
		var err error
		switch n := m.nodes[p]; n.kind {
		case 'd':
			err = os.Mkdir(full, 0o755)
		case 'f':
			err = os.WriteFile(full, []byte(fmt.Sprintf("MARK-%d\n", i)), 0o644)
		case 'l':
			err = os.Symlink(n.target, full)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// query is a path of up to four names (or "..") the query bytes pick.
func (m *linkModel) query(b []byte) string {
	var parts []string
	for _, c := range b[:min(len(b), 4)] {
		if c == 0xFF {
			parts = append(parts, "..")
			continue
		}
		parts = append(parts, linkNames[int(c)%len(linkNames)])
	}
	return strings.Join(parts, "/")
}

// expect is what a grep of q must answer: an error code, or the markers
// of the files it reads and the paths they are shown under.
func (m *linkModel) expect(q string) (code string, want map[string]string) {
	rel := path.Clean(q)
	switch {
	case rel == ".." || strings.HasPrefix(rel, "../"):
		return "outside_root", nil
	case rel == ".":
		rel = ""
	}
	var comps []string
	if rel != "" {
		comps = strings.Split(rel, "/")
	}
	if slices.Contains(comps, ".git") {
		return "outside_root", nil
	}
	for i := range comps {
		n, ok := m.nodes[strings.Join(comps[:i+1], "/")]
		switch {
		case !ok:
			return "not_found", nil
		case n.kind == 'l':
			return "symlink", nil
		case n.kind == 'f' && i < len(comps)-1:
			return "not_found", nil
		}
	}
	final := m.nodes[rel]
	for i, c := range comps {
		isDir := i < len(comps)-1 || final.kind == 'd'
		if c == "secrets" && isDir || strings.HasPrefix(c, ".") {
			return "outside_root", nil
		}
	}
	want = map[string]string{}
	for i, p := range m.order[1:] {
		if m.nodes[p].kind != 'f' || p != rel && rel != "" && !strings.HasPrefix(p, rel+"/") {
			continue
		}
		below := strings.Split(p, "/")
		kept := true
		for j, c := range below {
			dir := j < len(below)-1
			if j >= len(comps) && (c == ".git" || strings.HasPrefix(c, ".") || c == "secrets" && dir) {
				kept = false
			}
		}
		if kept {
			want[fmt.Sprintf("MARK-%d", i)] = p
		}
	}
	return "", want
}
