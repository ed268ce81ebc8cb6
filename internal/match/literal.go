package match

import (
	"bytes"
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/rootbound/rootbound/internal/meter"
)

// chunk of text a scan covers between two charges to the meter.
const scanChunk = 64 << 10

// A prefilter finds the places worth running the DFA on: where one of a
// set of literals occurs, every match containing one of them. Each literal
// is a sequence of byte sets, so a case-insensitive one is one literal
// ("error" under (?i) is [eE][rR][rR][oO][rR], and ΣΊΣ is [ΣσςΣ...] as the
// bytes of its case variants, position by position), and an alternation
// (TODO|FIXME) is several. Each literal is scanned for by its rarest
// position (byteFreq), with the assembly IndexByte of Go's wasm port (4.3
// GB/s under wazero, against 50–100 MB/s for the DFA), once per byte of
// that position's set; each scan keeps a cursor, so every scan passes over
// the text once however the candidates interleave. Every candidate is
// checked in full before the DFA sees its line.

// prefilter limits: more literals, or more bytes in a position's set, and
// the scans cost more than they save; shorter literals match too often.
const (
	minLiteral    = 2 // bytes
	maxLiterals   = 16
	maxSetPerByte = 4
	// maxScanFreq bounds how often, in parts per million of source code
	// (byteFreq), the bytes of several scans occur: past it, the
	// candidates cost more than the DFA does reading every byte.
	maxScanFreq = 15_000
)

// literal is a sequence of byte sets.
type literal [][]byte

// plain returns the bytes of l when every set has one byte, else nil.
func (l literal) plain() []byte {
	b := make([]byte, len(l))
	for i, set := range l {
		if len(set) != 1 {
			return nil
		}
		b[i] = set[0]
	}
	return b
}

// prefilter is a set of literals, and the scans that find them.
type prefilter struct {
	lits  []literal
	plain [][]byte // the bytes of each literal that is exact, else nil
	scans []scan
	skip  *skipTable // one exact literal found by a skip scan (skip.go), or nil
	// The cursors are for one buffer at a time, searched front to back
	// (as NextLine's callers do): a search from 0, from further back than
	// the last, or in another buffer starts them again. (A reader reuses
	// its buffer for the next file: the first byte and the length do not
	// tell two files apart, a search from 0 does.)
	buf  *byte
	size int
	last int
}

// scan looks for one byte of one literal's rarest position.
type scan struct {
	lit, pos int  // the literal, and where in it the byte is
	c        byte // the byte
	next     int  // where c occurs next at or after the last search, -1 for nowhere
}

// newPrefilter returns a prefilter for lits, or nil when there is none
// worth having.
func newPrefilter(lits []literal) *prefilter {
	if len(lits) == 0 || len(lits) > maxLiterals {
		return nil
	}
	p := &prefilter{lits: lits}
	for i, l := range lits {
		if len(l) < minLiteral {
			return nil
		}
		best, cost := -1, uint64(0)
		for pos, set := range l {
			if len(set) > maxSetPerByte {
				continue
			}
			var c uint64
			for _, b := range set {
				c += uint64(byteFreq[b]) + 1
			}
			if best < 0 || c < cost {
				best, cost = pos, c
			}
		}
		if best < 0 {
			return nil
		}
		for _, b := range l[best] {
			p.scans = append(p.scans, scan{lit: i, pos: best, c: b})
		}
		p.plain = append(p.plain, l.plain())
	}
	if len(p.scans) > 1 {
		var freq uint32
		for _, s := range p.scans {
			freq += byteFreq[s.c]
		}
		if freq > maxScanFreq {
			return nil
		}
	}
	if skipScans && len(p.scans) == 1 && p.plain[0] != nil {
		if t := newSkipTable(p.plain[0]); skipPays(t, uint64(byteFreq[p.scans[0].c])) {
			p.skip = t
		}
	}
	return p
}

// find returns the first position at or after from where a literal
// occurs, or -1.
func (p *prefilter) find(buf []byte, from int, m *meter.Meter) (int, error) {
	if p.skip != nil {
		return p.findSkip(buf, from, m)
	}
	if len(p.scans) == 1 {
		return p.find1(buf, from, m)
	}
	if first := unsafe.SliceData(buf); from == 0 || from < p.last || first != p.buf || len(buf) != p.size {
		p.buf, p.size = first, len(buf)
		for i := range p.scans {
			p.scans[i].next = -2 // not searched yet
		}
	}
	p.last = from
	for {
		best := -1
		for i := range p.scans {
			s := &p.scans[i]
			// A scan's candidate start is where its byte is, less its
			// position in the literal; one before from is looked for again.
			if s.next == -2 || (s.next >= 0 && s.next-s.pos < from) {
				if err := p.advance(s, buf, from+s.pos, m); err != nil {
					return -1, err
				}
			}
			if s.next >= 0 && (best < 0 || s.next-s.pos < p.scans[best].next-p.scans[best].pos) {
				best = i
			}
		}
		if best < 0 {
			return -1, nil
		}
		s := &p.scans[best]
		at := s.next - s.pos
		if plain := p.plain[s.lit]; plain != nil {
			if at+len(plain) <= len(buf) && bytes.Equal(buf[at:at+len(plain)], plain) {
				return at, nil
			}
		} else if p.lits[s.lit].at(buf, at) {
			return at, nil
		}
		// Not this literal here: this scan looks further; the others keep
		// their candidates (another literal may start here).
		if err := p.advance(s, buf, s.next+1, m); err != nil {
			return -1, err
		}
	}
}

