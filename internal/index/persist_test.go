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
// refuses them or returns an index whose every list is documents in
// order below its count, each segment's after the one's before, and which
// encodes to the same bytes again.
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
		checkLists(t, "trigrams", ix.tris.segs, ix.docs)
		checkLists(t, "identifiers", ix.words.lists.segs, ix.docs)
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

// checkLists checks decoded segments: every list's documents in order,
// below docs, each segment's after the one's before it.
func checkLists(t *testing.T, what string, segs []*segment, docs Doc) {
	t.Helper()
	next := Doc(0)
	for _, s := range segs {
		first := true
		var hi Doc
		for i, key := range s.tris {
			list := s.postings(nil, key)
			for j := range list {
				if j > 0 && list[j] <= list[j-1] {
					t.Fatalf("%s: key %d: list %v, want documents in order", what, i, list)
				}
			}
			if len(list) == 0 {
				t.Fatalf("%s: key %d: an empty list", what, i)
			}
			if list[0] < next || list[len(list)-1] >= docs {
				t.Fatalf("%s: key %d: list %v outside [%d, %d)", what, i, list, next, docs)
			}
			if first || list[len(list)-1] > hi {
				hi, first = list[len(list)-1], false
			}
		}
		if !first {
			next = hi + 1
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
