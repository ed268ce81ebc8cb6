package index

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// randomIndex builds an index of n random documents over a small
// alphabet (trigrams shared by many), frozen at some points, with some
// removed, and returns it with its documents.
func randomIndex(rng *rand.Rand, n int) (*Index, [][]byte) {
	ix := New()
	var docs [][]byte
	for i := range n {
		d := make([]byte, rng.IntN(40))
		for j := range d {
			d[j] = "abcde\n"[rng.IntN(6)]
		}
		docs = append(docs, d)
		ix.Add(d)
		if rng.IntN(8) == 0 {
			ix.Freeze()
		}
		if i > 0 && rng.IntN(5) == 0 {
			ix.Remove(Doc(rng.IntN(i)))
		}
	}
	return ix, docs
}

// TestEncodeRoundTrip: an index decoded from its encoding answers every
// query as the index itself does (the oracle), and encodes to the same
// bytes again.
func TestEncodeRoundTrip(t *testing.T) {
	defer func(on bool) { alwaysWords = on }(alwaysWords)
	alwaysWords = true // the identifiers too
	rng := rand.New(rand.NewPCG(32, 3))
	for round := range 200 {
		ix, _ := randomIndex(rng, rng.IntN(60))
		enc := ix.AppendTo(nil)
		got, err := Decode(enc)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if again := got.AppendTo(nil); !bytes.Equal(again, enc) {
			t.Fatalf("round %d: encoded again, %d bytes differ from %d", round, len(again), len(enc))
		}
		if got.Docs() != ix.Docs() {
			t.Fatalf("round %d: %d documents, want %d", round, got.Docs(), ix.Docs())
		}
		for range 20 {
			var lits [][][]byte
			for range 1 + rng.IntN(2) {
				var l [][]byte
				for range 3 + rng.IntN(3) {
					l = append(l, []byte{"abcde\n"[rng.IntN(6)]})
				}
				lits = append(lits, l)
			}
			q := Literals(lits)
			want, wantAll := ix.Candidates(q)
			have, haveAll := got.Candidates(q)
			if wantAll != haveAll || !slices.Equal(want, have) {
				t.Fatalf("round %d, query %q: decoded %v %v, want %v %v", round, lits, have, haveAll, want, wantAll)
			}
		}
	}
}

// TestDecodeRefuses: bytes cut short, changed, or of another kind are an
// error wrapping ErrCorrupt, never an index.
func TestDecodeRefuses(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ix, _ := randomIndex(rng, 40)
	enc := ix.AppendTo(nil)
	for n := range len(enc) {
		if _, err := Decode(enc[:n]); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("cut to %d of %d bytes: %v", n, len(enc), err)
		}
	}
	for i := range len(enc) {
		b := slices.Clone(enc)
		b[i] ^= 1 << rng.IntN(8)
		if _, err := Decode(b); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d changed: %v", i, err)
		}
	}
	// Identifiers with the sum made again: one that is not one, one twice.
	names := New()
	names.Add([]byte("abc abd"))
	named := names.AppendTo(nil)
	body := named[:len(named)-4]
	at := bytes.LastIndex(body, []byte("abd"))
	notOne, twice := slices.Clone(body), slices.Clone(body)
	notOne[at+2], twice[at+2] = '-', 'c'
	for _, tc := range []struct {
		name string
		b    []byte
		want string // in the error, when set
	}{
		{name: "empty", b: nil},
		{name: "not an identifier", b: withSum(notOne), want: `"ab-" is not an identifier`},
		{name: "an identifier twice", b: withSum(twice), want: `"abc" twice`},
		{name: "another file", b: []byte("{\"v\":1}\n")},
		{name: "two indexes end to end", b: append(slices.Clone(enc), enc...)},
	} {
		if _, err := Decode(tc.b); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// withSum appends the checksum Decode wants, so the fuzzer reaches the
// checks past it.
func withSum(body []byte) []byte {
	return binary.LittleEndian.AppendUint32(slices.Clone(body), crc32.Checksum(body, castagnoli()))
}

// FuzzDecode: whatever bytes (with a valid checksum) it is given, Decode
// refuses them or returns an index whose every key gives a query
// documents in order below its count, and which encodes to the same bytes
// again.
func FuzzDecode(f *testing.F) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, 5, 30} {
		ix, _ := randomIndex(rng, n)
		enc := ix.AppendTo(nil)
		f.Add(enc[:len(enc)-4])
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		b := withSum(body)
		ix, err := Decode(b)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("an error not ErrCorrupt: %v", err)
			}
			return
		}
		checkLists(t, "trigrams", &ix.tris, ix.docs)
		checkLists(t, "identifiers", &ix.words.lists, ix.docs)
		v := &ix.words
		for k := uint32(1); int(k) < len(v.offs)-1; k++ {
			w := append([]byte(nil), v.name(k)...)
			if got := v.key(w, hashName(w)); got != k {
				t.Fatalf("identifier %q has key %d, want %d", w, got, k)
			}
		}
		if again := ix.AppendTo(nil); !bytes.Equal(again, b) {
			t.Fatalf("encoded again: %x, want %x", again, b)
		}
	})
}

