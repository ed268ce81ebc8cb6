package index

import (
	"bytes"
	"slices"
)

// Identifiers narrow what trigrams cannot: a literal made of common words
// (`flash_probe_gpio_init` in a tree whose identifiers pair 42 words) has
// every trigram in half of such a tree's files, and every 4-gram in a
// sixth, while the identifiers that hold it are in none (BENCHMARKS.md,
// "what to key the index by"). So the index also keeps, for each
// identifier, a maximal run of [A-Za-z0-9_] bytes, the documents it is one
// of; a query asks, for each run of identifier bytes in a literal, for
// the documents holding an identifier the run can be part of. A document
// holding the literal holds such an identifier whole: the run's bytes are
// identifier bytes, so they lie in one identifier of the document, which
// starts with them when the literal has a byte before the run that no
// identifier holds, and ends with them when it has one after.

const (
	// minWord is the shortest identifier kept: a query asks only for runs
	// of three bytes or more (a shorter one is in too many identifiers to
	// narrow anything), which no shorter identifier holds.
	minWord = 3
	// maxWord is the longest identifier kept by name: a document holding
	// a longer one (a hash, a blob of hex) is on the list of longWord,
	// which every run's query takes too.
	maxWord = 64
	// longWord is the key of the documents holding an identifier longer
	// than maxWord.
	longWord = 0
	// maxNames bounds the identifiers kept (a key is below 1<<24); past
	// it, the vocabulary stops, and queries ask nothing of identifiers.
	maxNames = 1<<24 - 1
	// maxRunNames is how many identifiers a run's query may take: a run
	// in more of them (`get`, `err`) narrows little, and its query asks
	// nothing of identifiers.
	maxRunNames = 1 << 12
)

// wordByte says which bytes an identifier is made of.
var wordByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	return t
}()

// A vocabulary is the identifiers of the documents, and each one's
// documents. Its zero value keeps none.
type vocabulary struct {
	// names are the identifiers end to end, each followed by a '\n'
	// (the first, longWord's, is ""); key k's starts at offs[k], and
	// offs ends with len(names).
	names []byte
	offs  []uint32
	// table finds a name's key: key+1 at its hash's slot or the first
	// free one after it; 0 is free. At most half full.
	table []uint32
	lists lists
	freq  [256]int64 // how many times the names hold each byte
	// off: past maxNames, a document's identifiers were not all kept.
	off   bool
	seen  []uint64 // bit k: identifier k is in the document being added
	added []uint32
}

func newVocabulary() vocabulary {
	return vocabulary{names: []byte{'\n'}, offs: []uint32{0, 1}, table: make([]uint32, 1<<10)}
}

// keeps says whether the vocabulary keeps identifiers.
func (v *vocabulary) keeps() bool { return v.table != nil && !v.off }

// name is key k's identifier.
func (v *vocabulary) name(k uint32) []byte { return v.names[v.offs[k] : v.offs[k+1]-1] }

// of returns the keys of content's distinct identifiers, in a slice
// reused by the next call; nil when the vocabulary keeps none.
func (v *vocabulary) of(content []byte) []uint32 {
	if !v.keeps() {
		return nil
	}
	added := v.added[:0]
	for i := 0; i < len(content); {
		if !wordByte[content[i]] {
			i++
			continue
		}
		j := i + 1
		h := uint32(2166136261) ^ uint32(content[i])
		for j < len(content) && wordByte[content[j]] {
			h = (h * 16777619) ^ uint32(content[j])
			j++
		}
		if j-i >= minWord {
			k := uint32(longWord)
			if j-i <= maxWord {
				if k = v.key(content[i:j], h*16777619); v.off {
					return nil
				}
			}
			if int(k/64) >= len(v.seen) {
				v.seen = append(v.seen, make([]uint64, int(k/64)+1-len(v.seen)+len(v.seen)/2)...)
			}
			if w, bit := k/64, uint64(1)<<(k%64); v.seen[w]&bit == 0 {
				v.seen[w] |= bit
				added = append(added, k)
			}
		}
		i = j
	}
	for _, k := range added {
		v.seen[k/64] = 0
	}
	v.added = added
	return added
}

// hashName is the hash of of's scan (FNV-1a, multiplied once more).
func hashName(w []byte) uint32 {
	h := uint32(2166136261) ^ uint32(w[0])
	for _, c := range w[1:] {
		h = (h * 16777619) ^ uint32(c)
	}
	return h * 16777619
}

// key returns the key of identifier w (h: its hashName), which it is
// given when new.
func (v *vocabulary) key(w []byte, h uint32) uint32 {
	mask := uint32(len(v.table) - 1)
	i := h & mask
	for ; v.table[i] != 0; i = (i + 1) & mask {
		if k := v.table[i] - 1; string(v.name(k)) == string(w) {
			return k
		}
	}
	k := uint32(len(v.offs) - 1)
	if k >= maxNames {
		v.off = true
		return 0
	}
	v.names = append(append(v.names, w...), '\n')
	for _, c := range w {
		v.freq[c]++
	}
	v.offs = append(v.offs, uint32(len(v.names)))
	v.table[i] = k + 1
	if int(k+1)*2 > len(v.table) {
		v.grow()
	}
	return k
}

