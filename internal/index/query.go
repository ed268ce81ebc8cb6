package index

import (
	"math/bits"
	"slices"
)

// A Query says which documents can hold a match: all of them, or those
// that hold some trigrams and identifiers. Its zero value is All.
type Query struct {
	op  op
	tri []uint32 // opTri: any one of these
	sub []*Query // opAnd, opOr
	// opWord: an identifier that holds run (a byte set per position), at
	// its start (left), at its end (right), or anywhere (words.go).
	run         [][]byte
	left, right bool
}

type op uint8

const (
	opAll op = iota
	opTri
	opAnd
	opOr
	opWord
)

// All is the query every document passes.
func All() *Query { return &Query{} }

// IsAll reports whether every document passes q.
func (q *Query) IsAll() bool { return q == nil || q.op == opAll }

// maxVariants bounds the trigrams one position of a literal stands for:
// a position whose three byte sets make more is left out of the query
// (which then asks for less, never for what a match may lack). A class
// takes a position (`_[0-9][0-9]` is 100 trigrams, `[A-Z]_[0-9]` 260):
// their lists are united through a bitmap of the documents (unionAll).
const maxVariants = 512

// Literals returns the query of a set of literals, each a sequence of byte
// sets (the bytes each position may have): a document passes when, for
// one of the literals, each run of three positions occurs in it as some
// choice of their bytes, and each run of three or more identifier bytes
// is in one of its identifiers (words.go). Every match of a pattern
// containing one of the literals, a document holding a match passes. No literal (nil), or one
// with no run of three positions to ask for, makes All.
func Literals(lits [][][]byte) *Query {
	if len(lits) == 0 {
		return All()
	}
	or := &Query{op: opOr}
	for _, l := range lits {
		and := &Query{op: opAnd}
		for i := 0; i+3 <= len(l); i++ {
			a, b, c := l[i], l[i+1], l[i+2]
			if len(a)*len(b)*len(c) > maxVariants || len(a)*len(b)*len(c) == 0 {
				continue
			}
			q := &Query{op: opTri}
			for _, x := range a {
				for _, y := range b {
					for _, z := range c {
						q.tri = append(q.tri, uint32(x)<<16|uint32(y)<<8|uint32(z))
					}
				}
			}
			slices.Sort(q.tri)
			q.tri = slices.Compact(q.tri)
			and.sub = append(and.sub, q)
		}
		if len(and.sub) == 0 {
			return All()
		}
		and.sub = runs(and.sub, l)
		or.sub = append(or.sub, and)
	}
	return or
}

// worthWords says whether a query whose trigrams leave n documents asks
// their identifiers too: reading the names costs about what reading as
// many bytes of files does, so not when the n documents are likely
// smaller than the names.
func (ix *Index) worthWords(n int) bool {
	return alwaysWords || int64(n)*(ix.text/max(int64(ix.docs), 1)) > int64(len(ix.words.names))
}

// alwaysWords asks identifiers whatever the trigrams leave (for tests).
var alwaysWords bool

// Candidates returns the documents that pass q and were not removed, in
// order; all is true, and docs nil, when q passes every document.
func (ix *Index) Candidates(q *Query) (docs []Doc, all bool) {
	if q.IsAll() {
		return nil, true
	}
	docs = ix.eval(q)
	if ix.nDead > 0 {
		docs = slices.DeleteFunc(docs, ix.Removed)
	}
	return docs, false
}

// eval returns the documents that pass q, removed ones included.
func (ix *Index) eval(q *Query) []Doc {
	switch q.op {
	case opTri:
		if len(q.tri) == 1 {
			return ix.postings(nil, q.tri[0])
		}
		return ix.unionAll(q.tri)
	case opAnd:
		// The smallest first: each intersection can only shrink it. The
		// identifiers' queries (opWord, made only here) read every name;
		// they are asked last, and only when the rest leaves more to read
		// than the names (worthWords).
		var lists [][]Doc
		var words []*Query
		for _, s := range q.sub {
			if s.op == opWord {
				words = append(words, s)
				continue
			}
			l := ix.eval(s)
			if len(l) == 0 {
				return nil
			}
			lists = append(lists, l)
		}
		slices.SortFunc(lists, func(a, b []Doc) int { return len(a) - len(b) })
		docs := lists[0]
		for _, l := range lists[1:] {
			if docs = intersect(docs, l); len(docs) == 0 {
				return nil
			}
		}
		for _, w := range words {
			if !ix.worthWords(len(docs)) {
				break
			}
			if l, all := ix.wordDocs(w); !all {
				docs = intersect(docs, l)
			}
		}
		return docs
	case opOr:
		var docs []Doc
		for _, s := range q.sub {
			docs = union(docs, ix.eval(s))
		}
		return docs
	}
	panic("index: eval of All")
}

// unionAll returns the documents of any of the trigrams, in order: each
// list is marked in a bitmap of the documents, read once at the end, so
// that many lists cost their lengths, not their number times the result.
func (ix *Index) unionAll(tris []uint32) []Doc {
	set := make([]uint64, (ix.docs+63)/64)
	var list []Doc
	n := 0
	for _, t := range tris {
		list = ix.postings(list[:0], t)
		for _, d := range list {
			if w, b := d/64, uint64(1)<<(d%64); set[w]&b == 0 {
				set[w] |= b
				n++
			}
		}
	}
	docs := make([]Doc, 0, n)
	for w, word := range set {
		for word != 0 {
			docs = append(docs, Doc(w*64+bits.TrailingZeros64(word)))
			word &= word - 1
		}
	}
	return docs
}

// union returns the sorted union of two sorted lists.
func union(a, b []Doc) []Doc {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	out := make([]Doc, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// intersect returns the documents in both sorted lists, in a's memory.
func intersect(a, b []Doc) []Doc {
	out := a[:0]
	j := 0
	for _, d := range a {
		for j < len(b) && b[j] < d {
			j++
		}
		if j == len(b) {
			break
		}
		if b[j] == d {
			out = append(out, d)
		}
	}
	return out
}
