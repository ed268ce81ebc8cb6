package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/bits"
	"slices"
)

// The encoding of an index, for a host that keeps it past the process
// that built it (issue 32's persisted index): what Decode takes is what
// AppendTo wrote, or an error. Nothing in the bytes is trusted: a file
// truncated, corrupted or written by another program decodes to an error,
// never to an index that would leave out a document it holds.
//
//	magic "rbix", version (u32)
//	documents (u32), their bytes (u64), removed-bit words (u32), the
//	    words (u64 each)
//	segments (u32), each: trigrams (u32), the trigrams (u32 each, in
//	    order), where each list starts and the end (u32 each), the lists
//	identifiers (u32; 0: none kept, as past maxNames), each after the
//	    first ("", longWord): its length (u8) and bytes
//	the identifiers' segments, as the trigrams' (keys in place of
//	    trigrams)
//	a CRC-32C of everything before it (u32)
//
// All little-endian. Decode checks the sum, and every key: in order, below
// 1<<24 or the identifiers' count, each list at least a byte; every
// identifier distinct, of minWord to maxWord identifier bytes. A list is
// checked when read (a run of varint gaps, its documents in order, below
// the documents added, each segment's after the one's before it): a load
// reads the keys, not the lists.
const (
	magic   = "rbix"
	version = 2
)

// MaxDocs bounds the documents an encoding may say it holds (a grep takes
// a bit per document): far more than a tree's files.
const MaxDocs = 1 << 26

// ErrCorrupt is what Decode says of bytes that are not an index it can
// use (its errors wrap it).
var ErrCorrupt = errors.New("index: not a valid encoding")

// castagnoli is CRC-32C's table (crc32 makes it once, when first asked): a
// function, not a package variable, so a program that never encodes an
// index (the module, today) does not build it at every start.
func castagnoli() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) }

// AppendTo freezes the index (Freeze) and appends its encoding to dst.
func (ix *Index) AppendTo(dst []byte) []byte {
	ix.Freeze()
	start := len(dst)
	dst = append(dst, magic...)
	dst = binary.LittleEndian.AppendUint32(dst, version)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(ix.docs))
	dst = binary.LittleEndian.AppendUint64(dst, uint64(ix.text))
	words := ix.dead[:min(len(ix.dead), int(ix.docs+63)/64)]
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(words)))
	for _, w := range words {
		dst = binary.LittleEndian.AppendUint64(dst, w)
	}
	dst = appendLists(dst, &ix.tris)
	v := &ix.words
	if !v.keeps() {
		dst = binary.LittleEndian.AppendUint32(dst, 0)
		dst = appendLists(dst, &lists{})
	} else {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(v.offs)-1))
		for k := uint32(1); int(k) < len(v.offs)-1; k++ {
			w := v.name(k)
			dst = append(append(dst, byte(len(w))), w...)
		}
		dst = appendLists(dst, &v.lists)
	}
	return binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[start:], castagnoli()))
}

// appendLists appends frozen lists' segments.
func appendLists(dst []byte, l *lists) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(l.segs)))
	for _, s := range l.segs {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(s.tris)))
		for _, t := range s.tris {
			dst = binary.LittleEndian.AppendUint32(dst, t)
		}
		for _, o := range s.offs {
			dst = binary.LittleEndian.AppendUint32(dst, o)
		}
		dst = append(dst, s.data...)
	}
	return dst
}

