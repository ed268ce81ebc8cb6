package match

import (
	"encoding/binary"
	"regexp/syntax"
	"slices"
	"unicode/utf8"

	"github.com/rootbound/rootbound/internal/meter"
)

// dfa is a lazy DFA over a regexp/syntax program: each state is a set of
// program instructions, built the first time the search reaches it and
// cached, so scanning costs one table look-up per byte once the states a
// text needs exist. It answers one question, the one line search asks: where
// does the earliest match end? It runs in time linear in the text whatever
// the pattern: a state is computed in time linear in the program, and the
// cache is bounded (when full it is cleared and refilled, as RE2 does), so
// the worst case is a state computed per byte, which the meter charges.
//
// It steps over runes, not bytes, so it needs no UTF-8 automaton: ASCII
// bytes index a table per state, other runes a small map. Invalid UTF-8
// decodes to U+FFFD one byte at a time, as in Go's regexp. ASCII bytes that
// no instruction tells apart share a class and a column of the table, as in
// RE2: `[a-z]{1000}[0-9]` has five classes, not 128 bytes, so a state is a
// few dozen bytes and a cache of thousands of them stays small (and cheap
// for the module's garbage collector, which would otherwise scan 1 KiB of
// pointers per state).
//
// Empty-width assertions (^ $ \A \z \b \B) depend on the characters on both
// sides of a position, so a state records what it knows of the previous
// character (a line start, the text start, a word character) and resolves
// assertions when it sees the next one; a match is therefore noticed one
// character late, and reported at the position where it ended.
type dfa struct {
	prog     *syntax.Prog
	anchored bool // matches start only at the search's start
	isWord   func(rune) bool
	// strict: a byte that is not UTF-8 matches nothing (a regular
	// expression, as ripgrep's); otherwise it reads as U+FFFD, which
	// * and ? take (a glob, as globset's: a name is bytes).
	strict bool

	classOf  [utf8.RuneSelf]uint8 // ASCII byte -> its column in dstate.next
	nclasses int

	cache     map[string]*dstate
	cacheCost int
	starts    [4]*dstate // by startKind

	// scratch for state computation
	q0, q1 sparseSet
	stack  []uint32
	key    []byte
}

// dstate is a DFA state: the instructions the search is at (after every
// empty transition that needs no assertion), and what is known about the
// previous character.
type dstate struct {
	insts []uint32
	flags uint8
	next  []*dstate // by byte class, for ASCII
	other map[rune]*dstate
	eot   uint8 // 0: not computed; eotNoMatch; eotMatch
}

const (
	flagTextStart uint8 = 1 << iota // at the start of the text
	flagLineStart                   // after a '\n' or at the start
	flagLastWord                    // after a word character
	flagMatch                       // a match ended before the character that led here
)

const (
	eotNoMatch = 1
	eotMatch   = 2
)

// eot is the character after the last one.
const eot = -1

// invalidByte is what a byte that does not start valid UTF-8 decodes to:
// no character at all, so that, as in ripgrep, it never matches ".", a
// class or its complement (Go's regexp reads it as U+FFFD, which would).
const invalidByte = utf8.MaxRune + 1

// decodeRune decodes the first character of b, or one invalid byte as
// invalidByte (the Pike VM runs regular expressions only).
func decodeRune(b []byte) (rune, int) {
	r, size := utf8.DecodeRune(b)
	if r == utf8.RuneError && size == 1 {
		return invalidByte, 1
	}
	return r, size
}

// matchRune is inst.MatchRune, which no invalid byte matches.
func matchRune(inst *syntax.Inst, r rune) bool {
	return r != invalidByte && inst.MatchRune(r)
}

// maxCacheCost bounds the memory of a DFA's state cache, in bytes. A state
// costs its transition table (8 bytes a class) and its instruction set (4
// bytes an instruction): 4 MiB holds tens of thousands of states for most
// patterns, where a source-code search needs tens.
const maxCacheCost = 4 << 20

// Start kinds: what precedes the position a search starts at.
const (
	startText = iota
	startLine
	startWord
	startNonWord
)

func newDFA(prog *syntax.Prog, anchored bool, isWord func(rune) bool) *dfa {
	d := &dfa{prog: prog, anchored: anchored, isWord: isWord, cache: map[string]*dstate{}}
	d.q0.init(len(prog.Inst))
	d.q1.init(len(prog.Inst))
	d.byteClasses()
	return d
}

