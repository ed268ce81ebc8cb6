package server

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"maps"
	"testing"
	"time"

	"github.com/rootbound/rootbound/internal/index"
	"github.com/rootbound/rootbound/internal/testtree"
	"github.com/rootbound/rootbound/protocol"
)

// restartIndexed starts a server with a fed index of roots, loaded from
// load (a root's saved index, or nil), and returns it with what it saved.
func restartIndexed(t *testing.T, roots []Root, load []byte, now func() time.Time) (*Server, []byte) {
	t.Helper()
	s, saved, _, _ := restartCounted(t, roots, load, now)
	return s, saved
}

// restartCounted is restartIndexed, with how many files the index request
// read and how many its walk found.
func restartCounted(t *testing.T, roots []Root, load []byte, now func() time.Time) (s *Server, saved []byte, read, files int64) {
	t.Helper()
	s, err := New(roots)
	if err != nil {
		t.Fatal(err)
	}
	s.now = now
	for len(load) > 0 {
		n := min(len(load), protocol.MaxChunkBytes)
		out := answer(t, s, protocol.Request{V: protocol.Version, ID: "l", Load: &protocol.Chunk{Root: roots[0].Name, Bytes: load[:n]}})
		if !bytes.Contains(out, []byte(`"status":"complete"`)) {
			t.Fatalf("load: %s", out)
		}
		load = load[n:]
	}
	out := answer(t, s, protocol.Request{V: protocol.Version, ID: "i", Index: &protocol.IndexArgs{Fed: true, Load: true, Save: true}})
	for _, l := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var line protocol.Line
		if err := json.Unmarshal(l, &line); err != nil {
			t.Fatalf("index: %v: %s", err, l)
		}
		switch {
		case line.Saved != nil:
			saved = append(saved, line.Saved.Bytes...)
		case line.Done != nil && line.Done.Status != protocol.StatusComplete:
			t.Fatalf("index: %s", l)
		case line.Done != nil:
			read, files = line.Done.Stats.FilesRead, line.Done.Stats.Files
		}
	}
	return s, saved, read, files
}

// saveIndex is what a server with an index of roots saves.
func saveIndex(t *testing.T, roots []Root, load []byte, now func() time.Time) []byte {
	t.Helper()
	_, saved := restartIndexed(t, roots, load, now)
	return saved
}

// savedTree is a saved index of a small tree: text files, a binary one,
// a file too large to index.
func savedTree(t *testing.T) ([]Root, []byte) {
	dir := t.TempDir()
	testtree.Write(t, dir, map[string]string{
		"a.txt": "alpha beta\n", "sub/b.go": "package b // gamma\n", "sub/deep/c.md": "delta\n",
		"bin.dat": "x\x00y", ".hidden/d.txt": "epsilon\n", "e": "",
	})
	roots := []Root{{Name: "/r", Dir: dir}}
	later := func() time.Time { return time.Now().Add(time.Hour) }
	saved := saveIndex(t, roots, nil, later)
	return roots, saved
}