// find1 is find for one scan (one literal, one byte to look for): a tight
// loop over a chunk at a time, with no cursor to keep (nothing interleaves).
func (p *prefilter) find1(buf []byte, from int, m *meter.Meter) (int, error) {
	s := p.scans[0]
	plain, lit := p.plain[0], p.lits[0]
	for from < len(buf) {
		end := min(len(buf), from+scanChunk) // candidate starts in [from, end)
		if err := m.Spend(end - from); err != nil {
			return -1, err
		}
		window := buf[min(len(buf), from+s.pos):min(len(buf), end+s.pos)]
		for off := 0; ; {
			j := bytes.IndexByte(window[off:], s.c)
			if j < 0 {
				break
			}
			at := from + off + j
			if plain != nil {
				if at+len(plain) <= len(buf) && bytes.Equal(buf[at:at+len(plain)], plain) {
					return at, nil
				}
			} else if lit.at(buf, at) {
				return at, nil
			}
			off += j + 1
		}
		from = end
	}
	return -1, nil
}

// advance moves s to the first place at or after start where its byte is,
// charging what it scanned.
func (p *prefilter) advance(s *scan, buf []byte, start int, m *meter.Meter) error {
	for start < len(buf) {
		end := min(len(buf), start+scanChunk)
		if j := bytes.IndexByte(buf[start:end], s.c); j >= 0 {
			s.next = start + j
			return m.Spend(j + 1)
		}
		if err := m.Spend(end - start); err != nil {
			return err
		}
		start = end
	}
	s.next = -1
	return nil
}

// at reports whether l occurs in buf at i.
func (l literal) at(buf []byte, i int) bool {
	if i < 0 || i+len(l) > len(buf) {
		return false
	}
	for k, set := range l {
		if bytes.IndexByte(set, buf[i+k]) < 0 {
			return false
		}
	}
	return true
}

// exact returns the literal of the bytes of s.
func exact(s []byte) literal {
	l := make(literal, len(s))
	for i, b := range s {
		l[i] = []byte{b}
	}
	return l
}

// literals returns literals such that every match of re contains one of
// them, or nil when it sees none worth a prefilter.
func literals(re *syntax.Regexp) []literal {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			if l := foldLiteral(re.Rune); l != nil {
				return []literal{l}
			}
			return nil
		}
		return []literal{exact([]byte(string(re.Rune)))}
	case syntax.OpCapture, syntax.OpPlus, syntax.OpRepeat:
		if sub := within(re); sub != nil {
			return literals(sub)
		}
	case syntax.OpConcat:
		// Any child's literals will do: take the best.
		var best []literal
		for _, sub := range re.Sub {
			if lits := literals(sub); better(lits, best) {
				best = lits
			}
		}
		return best
	case syntax.OpAlternate:
		return everyBranch(re.Sub, literals)
	}
	return nil
}

// within returns the expression every match of re holds a match of: a
// group's, or a repetition's at least once; nil for any other.
func within(re *syntax.Regexp) *syntax.Regexp {
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return re.Sub[0]
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return re.Sub[0]
		}
	}
	return nil
}

// everyBranch returns the literals of an alternation: every branch must
// bring its own (of), and all of them make at most maxLiterals; nil
// otherwise.
func everyBranch(subs []*syntax.Regexp, of func(*syntax.Regexp) []literal) []literal {
	var all []literal
	for _, sub := range subs {
		lits := of(sub)
		if lits == nil {
			return nil
		}
		all = append(all, lits...)
	}
	if len(all) > maxLiterals {
		return nil
	}
	return all
}

// better reports whether set a makes a better prefilter than b: its
// shortest literal is longer, or as long in fewer literals.
func better(a, b []literal) bool {
	if a == nil || len(a) > maxLiterals {
		return false
	}
	if b == nil {
		return true
	}
	if sa, sb := shortest(a), shortest(b); sa != sb {
		return sa > sb
	}
	return len(a) < len(b)
}

// foldLiteral returns the case-insensitive literal of the longest run of
// runes whose case variants all have the same UTF-8 length (k, K and the
// Kelvin sign do not: a run ends there), as byte sets position by position;
// a superset of the variants, which is all a prefilter needs.
func foldLiteral(runes []rune) literal {
	var best, cur literal
	for _, r := range runes {
		variants := []rune{r}
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			variants = append(variants, f)
		}
		size := utf8.RuneLen(r)
		same := true
		for _, v := range variants {
			same = same && utf8.RuneLen(v) == size
		}
		if !same {
			cur = nil
			continue
		}
		sets := make(literal, size)
		for _, v := range variants {
			var b [utf8.UTFMax]byte
			utf8.EncodeRune(b[:], v)
			for k := 0; k < size; k++ {
				if bytes.IndexByte(sets[k], b[k]) < 0 {
					sets[k] = append(sets[k], b[k])
				}
			}
		}
		cur = append(cur, sets...)
		if len(cur) > len(best) {
			best = append(literal(nil), cur...)
		}
	}
	return best
}

// shortest is the length of the shortest of lits.
func shortest(lits []literal) int {
	n := len(lits[0])
	for _, l := range lits[1:] {
		n = min(n, len(l))
	}
	return n
}
