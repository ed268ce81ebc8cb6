// Package index keeps a trigram index of file contents: for each run of
// three bytes, the documents it occurs in; and for each identifier (a
// run of [A-Za-z0-9_], words.go), the documents it is one of. A search
// asks it which documents can hold a match (a Query, from the literals
// every match of a pattern contains) and reads only those; it never
// decides a match. A document it leaves out cannot match; a candidate
// must still be searched.
//
// Documents are numbered as they are added. A document whose file changed
// is removed (it is never a candidate again) and its new contents added
// under a new number, so an index follows edits without being rebuilt:
// what was added since the last Freeze is kept in a form that grows in
// place, everything before it in compact segments.
//
// Why trigrams and identifiers, and why this layout: RATIONALE.md, "Why a
// trigram index inside the module?".
package index

import (
	"encoding/binary"
	"slices"
	"unsafe"
)

// Doc is a document's number.
type Doc = uint32

// Index is a trigram and identifier index of documents. It is not safe
// for concurrent use.
type Index struct {
	tris  lists    // each trigram's documents
	dead  []uint64 // bit d: document d was removed
	docs  Doc      // documents added
	text  int64    // their bytes
	nDead int
	seen  []uint64 // bit t: trigram t is in the document being added
	added []uint32 // the trigrams set in seen
	words vocabulary
}

// lists are posting lists: for each key (below 1<<24), the documents.
type lists struct {
	segs []*segment // frozen, each over later documents than the one before
	live builder    // the documents added since the last Freeze
}

// postings appends key k's documents, in order, to dst. The lists of a
// decoded index were not checked when it was read (Decode): each is
// checked here, as it is read, and one that is not documents in order
// below docs, each segment's after the one's before it, stands for every
// document, so a list a file spoiled can cost a read, never a match.
func (l *lists) postings(dst []Doc, k uint32, docs Doc) []Doc {
	start, ok := len(dst), true
	for _, s := range l.segs {
		n := len(dst)
		if dst, ok = s.postings(dst, k); !ok || n > start && len(dst) > n && dst[n] <= dst[n-1] {
			ok = false
			break
		}
	}
	if ok {
		dst = l.live.postings(dst, k)
	}
	if !ok || len(dst) > start && dst[len(dst)-1] >= docs {
		dst = dst[:start]
		for d := range docs {
			dst = append(dst, d)
		}
	}
	return dst
}

func (l *lists) freeze() {
	if s := l.live.freeze(); s != nil {
		l.segs = append(l.segs, s)
	}
	l.live = builder{}
}

func (l *lists) bytes() int {
	n := l.live.bytes()
	for _, s := range l.segs {
		n += s.bytes()
	}
	return n
}

// New returns an empty index.
func New() *Index { return &Index{words: newVocabulary()} }

// Add adds a document's contents and returns its number. Contents shorter
// than three bytes hold no trigram, and are never candidates of a query
// that asks for one.
func (ix *Index) Add(content []byte) Doc {
	d := ix.docs
	ix.docs++
	ix.text += int64(len(content))
	if len(content) < 3 {
		return d
	}
	for _, t := range ix.trigrams(content) {
		ix.tris.live.add(t, d)
	}
	for _, w := range ix.words.of(content) {
		ix.words.lists.live.add(w, d)
	}
	return d
}

// Remove removes document d: it is never a candidate again.
func (ix *Index) Remove(d Doc) {
	if d >= ix.docs {
		return
	}
	if need := int(d/64) + 1; len(ix.dead) < need {
		ix.dead = append(ix.dead, make([]uint64, need-len(ix.dead))...)
	}
	if ix.dead[d/64]&(1<<(d%64)) == 0 {
		ix.dead[d/64] |= 1 << (d % 64)
		ix.nDead++
	}
}

// Removed reports whether d was removed.
func (ix *Index) Removed(d Doc) bool {
	return int(d/64) < len(ix.dead) && ix.dead[d/64]&(1<<(d%64)) != 0
}

// RemovedDocs is how many documents were removed.
func (ix *Index) RemovedDocs() int { return ix.nDead }

// Docs is how many documents were added, removed ones included.
func (ix *Index) Docs() int { return int(ix.docs) }

// Freeze moves what was added since the last Freeze into a compact
// segment: smaller, and no longer growing in place.
func (ix *Index) Freeze() {
	ix.tris.freeze()
	ix.words.freeze()
}

// Bytes is about how much memory the index holds.
func (ix *Index) Bytes() int {
	return len(ix.dead)*8 + len(ix.seen)*8 + ix.tris.bytes() + ix.words.bytes()
}

// postings appends the documents trigram t occurs in, in order, to dst.
func (ix *Index) postings(dst []Doc, t uint32) []Doc { return ix.tris.postings(dst, t, ix.docs) }

// A builder keeps the posting lists of the documents added since the
// last Freeze, each growing in place: a key's (a trigram's) list is found
// through a page of 256 slots per two-byte prefix, pages made when first
// needed.
// Pairs of a trigram and a document wait in pend until a batch is full,
// and go into their lists sorted by trigram: one visit to a list per
// batch, not one per document (the lists are scattered over memory; the
// visits were most of a build).
type builder struct {
	pages [1 << 16]*[256]int32 // slot of a trigram's list, plus one; 0: none
	lists []list
	pageN int      // pages made
	data  int      // bytes in the lists
	pend  []uint64 // trigram<<32 | document, in the order added
	tmp   []uint64
}