// byteClasses partitions the ASCII bytes into classes no instruction, word
// test or line end tells apart. Each distinct rune instruction refines the
// partition once (a program of `[a-z]{1000}` has one distinct instruction).
func (d *dfa) byteClasses() {
	refine := func(test func(c rune) bool) {
		var remap [2 * utf8.RuneSelf]int16
		for i := range remap {
			remap[i] = -1
		}
		n := 0
		for c := range utf8.RuneSelf {
			k := 2 * int(d.classOf[c])
			if test(rune(c)) {
				k++
			}
			if remap[k] < 0 {
				remap[k] = int16(n)
				n++
			}
			d.classOf[c] = uint8(remap[k])
		}
		d.nclasses = n
	}
	refine(func(c rune) bool { return c == '\n' })
	refine(d.isWord)
	// Repeated classes share their rune slice: tell instructions apart by
	// it, not by its (possibly long) contents; short ones (a literal
	// character, a range or two) by their contents, since each literal of
	// a pattern has a slice of its own (a glob of `*a` 1,700 times spent
	// 3.6 ms here refining for each `a`).
	type instKey struct {
		op    syntax.InstOp
		arg   uint32
		runes *rune
		short [4]rune
		n     int
	}
	seen := map[instKey]bool{}
	for i := range d.prog.Inst {
		inst := &d.prog.Inst[i]
		switch inst.Op {
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
		default:
			continue
		}
		key := instKey{op: inst.Op, arg: inst.Arg, n: len(inst.Rune)}
		switch {
		case len(inst.Rune) <= len(key.short):
			copy(key.short[:], inst.Rune)
		default:
			key.runes = &inst.Rune[0]
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		refine(inst.MatchRune)
	}
}

// start returns the state a search begins in.
func (d *dfa) start(kind int) *dstate {
	if s := d.starts[kind]; s != nil {
		return s
	}
	var flags uint8
	switch kind {
	case startText:
		flags = flagTextStart | flagLineStart
	case startLine:
		flags = flagLineStart
	case startWord:
		flags = flagLastWord
	}
	d.q0.clear()
	d.addPending(&d.q0, uint32(d.prog.Start))
	s := d.intern(&d.q0, flags)
	d.starts[kind] = s
	return s
}

// startAt returns the start state for a search that begins at buf[i].
func (d *dfa) startAt(buf []byte, i int) *dstate {
	switch {
	case i == 0:
		return d.start(startText)
	case buf[i-1] == '\n':
		return d.start(startLine)
	}
	r, _ := utf8.DecodeLastRune(buf[:i])
	if d.isWord(r) {
		return d.start(startWord)
	}
	return d.start(startNonWord)
}

// chunk is how many bytes the scan loop covers between two charges to the
// meter.
const chunk = 64 << 10

// earliest returns the position where the earliest match that starts at or
// after buf[from] ends, scanning buf[from:to] and, when to == len(buf), the
// end of the text; -1 when there is none in that range. A match ending at
// p is reported when the character at p is read, so a match that ends at to
// (with to < len(buf)) is not seen: callers scanning a line pass the line's
// '\n' in the range.
func (d *dfa) earliest(buf []byte, from, to int, m *meter.Meter) (int, error) {
	s := d.startAt(buf, from)
	i := from
	for i < to {
		end := min(to, i+chunk)
		if err := m.Spend(end - i); err != nil {
			return -1, err
		}
		for i < end {
			c := buf[i]
			var n *dstate
			size := 1
			if c < utf8.RuneSelf {
				n = s.next[d.classOf[c]]
				if n == nil {
					n = d.step(s, rune(c), m)
					if n == nil {
						return -1, m.Err()
					}
				}
			} else {
				var r rune
				r, size = utf8.DecodeRune(buf[i:])
				if d.strict && r == utf8.RuneError && size == 1 {
					r = invalidByte
				}
				n = s.other[r]
				if n == nil {
					n = d.step(s, r, m)
					if n == nil {
						return -1, m.Err()
					}
				}
			}
			if n.flags&flagMatch != 0 {
				return i, nil
			}
			if len(n.insts) == 0 && d.anchored {
				return -1, nil // dead: nothing can match any more
			}
			s = n
			i += size
		}
	}
	if to == len(buf) && d.matchAtEnd(s) {
		return to, nil
	}
	return -1, nil
}

// matchAtEnd reports whether a match ends at the end of the text, in state s.
func (d *dfa) matchAtEnd(s *dstate) bool {
	if s.eot == 0 {
		d.q0.clear()
		s.eot = eotNoMatch
		if d.resolve(s, eot, &d.q0) {
			s.eot = eotMatch
		}
	}
	return s.eot == eotMatch
}

// emptyOps returns the assertions that hold between the previous character
// (as s records it) and c.
func (d *dfa) emptyOps(flags uint8, c rune) syntax.EmptyOp {
	var op syntax.EmptyOp
	if flags&flagTextStart != 0 {
		op |= syntax.EmptyBeginText | syntax.EmptyBeginLine
	}
	if flags&flagLineStart != 0 {
		op |= syntax.EmptyBeginLine
	}
	switch c {
	case eot:
		op |= syntax.EmptyEndText | syntax.EmptyEndLine
	case '\n':
		op |= syntax.EmptyEndLine
	}
	if (flags&flagLastWord != 0) != (c != eot && d.isWord(c)) {
		op |= syntax.EmptyWordBoundary
	} else {
		op |= syntax.EmptyNoWordBoundary
	}
	return op
}

// resolve follows, from s's instructions, the assertions that hold before
// c, into out (rune instructions only); it reports whether a match
// instruction was reached.
func (d *dfa) resolve(s *dstate, c rune, out *sparseSet) bool {
	op := d.emptyOps(s.flags, c)
	matched := false
	stack := d.stack[:0]
	stack = append(stack, s.insts...)
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if out.has(pc) {
			continue
		}
		out.add(pc)
		inst := &d.prog.Inst[pc]
		switch inst.Op {
		case syntax.InstMatch:
			matched = true
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(inst.Arg)&^op == 0 {
				stack = append(stack, inst.Out)
			}
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, inst.Arg, inst.Out)
		case syntax.InstCapture, syntax.InstNop:
			stack = append(stack, inst.Out)
		}
	}
	d.stack = stack
	return matched
}

