package index

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"slices"
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
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{name: "empty", b: nil},
		{name: "another file", b: []byte("{\"v\":1}\n")},
		{name: "two indexes end to end", b: append(slices.Clone(enc), enc...)},
	} {
		if _, err := Decode(tc.b); !errors.Is(err, ErrCorrupt) {
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
		next := Doc(0)
		for _, s := range ix.segs {
			first := true
			var hi Doc
			for i, tri := range s.tris {
				docs := s.postings(nil, tri)
				for j := range docs {
					if j > 0 && docs[j] <= docs[j-1] {
						t.Fatalf("trigram %d: list %v, want documents in order", i, docs)
					}
				}
				if len(docs) == 0 {
					t.Fatalf("trigram %d: an empty list", i)
				}
				if docs[0] < next || docs[len(docs)-1] >= ix.docs {
					t.Fatalf("trigram %d: list %v outside [%d, %d)", i, docs, next, ix.docs)
				}
				if first || docs[len(docs)-1] > hi {
					hi, first = docs[len(docs)-1], false
				}
			}
			if !first {
				next = hi + 1
			}
		}
		if again := ix.AppendTo(nil); !bytes.Equal(again, b) {
			t.Fatalf("encoded again: %x, want %x", again, b)
		}
	})
}
