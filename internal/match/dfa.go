package match

import (
	"bytes"
	"encoding/binary"
	"regexp/syntax"
	"runtime"
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
// It steps over runes, not bytes, so it needs no UTF-8 automaton: an
// ASCII byte indexes a table, any other character a small map of its
// state. Invalid UTF-8 decodes to U+FFFD one byte at a time, as in Go's
// regexp. ASCII bytes that no instruction tells apart share a class, as
// in RE2 (`[a-z]{1000}[0-9]` has five classes, not 128 bytes): a state's
// transition is computed once a class, and written for each of its bytes.
//
// The table is one flat slice of int32 for every state (RE2's and
// regex-automata's layout), a row a state (of 256 columns for a line
// search, a byte each; of one a class for a glob: column): a state is the
// offset of its row, so the scan loop reads the next state's offset with
// one load a byte and nothing to follow but an index, and leaves the loop
// only for what needs a look (a transition not
// computed yet, a state where a match ended or nothing can match any more
// or that it passes over, a byte that is not ASCII), which the entry says
// by being negative. Holding no pointers, the table costs the garbage
// collector nothing to scan, however large.
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

	// classOf is an ASCII byte's class: the bytes of one class lead every
	// state to the same next one.
	classOf  [utf8.RuneSelf]uint8
	nclasses int // of ASCII bytes
	// column is a byte's column in a row of trans, and stride a row's
	// length: an unanchored search's (a line search's: few DFAs, each
	// scanning all the text) has a column a byte, which its scan reads
	// with no look-up first; an anchored one's (a glob's, an ignore
	// rule's: thousands at once, over short names) a column a class and
	// one for every byte that is not ASCII, so its states stay small.
	column [256]uint8
	stride int

	// keep are the flags of dstate the program's assertions look at: a
	// pattern without \b does not tell a state after a word character
	// from one after another, and so has fewer states, and an idle state
	// that reads what starts no match goes back to itself (accel).
	keep uint8

	// trans is every state's row: trans[s+b] is the state after the one
	// at offset s reads b: its offset (>= 0), unknown, or special(offset)
	// for a state the scan must look at. A byte that is not ASCII is
	// always unknown: the character is decoded, and looked up in the
	// state's map.
	trans     []int32
	states    []*dstate // by offset/stride
	cache     map[string]int32
	cacheCost int
	clears    int      // of the cache, for tests
	starts    [4]int32 // by startKind; unknown until computed
	// startsMade: the first start made every kind (start).
	startsMade bool

	// scratch for state computation
	q0, q1 sparseSet
	stack  []uint32
	key    []byte
}

// Entries of dfa.trans that are not a plain state's offset.
const (
	unknown int32 = -1 // not computed yet
)

// special encodes the offset of a state the scan must look at (a match
// ended before its character, nothing can match any more, or it is passed
// over: looked): negative, below unknown.
func special(off int32) int32 { return -off - 2 }

// unspecial is the offset special encoded.
func unspecial(t int32) int32 { return -t - 2 }

// dstate is a DFA state: the instructions the search is at (after every
// empty transition that needs no assertion), and what is known about the
// previous character.
type dstate struct {
	insts []uint32
	flags uint8
	off   int32          // its row in dfa.trans
	other map[rune]int32 // the state after a character that is not ASCII
	eot   uint8          // 0: not computed; eotNoMatch; eotMatch
	// stay, for a start state that most text leaves as it is (the idle
	// state of an unanchored search: no match begun): the bytes after
	// which it is itself. The scan passes over them as a byte scan passes
	// over what it does not look for, with no transition followed (accel).
	stay *[256]uint8
	// only: the one byte that leaves it, when one does (every other, ASCII
	// or not, keeps it): the scan looks for it as bytes.IndexByte does.
	only int16
}

// looked reports whether the scan must look at a state on entering it: a
// match ended before its character, or (anchored) nothing can match.
func (d *dfa) looked(s *dstate) bool {
	return s.flags&flagMatch != 0 || len(s.insts) == 0 && d.anchored || s.stay != nil
}

// entry is the table entry that leads to s.
func (d *dfa) entry(s *dstate) int32 {
	if d.looked(s) {
		return special(s.off)
	}
	return s.off
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
	d := &dfa{prog: prog, anchored: anchored, isWord: isWord, cache: map[string]int32{}}
	d.q0.init(len(prog.Inst))
	d.q1.init(len(prog.Inst))
	d.byteClasses()
	d.keep = flagMatch
	for i := range prog.Inst {
		if inst := &prog.Inst[i]; inst.Op == syntax.InstEmptyWidth {
			op := syntax.EmptyOp(inst.Arg)
			if op&syntax.EmptyBeginText != 0 {
				d.keep |= flagTextStart
			}
			if op&(syntax.EmptyBeginLine|syntax.EmptyBeginText) != 0 {
				d.keep |= flagLineStart
			}
			if op&(syntax.EmptyWordBoundary|syntax.EmptyNoWordBoundary) != 0 {
				d.keep |= flagLastWord
			}
		}
	}
	if anchored {
		d.stride = d.nclasses + 1
		copy(d.column[:], d.classOf[:])
		for b := utf8.RuneSelf; b < 256; b++ {
			d.column[b] = uint8(d.nclasses)
		}
	} else {
		d.stride = 256
		for b := range 256 {
			d.column[b] = uint8(b)
		}
	}
	d.starts = [4]int32{unknown, unknown, unknown, unknown}
	return d
}