// checkLists checks what decoded lists give a query: for every key of a
// segment, documents in order below docs (a list that is not stands for
// every document: lists.postings).
func checkLists(t *testing.T, what string, l *lists, docs Doc) {
	t.Helper()
	for _, s := range l.segs {
		for _, key := range s.tris {
			list := l.postings(nil, key, docs)
			for j := range list {
				if j > 0 && list[j] <= list[j-1] || list[j] >= docs {
					t.Fatalf("%s: key %d: list %v, want documents in order below %d", what, key, list, docs)
				}
			}
		}
	}
}

// BenchmarkPersist encodes and decodes the index of a tree's files
// (INDEX_TREE, or GOROOT's src): what handing an index built elsewhere
// over costs at least (a saved one, or a part of a split build).
func BenchmarkPersist(b *testing.B) {
	docs, _ := corpus(b, os.Getenv("INDEX_TREE"))
	ix := New()
	for _, d := range docs {
		ix.Add(d)
	}
	enc := ix.AppendTo(nil)
	b.Run("encode", func(b *testing.B) {
		b.SetBytes(int64(len(enc)))
		for range b.N {
			enc = ix.AppendTo(enc[:0])
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(enc)))
		for range b.N {
			if _, err := Decode(enc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestSpoiledListStandsForAll: a decoded list is checked when a query
// reads it, and one that is not documents in order below the count (which
// Decode no longer reads) gives every document, never fewer.
func TestSpoiledListStandsForAll(t *testing.T) {
	const docs = 6
	uv := func(gaps ...uint64) []byte {
		var b []byte
		for _, g := range gaps {
			b = binary.AppendUvarint(b, g)
		}
		return b
	}
	seg := func(data []byte) *segment {
		return &segment{tris: []uint32{7}, offs: []uint32{0, uint32(len(data))}, data: data}
	}
	all := []Doc{0, 1, 2, 3, 4, 5}
	for _, tc := range []struct {
		name string
		segs []*segment
		want []Doc
	}{
		{name: "sound", segs: []*segment{seg(uv(1, 2)), seg(uv(4))}, want: []Doc{1, 3, 4}},
		{name: "another key", segs: []*segment{{tris: []uint32{8}, offs: []uint32{0, 1}, data: uv(9)}}, want: nil},
		{name: "empty", segs: []*segment{seg(nil)}, want: all},
		{name: "a gap of 0 after the first", segs: []*segment{seg(uv(1, 0))}, want: all},
		{name: "past the count", segs: []*segment{seg(uv(2, 4))}, want: all},
		{name: "a varint cut short", segs: []*segment{seg([]byte{1, 0x80})}, want: all},
		{name: "past 1<<32", segs: []*segment{seg(uv(1<<32-1, 1))}, want: all},
		{name: "segments out of order", segs: []*segment{seg(uv(3)), seg(uv(2))}, want: all},
		{name: "segments sharing a document", segs: []*segment{seg(uv(3)), seg(uv(3))}, want: all},
	} {
		l := lists{segs: tc.segs}
		prefix := []Doc{99}
		got := l.postings(slices.Clone(prefix), 7, docs)
		if !slices.Equal(got, append(prefix, tc.want...)) {
			t.Errorf("%s: %v, want %v after %v", tc.name, got[1:], tc.want, prefix)
		}
	}
}