// TestSavedRoundTrip: a saved index decodes to the entries and the index
// it was made from, and saves again to the same bytes.
func TestSavedRoundTrip(t *testing.T) {
	roots, saved := savedTree(t)
	ri, err := decodeRoot(saved, 1<<30, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(ri.files); got != 6 {
		t.Errorf("%d files, want 6", got)
	}
	if e := ri.files["bin.dat"]; e == nil || !e.binary || e.read != 3 {
		t.Errorf("bin.dat: %+v, want binary, 3 bytes read", e)
	}
	for p, e := range ri.files {
		if !e.unseen {
			t.Errorf("%s: seen before any walk", p)
		}
	}
	if again := ri.appendTo(nil); !bytes.Equal(again, saved) {
		t.Errorf("saved again: %d bytes differ from %d", len(again), len(saved))
	}
	// A server that loads it keeps every file and reads none.
	later := func() time.Time { return time.Now().Add(time.Hour) }
	s, resaved, read, files := restartCounted(t, roots, saved, later)
	if read != 0 || files != 6 || resaved != nil {
		t.Errorf("loaded: %d of %d files read, %d bytes saved again; want none read, none saved", read, files, len(resaved))
	}
	// Its first grep replays the index request's walk, and answers as a
	// server without an index.
	plain, _ := New(roots)
	req := protocol.Request{V: protocol.Version, ID: "g", Call: protocol.Call{Grep: &protocol.GrepArgs{Pattern: "gamma|epsilon"}}}
	if got, want := answer(t, s, req), answer(t, plain, req); !bytes.Equal(got, want) {
		t.Errorf("from the loaded index:\n%s\nwithout one:\n%s", got, want)
	}
	if n := s.indexes["/r"].replays; n != 1 {
		t.Errorf("the first grep after the index request replayed %d walks, want 1", n)
	}
}

// TestSavedRefuses: a saved index cut short anywhere, or with any byte
// changed, does not decode.
func TestSavedRefuses(t *testing.T) {
	_, saved := savedTree(t)
	for n := range len(saved) {
		if _, err := decodeRoot(saved[:n], 1<<30, false); err == nil {
			t.Fatalf("cut to %d of %d bytes: decoded", n, len(saved))
		}
	}
	for i := range saved {
		b := bytes.Clone(saved)
		b[i] ^= 0x10
		if _, err := decodeRoot(b, 1<<30, false); err == nil {
			t.Fatalf("byte %d changed: decoded", i)
		}
	}
	if _, err := decodeRoot(saved, 10, false); err == nil {
		t.Errorf("decoded past a cap of 10 bytes")
	}
}

// FuzzDecodeSaved gives decodeRoot any file entries under a valid
// checksum and index: what decodes names each live document once, only
// below the index's count, with clean paths, and saves to bytes that
// decode to the same entries.
func FuzzDecodeSaved(f *testing.F) {
	ix := index.New()
	for _, s := range []string{"alpha", "beta", "gamma"} {
		ix.Add([]byte(s))
	}
	encIx := ix.AppendTo(nil)
	withSum := func(entries []byte) []byte {
		b := append([]byte(savedMagic), 1, 0, 0, 0)
		b = binary.LittleEndian.AppendUint64(b, 100)
		b = append(b, entries...)
		b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)))
		return append(b, encIx...)
	}
	f.Add([]byte{2, 0, 0, 0, 1, 'a', 5, 2, 2, 1, 1, 0, 0, 1, 'b', 4, 2, 2, 2, 1, 0, 2})
	f.Add([]byte{1, 0, 0, 0, 3, 'a', '/', 'b', 9, 0, 0, 7, 2, 1, 4})
	f.Add([]byte{2, 0, 0, 0, 1, 'a', 5, 2, 2, 1, 1, 0, 0, 1, 'a', 4, 2, 2, 2, 1, 0, 2})
	f.Fuzz(func(t *testing.T, entries []byte) {
		ri, err := decodeRoot(withSum(entries), 1<<30, false)
		if err != nil {
			if !errors.Is(err, errSaved) && !errors.Is(err, index.ErrCorrupt) {
				t.Fatalf("error %v is neither errSaved nor index.ErrCorrupt", err)
			}
			return
		}
		owner := map[index.Doc]string{}
		for p, e := range ri.files {
			if p == "" || p[0] == '/' || bytes.Contains([]byte("/"+p+"/"), []byte("/../")) {
				t.Fatalf("path %q decoded", p)
			}
			if e.binary {
				continue
			}
			if int(e.doc) >= ri.ix.Docs() || ri.ix.Removed(e.doc) {
				t.Fatalf("%s: document %d of %d, removed %v", p, e.doc, ri.ix.Docs(), ri.ix.Removed(e.doc))
			}
			if q, ok := owner[e.doc]; ok {
				t.Fatalf("document %d is both %s's and %s's", e.doc, q, p)
			}
			owner[e.doc] = p
		}
		again, err := decodeRoot(ri.appendTo(nil), 1<<30, false)
		if err != nil {
			t.Fatalf("saved again, it does not decode: %v", err)
		}
		if !maps.EqualFunc(ri.files, again.files, func(a, b *indexed) bool { return *a == *b }) {
			t.Fatalf("saved again, its entries differ")
		}
	})
}
