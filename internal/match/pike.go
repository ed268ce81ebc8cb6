package match

import (
	"regexp/syntax"
	"unicode/utf8"

	"github.com/rootbound/rootbound/internal/meter"
)

// pike finds where a match is within a line the DFA said matches, with the
// leftmost-first semantics of Go's regexp (and RE2, and Rust's regex): a
// Pike VM that tracks each thread's start. It runs in time linear in the
// line times the program, charged to the meter, so a long line under a
// large program still lets the call look at its deadline. Only the lines
// shown in content mode pay for it.
type pike struct {
	prog   *syntax.Prog
	isWord func(rune) bool
	cur    threadList
	nxt    threadList
	stack  []pikeFrame
	ascii  [][2]uint64 // asciiSets
	// leaf: the instruction has no empty transition to follow (it reads
	// a character, or matches), so a thread there is added as it is.
	leaf []bool
	// assertions: the program has an empty-width instruction, for which
	// each position's context (^ $ \b) is worked out.
	assertions bool
}

type threadList struct {
	set   sparseSet
	start []int    // by position in set.dense
	group [][2]int // where capture group 1 starts and ends, -1 before it does
}

type pikeFrame struct {
	pc    uint32
	start int
	group [2]int
}

func newPike(prog *syntax.Prog, isWord func(rune) bool) *pike {
	p := &pike{prog: prog, isWord: isWord, ascii: asciiSets(prog), leaf: make([]bool, len(prog.Inst))}
	for pc := range prog.Inst {
		switch prog.Inst[pc].Op {
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL, syntax.InstMatch:
			p.leaf[pc] = true
		case syntax.InstEmptyWidth:
			p.assertions = true
		}
	}
	p.cur.set.init(len(prog.Inst))
	p.nxt.set.init(len(prog.Inst))
	return p
}

// find returns the first match in text that starts at or after from
// (text[:from] is read as what comes before it), leftmost-first, and
// where its capture group 1 is (-1, -1 when it has none or took no part);
// -1, -1 when there is no match.
func (p *pike) find(text []byte, from int, m *meter.Meter) (start, end int, group [2]int, err error) {
	p.cur.clear()
	matchStart, matchEnd := -1, -1
	var matchGroup [2]int
	prev := rune(eot)
	if from > 0 {
		prev, _ = utf8.DecodeLastRune(text[:from])
	}
	none := [2]int{-1, -1}
	for pos := from; ; {
		r, size := rune(eot), 0
		if pos < len(text) {
			r, size = decodeRune(text[pos:])
		}
		var op syntax.EmptyOp
		if p.assertions {
			op = emptyOpContext(prev, r, pos == 0, p.isWord)
		}
		if matchStart < 0 {
			p.add(&p.cur, uint32(p.prog.Start), pos, pos, none, op)
		}
		if len(p.cur.set.dense) == 0 {
			break
		}
		if err := m.Spend(4 * len(p.cur.set.dense)); err != nil {
			return -1, -1, none, err
		}
		p.nxt.clear()
		nextOp := syntax.EmptyOp(0)
		if size > 0 && p.assertions {
			after := rune(eot)
			if pos+size < len(text) {
				after, _ = utf8.DecodeRune(text[pos+size:])
			}
			nextOp = emptyOpContext(r, after, false, p.isWord)
		}
	threads:
		for i, pc := range p.cur.set.dense {
			inst := &p.prog.Inst[pc]
			switch inst.Op {
			case syntax.InstMatch:
				matchStart, matchEnd, matchGroup = p.cur.start[i], pos, p.cur.group[i]
				// Threads after this one have lower priority: drop them.
				break threads
			case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
				if c := uint32(r); c < utf8.RuneSelf && p.ascii[pc][c>>6]&(1<<(c&63)) == 0 || c >= utf8.RuneSelf && (size == 0 || !matchRune(inst, r)) {
					continue
				}
			default:
				continue
			}
			if out := inst.Out; p.leaf[out] {
				if !p.nxt.set.has(out) {
					p.nxt.set.add(out)
					p.nxt.start = append(p.nxt.start, p.cur.start[i])
					p.nxt.group = append(p.nxt.group, p.cur.group[i])
				}
			} else {
				p.add(&p.nxt, out, p.cur.start[i], pos+size, p.cur.group[i], nextOp)
			}
		}
		p.cur, p.nxt = p.nxt, p.cur
		if size == 0 {
			break
		}
		prev = r
		pos += size
	}
	if matchStart < 0 {
		return -1, -1, none, nil
	}
	return matchStart, matchEnd, matchGroup, nil
}

// add adds the thread at pc, started at start and now at pos, following
// every empty transition that op allows, in priority order.
func (p *pike) add(l *threadList, pc uint32, start, pos int, group [2]int, op syntax.EmptyOp) {
	stack := append(p.stack[:0], pikeFrame{pc, start, group})
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if l.set.has(f.pc) {
			continue
		}
		l.set.add(f.pc)
		l.start = append(l.start, f.start)
		l.group = append(l.group, f.group)
		inst := &p.prog.Inst[f.pc]
		switch inst.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			// Out has priority over Arg: push Arg first.
			stack = append(stack, pikeFrame{inst.Arg, f.start, f.group}, pikeFrame{inst.Out, f.start, f.group})
		case syntax.InstCapture:
			g := f.group
			if inst.Arg == 2 || inst.Arg == 3 {
				g[inst.Arg-2] = pos
			}
			stack = append(stack, pikeFrame{inst.Out, f.start, g})
		case syntax.InstNop:
			stack = append(stack, pikeFrame{inst.Out, f.start, f.group})
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(inst.Arg)&^op == 0 {
				stack = append(stack, pikeFrame{inst.Out, f.start, f.group})
			}
		}
	}
	p.stack = stack
}

func (l *threadList) clear() {
	l.set.clear()
	l.start = l.start[:0]
	l.group = l.group[:0]
}

// emptyOpContext returns the assertions that hold between before and
// after, as syntax.EmptyOpContext does, with the line's own start and end
// as the text's and word characters as isWord says.
func emptyOpContext(before, after rune, atStart bool, isWord func(rune) bool) syntax.EmptyOp {
	var op syntax.EmptyOp
	if atStart || before == eot {
		op |= syntax.EmptyBeginText | syntax.EmptyBeginLine
	}
	if before == '\n' {
		op |= syntax.EmptyBeginLine
	}
	if after == eot {
		op |= syntax.EmptyEndText | syntax.EmptyEndLine
	}
	if after == '\n' {
		op |= syntax.EmptyEndLine
	}
	if (before != eot && isWord(before)) != (after != eot && isWord(after)) {
		op |= syntax.EmptyWordBoundary
	} else {
		op |= syntax.EmptyNoWordBoundary
	}
	return op
}

// asciiSets is, by instruction, the ASCII characters it reads and matches,
// a bit each: a class such as \w (hundreds of ranges in Unicode) is
// otherwise searched through for every character.
func asciiSets(prog *syntax.Prog) [][2]uint64 {
	sets := make([][2]uint64, len(prog.Inst))
	for pc := range prog.Inst {
		switch inst := &prog.Inst[pc]; inst.Op {
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			for c := range rune(utf8.RuneSelf) {
				if inst.MatchRune(c) {
					sets[pc][c>>6] |= 1 << (c & 63)
				}
			}
		}
	}
	return sets
}