// byteClasses partitions the ASCII bytes into classes no instruction, word
// test or line end tells apart. Each distinct rune instruction refines the
// partition once (a program of `[a-z]{1000}` has one distinct instruction).
func (d *dfa) byteClasses() {
	refine := func(test func(c rune) bool) {
		var remap [2 * utf8.RuneSelf]int16 // ASCII classes: at most 128
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

// start returns the state a search begins in. The first time, an
// unanchored search's other start states are made too: they are its idle
// states, which the scan reaches by steps as often as by a start, and
// accel gives them their stay sets only here.
func (d *dfa) start(kind int) *dstate {
	if off := d.starts[kind]; off != unknown {
		return d.states[int(off)/d.stride]
	}
	if !d.anchored && !d.startsMade {
		d.startsMade = true
		for k := range d.starts {
			if k != kind {
				d.start(k)
			}
		}
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
	flags &= d.keep
	d.q0.clear()
	d.addPending(&d.q0, uint32(d.prog.Start))
	s, _ := d.intern(&d.q0, flags)
	d.starts[kind] = s.off
	if !d.accel(s) { // the cache was cleared meanwhile: s again, plain
		d.q0.clear()
		d.addPending(&d.q0, uint32(d.prog.Start))
		s, _ = d.intern(&d.q0, flags)
		d.starts[kind] = s.off
	}
	return s
}

// maxStayFreq bounds how often, in parts per million of source code
// (byteFreq), the bytes that leave an idle state may occur for the scan
// to pass over the others a byte at a time without following a
// transition: past it the scan would stop too often to gain.
const maxStayFreq = 200_000

// passOverBySet: an idle state that more than one byte leaves is passed
// over by a loop of table look-ups (passOver) natively, where it runs
// eight independent tests a round; in wasm such a loop ran no faster than
// the DFA's own (BenchmarkDFA: 209 MB/s against 300), and only a state
// that one byte leaves is passed over (bytes.IndexByte).
const passOverBySet = runtime.GOARCH != "wasm"

// accel gives the start state s its stay set when the text that leaves
// it is rare enough: the state after each ASCII class is computed now
// (nclasses steps, once per start state); a byte that is not ASCII always
// leaves it (the scan stops, and the character is decoded). It reports
// false when the cache was cleared meanwhile (s is gone).
func (d *dfa) accel(s *dstate) bool {
	if d.anchored || s.flags&flagMatch != 0 || len(s.insts) == 0 || s.stay != nil {
		return true
	}
	var rep [128]int // a byte of each class
	for c := range utf8.RuneSelf {
		rep[d.classOf[c]] = c
	}
	var stay [256]uint8
	var leave uint32
	leaving := 0 // bytes
	if d.keepsOnOther(s) {
		for c := utf8.RuneSelf; c < 256; c++ {
			stay[c] = 1
		}
	} else {
		leaving = 256 - utf8.RuneSelf
	}
	only := -1
	for k := range d.nclasses {
		n := d.step(s, rune(rep[k]), nil)
		if int(s.off)/d.stride >= len(d.states) || d.states[int(s.off)/d.stride] != s {
			return false
		}
		for c := range utf8.RuneSelf {
			if int(d.classOf[c]) != k {
				continue
			}
			if n.off == s.off {
				stay[c] = 1
			} else {
				leave += byteFreq[c]
				leaving++
				only = c
			}
		}
	}
	switch {
	case leaving == 1:
		s.only = int16(only)
	case !passOverBySet || leave > maxStayFreq:
		return true // a scan would stop too often to gain, or gains nothing
	default:
		s.only = -1
	}
	s.stay = &stay
	// Every entry that leads to s says to look at it.
	for i, t := range d.trans {
		if t == s.off {
			d.trans[i] = special(s.off)
		}
	}
	return true
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
	off := int(d.startAt(buf, from).off)
	i := from
	for i < to {
		end := min(to, i+chunk)
		if err := m.Spend(end - i); err != nil {
			return -1, err
		}
		for i < end {
			// The loop of plain states: an entry a byte, four a round.
			trans, column := d.trans, &d.column
			for ; i+4 <= end; i += 4 {
				b := buf[i : i+4 : i+4]
				t0 := trans[off+int(column[b[0]])]
				if t0 < 0 {
					break
				}
				t1 := trans[int(t0)+int(column[b[1]])]
				if t1 < 0 {
					off, i = int(t0), i+1
					break
				}
				t2 := trans[int(t1)+int(column[b[2]])]
				if t2 < 0 {
					off, i = int(t1), i+2
					break
				}
				t3 := trans[int(t2)+int(column[b[3]])]
				if t3 < 0 {
					off, i = int(t2), i+3
					break
				}
				off = int(t3)
			}
			for ; i < end; i++ {
				t := trans[off+int(column[buf[i]])]
				if t < 0 {
					break
				}
				off = int(t)
			}
			if i == end {
				break
			}
			// A byte that needs a look: an entry not computed, a state
			// to look at, or a character that is not ASCII.
			c := buf[i]
			t, size := trans[off+int(column[c])], 1
			if t == unknown {
				r := rune(c)
				if c >= utf8.RuneSelf {
					r, size = utf8.DecodeRune(buf[i:])
					if d.strict && r == utf8.RuneError && size == 1 {
						r = invalidByte
					}
				}
				n := d.next(d.states[off/d.stride], r, m)
				if n == nil {
					return -1, m.Err()
				}
				t = d.entry(n)
			}
			if t <= unknown {
				n := d.states[int(unspecial(t))/d.stride]
				if n.flags&flagMatch != 0 {
					return i, nil
				}
				if len(n.insts) == 0 && d.anchored {
					return -1, nil // dead: nothing can match any more
				}
				t = n.off
				if n.stay != nil {
					// Idle: pass over what leaves it as it is.
					i, size = passOver(buf, i+size, end, n), 0
				}
			}
			off = int(t)
			i += size
		}
	}
	if to == len(buf) && d.matchAtEnd(d.states[off/d.stride]) {
		return to, nil
	}
	return -1, nil
}

// passOver returns the first position in buf[i:end] whose byte is not in
// stay, or end: eight bytes a round, with no dependence of one test on
// another (a DFA's step waits for the last), as a byte scan runs.
func passOver(buf []byte, i, end int, s *dstate) int {
	if s.only >= 0 {
		if j := bytes.IndexByte(buf[i:end], byte(s.only)); j >= 0 {
			return i + j
		}
		return end
	}
	stay := s.stay
	for ; i+8 <= end; i += 8 {
		b := buf[i : i+8 : i+8]
		if stay[b[0]]&stay[b[1]]&stay[b[2]]&stay[b[3]]&stay[b[4]]&stay[b[5]]&stay[b[6]]&stay[b[7]] == 0 {
			break
		}
	}
	for ; i < end && stay[buf[i]] != 0; i++ {
	}
	return i
}

// keepsOnOther reports whether every character that is not ASCII (and
// every byte that is not UTF-8) leaves the idle state s as it is: none of
// its instructions takes one, and which kind of character came last does
// not matter to the pattern (no \b).
func (d *dfa) keepsOnOther(s *dstate) bool {
	if s.flags != 0 || d.keep&flagLastWord != 0 {
		return false
	}
	for _, pc := range s.insts {
		inst := &d.prog.Inst[pc]
		switch inst.Op {
		case syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			return false
		case syntax.InstRune, syntax.InstRune1:
			if len(inst.Rune) > 0 && inst.Rune[len(inst.Rune)-1] >= utf8.RuneSelf {
				return false // a range reaches past ASCII
			}
			if syntax.Flags(inst.Arg)&syntax.FoldCase != 0 {
				return false // a fold may be past ASCII (k: the Kelvin sign)
			}
		}
	}
	return true
}

// next returns the state after s reads c: cached (a character that is not
// ASCII in s's map), or computed. nil: the meter stopped the search.
func (d *dfa) next(s *dstate, c rune, m *meter.Meter) *dstate {
	if c >= utf8.RuneSelf {
		if off, ok := s.other[c]; ok {
			return d.states[int(off)/d.stride]
		}
	}
	return d.step(s, c, m)
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
	n, cleared := d.intern(&d.q1, flags&d.keep)
	if cleared {
		return n // s is gone with the cache: nothing to record
	}
	if c < utf8.RuneSelf {
		e, k := d.entry(n), d.classOf[c]
		for b := range utf8.RuneSelf {
			if d.classOf[b] == k {
				d.trans[int(s.off)+int(d.column[b])] = e
			}
		}
	} else {
		if s.other == nil {
			s.other = map[rune]int32{}
		}
		s.other[c] = n.off
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
// the cache first when it is full (cleared says so: every other state is
// gone). It filters and sorts q's members in place, so q must be cleared
// before it is used again.
func (d *dfa) intern(q *sparseSet, flags uint8) (s *dstate, cleared bool) {
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
	if off, ok := d.cache[string(key)]; ok {
		return d.states[int(off)/d.stride], false
	}
	cost := 96 + 4*d.stride + 4*len(insts)
	if d.cacheCost+cost > maxCacheCost {
		clear(d.cache)
		d.starts = [4]int32{unknown, unknown, unknown, unknown}
		d.trans, d.states = d.trans[:0], d.states[:0]
		d.cacheCost = 0
		d.clears++
		cleared = true
	}
	s = &dstate{insts: slices.Clone(insts), flags: flags, off: int32(len(d.trans))}
	for range d.stride {
		d.trans = append(d.trans, unknown)
	}
	d.states = append(d.states, s)
	d.cache[string(key)] = s.off
	d.cacheCost += cost
	return s, cleared
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