// batch is how many pairs wait before they go into the lists.
const batch = 1 << 20

// list is one trigram's documents, as varint gaps from the one before.
type list struct {
	last Doc
	n    int32
	b    []byte
}

func (b *builder) add(t uint32, d Doc) {
	b.pend = append(b.pend, uint64(t)<<32|uint64(d))
	if len(b.pend) == batch {
		b.flush()
	}
}

// flush sorts the waiting pairs by trigram, stably (each trigram's
// documents stay in the order added), and appends them to their lists.
func (b *builder) flush() {
	if len(b.pend) == 0 {
		return
	}
	if cap(b.tmp) < len(b.pend) {
		b.tmp = make([]uint64, len(b.pend))
	}
	src, dst := b.pend, b.tmp[:len(b.pend)]
	for shift := 32; shift < 56; shift += 12 { // two passes of 12 bits
		var count [1<<12 + 1]int
		for _, v := range src {
			count[(v>>shift)&(1<<12-1)+1]++
		}
		for i := 1; i < len(count); i++ {
			count[i] += count[i-1]
		}
		for _, v := range src {
			k := (v >> shift) & (1<<12 - 1)
			dst[count[k]] = v
			count[k]++
		}
		src, dst = dst, src
	}
	for i := 0; i < len(src); {
		t := uint32(src[i] >> 32)
		l := b.list(t)
		n := len(l.b)
		for ; i < len(src) && uint32(src[i]>>32) == t; i++ {
			d := Doc(src[i])
			gap := d - l.last
			if l.n == 0 {
				gap = d
			}
			l.b = binary.AppendUvarint(l.b, uint64(gap))
			l.last, l.n = d, l.n+1
		}
		b.data += len(l.b) - n
	}
	b.pend = b.pend[:0]
}

// list returns trigram t's list, made when it has none.
func (b *builder) list(t uint32) *list {
	p := b.pages[t>>8]
	if p == nil {
		p = new([256]int32)
		b.pages[t>>8] = p
		b.pageN++
	}
	slot := p[t&255]
	if slot == 0 {
		b.lists = append(b.lists, list{})
		slot = int32(len(b.lists))
		p[t&255] = slot
	}
	return &b.lists[slot-1]
}

func (b *builder) postings(dst []Doc, t uint32) []Doc {
	b.flush()
	p := b.pages[t>>8]
	if p == nil || p[t&255] == 0 {
		return dst
	}
	dst, _ = decode(dst, b.lists[p[t&255]-1].b)
	return dst
}

// bytes is about the builder's memory: its pages, its lists (their bytes
// and headers; slices grown by appending hold up to twice their bytes,
// counted at one and a half), and the pairs waiting.
func (b *builder) bytes() int {
	return cap(b.pend)*8 + cap(b.tmp)*8 + b.pageN*256*4 + len(b.lists)*int(unsafe.Sizeof(list{})) + b.data*3/2
}

// freeze returns the builder's lists as a segment, nil when it has none.
func (b *builder) freeze() *segment {
	b.flush()
	if len(b.lists) == 0 {
		return nil
	}
	s := &segment{tris: make([]uint32, 0, len(b.lists)), offs: make([]uint32, 0, len(b.lists)+1), data: make([]byte, 0, b.data)}
	for hi, p := range b.pages {
		if p == nil {
			continue
		}
		for lo, slot := range p {
			if slot == 0 {
				continue
			}
			s.tris = append(s.tris, uint32(hi)<<8|uint32(lo))
			s.offs = append(s.offs, uint32(len(s.data)))
			s.data = append(s.data, b.lists[slot-1].b...)
		}
	}
	s.offs = append(s.offs, uint32(len(s.data)))
	return s
}

// A segment is frozen posting lists: the trigrams in order, where each
// one's list starts in data, and the lists end to end.
type segment struct {
	tris []uint32
	offs []uint32
	data []byte
}

// postings appends trigram t's documents to dst, and reports whether its
// list is documents in order (decode).
func (s *segment) postings(dst []Doc, t uint32) ([]Doc, bool) {
	i, ok := slices.BinarySearch(s.tris, t)
	if !ok {
		return dst, true
	}
	return decode(dst, s.data[s.offs[i]:s.offs[i+1]])
}

func (s *segment) bytes() int { return len(s.tris)*8 + len(s.data) }

// decode appends the documents of a list of varint gaps to dst, and
// reports whether the list is what a builder writes: not empty, each gap
// a varint, the documents in order below 1<<32. What it appended of a list
// that is not is to be dropped.
func decode(dst []Doc, b []byte) ([]Doc, bool) {
	if len(b) == 0 {
		return dst, false
	}
	var d uint64
	for first := true; len(b) > 0; first = false {
		gap, n := binary.Uvarint(b)
		if n <= 0 || !first && gap == 0 {
			return dst, false
		}
		b = b[n:]
		if d += gap; d > 1<<32-1 {
			return dst, false
		}
		dst = append(dst, Doc(d))
	}
	return dst, true
}