// Decode returns the index b encodes. Its lists are b's bytes, not a copy
// (b is not to be changed after), and each is checked when a query first
// reads it, not here: a list that is not documents in order below the
// count stands for every document (lists.postings).
func Decode(b []byte) (*Index, error) {
	if len(b) < len(magic)+4+4 {
		return nil, fmt.Errorf("%w: %d bytes", ErrCorrupt, len(b))
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(body, castagnoli()) != sum {
		return nil, fmt.Errorf("%w: its checksum does not match", ErrCorrupt)
	}
	r := reader{b: body}
	if string(r.bytes(len(magic))) != magic {
		return nil, fmt.Errorf("%w: not an index", ErrCorrupt)
	}
	if v := r.u32(); v != version {
		return nil, fmt.Errorf("%w: version %d, want %d", ErrCorrupt, v, version)
	}
	ix := &Index{docs: Doc(r.u32())}
	if ix.docs > MaxDocs {
		return nil, fmt.Errorf("%w: %d documents, past %d", ErrCorrupt, ix.docs, MaxDocs)
	}
	if text := r.u64(); text < 1<<62 {
		ix.text = int64(text)
	} else {
		return nil, fmt.Errorf("%w: %d bytes of documents", ErrCorrupt, text)
	}
	nw := r.u32()
	if r.err == nil && (uint64(nw) > (uint64(ix.docs)+63)/64 || uint64(nw)*8 > uint64(len(r.b))) {
		return nil, fmt.Errorf("%w: %d words of removed bits for %d documents", ErrCorrupt, nw, ix.docs)
	}
	for range nw {
		if r.err != nil {
			break
		}
		w := r.u64()
		ix.dead = append(ix.dead, w)
		ix.nDead += bits.OnesCount64(w)
	}
	var err error
	if ix.tris.segs, err = r.lists(1 << 24); err != nil {
		return nil, err
	}
	if ix.words, err = r.vocabulary(); err != nil {
		return nil, err
	}
	if ix.words.lists.segs, err = r.lists(uint32(max(len(ix.words.offs)-1, 0))); err != nil {
		return nil, err
	}
	if !ix.words.keeps() && len(ix.words.lists.segs) > 0 {
		// What encodes a vocabulary that keeps none has no lists.
		return nil, fmt.Errorf("%w: lists of identifiers it does not keep", ErrCorrupt)
	}
	switch {
	case r.err != nil:
		return nil, r.err
	case len(r.b) != 0:
		return nil, fmt.Errorf("%w: %d bytes past its end", ErrCorrupt, len(r.b))
	}
	return ix, nil
}

// reader takes an encoding apart; its first failure sticks.
type reader struct {
	b   []byte
	err error
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b) {
		r.err = fmt.Errorf("%w: cut short", ErrCorrupt)
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) u32() uint32 {
	if b := r.bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if b := r.bytes(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// lists reads the segments of lists whose keys are below keys.
func (r *reader) lists(keys uint32) ([]*segment, error) {
	var segs []*segment
	nsegs := r.u32()
	for range nsegs {
		if r.err != nil {
			break
		}
		s, err := r.segment(keys)
		if err != nil {
			return nil, err
		}
		segs = append(segs, s)
	}
	return segs, r.err
}

// vocabulary reads the identifiers, and finds their keys again; a count
// of 0 is a vocabulary that keeps none. Its names, offsets and table are
// made once at their sizes (a first pass checks and measures the names):
// grown name by name, as a build grows them, they were most of a load.
func (r *reader) vocabulary() (vocabulary, error) {
	n := r.u32()
	if r.err != nil || n == 0 {
		return vocabulary{}, r.err
	}
	// Each identifier after the first takes minWord+1 bytes at least.
	if n > maxNames || uint64(n-1)*(minWord+1) > uint64(len(r.b)) {
		return vocabulary{}, fmt.Errorf("%w: %d identifiers", ErrCorrupt, n)
	}
	size, rest := 1, r.b // names' bytes, '\n's included
	for range n - 1 {
		if len(rest) == 0 || int(rest[0]) >= len(rest) {
			return vocabulary{}, fmt.Errorf("%w: cut short", ErrCorrupt)
		}
		w := rest[1 : 1+int(rest[0])]
		if len(w) < minWord || len(w) > maxWord || slices.ContainsFunc(w, func(c byte) bool { return !wordByte[c] }) {
			return vocabulary{}, fmt.Errorf("%w: %q is not an identifier", ErrCorrupt, w)
		}
		size += len(w) + 1
		rest = rest[1+len(w):]
	}
	table := 1 << 10
	for table < 2*int(n) {
		table *= 2
	}
	v := vocabulary{names: make([]byte, 1, size), offs: make([]uint32, 2, n+1), table: make([]uint32, table)}
	v.names[0], v.offs[1] = '\n', 1
	for range n - 1 {
		w := r.bytes(int(r.bytes(1)[0]))
		if k := uint32(len(v.offs) - 1); v.key(w, hashName(w)) != k || len(v.offs) == int(k+1) {
			return vocabulary{}, fmt.Errorf("%w: %q twice", ErrCorrupt, w)
		}
	}
	return v, nil
}

// segment reads a segment and checks its keys (trigrams): in order, below
// keys, their lists where the offsets say, within the bytes. The lists
// are not read here: each is checked when a query reads it
// (lists.postings), so a load costs the keys, not the lists.
func (r *reader) segment(keys uint32) (*segment, error) {
	n := r.u32()
	// Each trigram takes 8 bytes at least (itself and its offset): a count
	// the bytes cannot hold is refused before anything is allocated.
	if r.err != nil || uint64(n)*8 > uint64(len(r.b)) {
		return nil, fmt.Errorf("%w: cut short", ErrCorrupt)
	}
	s := &segment{tris: make([]uint32, n), offs: make([]uint32, n+1)}
	for i := range s.tris {
		s.tris[i] = r.u32()
		if s.tris[i] >= keys || i > 0 && s.tris[i] <= s.tris[i-1] {
			return nil, fmt.Errorf("%w: keys out of order", ErrCorrupt)
		}
	}
	for i := range s.offs {
		s.offs[i] = r.u32()
		if i == 0 && s.offs[0] != 0 || i > 0 && s.offs[i] <= s.offs[i-1] {
			return nil, fmt.Errorf("%w: lists out of order", ErrCorrupt)
		}
	}
	s.data = r.bytes(int(s.offs[n]))
	return s, r.err
}