// step computes and caches the state after s reads c. It returns nil when
// the meter stopped the search.
func (d *dfa) step(s *dstate, c rune, m *meter.Meter) *dstate {
	d.q0.clear()
	matched := d.resolve(s, c, &d.q0)
	d.q1.clear()
	for _, pc := range d.q0.dense {
		inst := &d.prog.Inst[pc]
		switch inst.Op {
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			if matchRune(inst, c) {
				d.addPending(&d.q1, inst.Out)
			}
		}
	}
	if !d.anchored {
		d.addPending(&d.q1, uint32(d.prog.Start))
	}
	// A state costs about its instruction count in work: charge it.
	if m.Spend(16*(len(d.q0.dense)+len(d.q1.dense))) != nil {
		return nil
	}
	var flags uint8
	if c == '\n' {
		flags |= flagLineStart
	}
	if d.isWord(c) {
		flags |= flagLastWord
	}
	if matched {
		flags |= flagMatch
	}
	n := d.intern(&d.q1, flags)
	if c < utf8.RuneSelf {
		s.next[d.classOf[c]] = n
	} else {
		if s.other == nil {
			s.other = map[rune]*dstate{}
		}
		s.other[c] = n
	}
	return n
}

// addPending adds pc and every instruction reachable from it through
// instructions that consume nothing and assert nothing; assertions stay in
// the set, to be resolved when the next character is known. The set holds
// every instruction visited (so loops of empty transitions end); intern
// keeps only those a state needs.
func (d *dfa) addPending(q *sparseSet, pc uint32) {
	stack := append(d.stack[:0], pc)
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if q.has(pc) {
			continue
		}
		q.add(pc)
		inst := &d.prog.Inst[pc]
		switch inst.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, inst.Arg, inst.Out)
		case syntax.InstCapture, syntax.InstNop:
			stack = append(stack, inst.Out)
		}
	}
	d.stack = stack
}

// intern returns the cached state for (q, flags), creating it, and clearing
// the cache first when it is full. It filters and sorts q's members in
// place, so q must be cleared before it is used again.
func (d *dfa) intern(q *sparseSet, flags uint8) *dstate {
	insts := q.dense[:0]
	for _, pc := range q.dense {
		switch d.prog.Inst[pc].Op {
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL,
			syntax.InstMatch, syntax.InstEmptyWidth:
			insts = append(insts, pc)
		}
	}
	slices.Sort(insts)
	key := append(d.key[:0], flags)
	for _, pc := range insts {
		key = binary.LittleEndian.AppendUint32(key, pc)
	}
	d.key = key
	if s, ok := d.cache[string(key)]; ok {
		return s
	}
	cost := 96 + 8*d.nclasses + 4*len(insts)
	if d.cacheCost+cost > maxCacheCost {
		clear(d.cache)
		d.starts = [4]*dstate{}
		d.cacheCost = 0
	}
	s := &dstate{insts: slices.Clone(insts), flags: flags, next: make([]*dstate, d.nclasses)}
	d.cache[string(key)] = s
	d.cacheCost += cost
	return s
}

// sparseSet is a set of instruction numbers with O(1) add, test and clear
// (Briggs and Torczon), iterated in insertion order.
type sparseSet struct {
	sparse []uint32
	dense  []uint32
}

func (s *sparseSet) init(n int) {
	s.sparse = make([]uint32, n)
	s.dense = make([]uint32, 0, n)
}

func (s *sparseSet) has(pc uint32) bool {
	i := s.sparse[pc]
	return int(i) < len(s.dense) && s.dense[i] == pc
}

func (s *sparseSet) add(pc uint32) {
	s.sparse[pc] = uint32(len(s.dense))
	s.dense = append(s.dense, pc)
}

func (s *sparseSet) clear() { s.dense = s.dense[:0] }