// grow doubles the table.
func (v *vocabulary) grow() {
	v.table = make([]uint32, 2*len(v.table))
	mask := uint32(len(v.table) - 1)
	for k := uint32(1); int(k) < len(v.offs)-1; k++ {
		i := hashName(v.name(k)) & mask
		for v.table[i] != 0 {
			i = (i + 1) & mask
		}
		v.table[i] = k + 1
	}
}

func (v *vocabulary) freeze() { v.lists.freeze() }

// bytes is about the vocabulary's memory.
func (v *vocabulary) bytes() int {
	return v.lists.bytes() + cap(v.names) + 4*cap(v.offs) + 4*len(v.table) + 8*len(v.seen)
}

// wordDocs returns the documents that can hold q's run (opWord): those
// holding an identifier the run can be part of, or one longer than the
// vocabulary keeps; all when it cannot tell. It reads every name.
func (ix *Index) wordDocs(q *Query) (docs []Doc, all bool) {
	v := &ix.words
	if !v.keeps() || len(q.run) < minWord {
		return nil, true
	}
	docs = v.lists.postings(nil, longWord, ix.docs)
	if len(q.run) > maxWord {
		return docs, false
	}
	n := 0
	for k := range q.names(v) {
		if n++; n > maxRunNames {
			return nil, true
		}
		docs = v.lists.postings(docs, k, ix.docs)
	}
	slices.Sort(docs)
	return slices.Compact(docs), false
}

// names yields the keys of the identifiers that can hold q's run (a key
// may come twice). It looks for the run's rarest position among the
// names' bytes, for each of its bytes in turn with IndexByte, and
// compares the rest where it is found.
func (q *Query) names(v *vocabulary) func(yield func(uint32) bool) {
	return func(yield func(uint32) bool) {
		p, least := 0, int64(-1)
		for i, set := range q.run {
			n := int64(0)
			for _, c := range set {
				n += v.freq[c]
			}
			if least < 0 || n < least {
				p, least = i, n
			}
		}
		names := v.names
		for _, c := range q.run[p] {
			for h := p; h < len(names); h++ {
				i := bytes.IndexByte(names[h:], c)
				if i < 0 {
					break
				}
				h += i
				start := h - p
				if start+len(q.run) > len(names) || !q.at(names, start) {
					continue
				}
				// The key whose name holds the match: the last offset at
				// or before it. The search goes on after that name.
				k, ok := slices.BinarySearch(v.offs, uint32(start))
				if !ok {
					k--
				}
				h = int(v.offs[k+1]) + p - 1
				if q.holds(v.name(uint32(k))) && !yield(uint32(k)) {
					return
				}
			}
		}
	}
}

// at says whether q's run is in b at o.
func (q *Query) at(b []byte, o int) bool {
	for i, set := range q.run {
		if c := b[o+i]; len(set) == 1 && set[0] != c || len(set) > 1 && bytes.IndexByte(set, c) < 0 {
			return false
		}
	}
	return true
}

// holds says whether identifier w can hold q's run: it starts with it
// (q.left), ends with it (q.right), is it (both), or has it anywhere.
func (q *Query) holds(w []byte) bool {
	n := len(q.run)
	switch {
	case len(w) < n:
		return false
	case q.left && q.right:
		return len(w) == n && q.at(w, 0)
	case q.left:
		return q.at(w, 0)
	case q.right:
		return q.at(w, len(w)-n)
	}
	for o := 0; o+n <= len(w); o++ {
		if q.at(w, o) {
			return true
		}
	}
	return false
}

// A position of a literal is made of identifier bytes, of others, or of
// both.
const (
	posMixed = iota
	posWord
	posOther
)

func posKind(set []byte) int {
	word, other := false, false
	for _, c := range set {
		if wordByte[c] {
			word = true
		} else {
			other = true
		}
	}
	switch {
	case word && !other:
		return posWord
	case other && !word:
		return posOther
	}
	return posMixed
}

// runs appends to and the queries of l's runs of identifier bytes, of
// minWord positions or more.
func runs(and []*Query, l [][]byte) []*Query {
	for i := 0; i < len(l); {
		if posKind(l[i]) != posWord {
			i++
			continue
		}
		j := i + 1
		for j < len(l) && posKind(l[j]) == posWord {
			j++
		}
		if j-i >= minWord {
			and = append(and, &Query{op: opWord, run: l[i:j],
				left: i > 0 && posKind(l[i-1]) == posOther, right: j < len(l) && posKind(l[j]) == posOther})
		}
		i = j
	}
	return and
}
