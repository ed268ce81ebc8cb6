package match

import (
	"regexp/syntax"
	"unicode/utf8"

	"github.com/rootbound/rootbound/guest/meter"
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
}

type threadList struct {
	set   sparseSet
	start []int // by position in set.dense
}

type pikeFrame struct {
	pc    uint32
	start int
}

func newPike(prog *syntax.Prog, isWord func(rune) bool) *pike {
	p := &pike{prog: prog, isWord: isWord}
	p.cur.set.init(len(prog.Inst))
	p.nxt.set.init(len(prog.Inst))
	return p
}

// find returns the first match in text (a whole line: its start and end
// are the line's), or -1, -1.
func (p *pike) find(text []byte, m *meter.Meter) (int, int, error) {
	p.cur.clear()
	matchStart, matchEnd := -1, -1
	prev := rune(eot)
	for pos := 0; ; {
		r, size := rune(eot), 0
		if pos < len(text) {
			r, size = utf8.DecodeRune(text[pos:])
		}
		op := emptyOpContext(prev, r, pos == 0, p.isWord)
		if matchStart < 0 {
			p.add(&p.cur, uint32(p.prog.Start), pos, op)
		}
		if len(p.cur.set.dense) == 0 {
			break
		}
		if err := m.Spend(4 * len(p.cur.set.dense)); err != nil {
			return -1, -1, err
		}
		p.nxt.clear()
		nextOp := syntax.EmptyOp(0)
		if size > 0 {
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
				matchStart, matchEnd = p.cur.start[i], pos
				// Threads after this one have lower priority: drop them.
				break threads
			case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
				if size > 0 && inst.MatchRune(r) {
					p.add(&p.nxt, inst.Out, p.cur.start[i], nextOp)
				}
			}
		}
		p.cur, p.nxt = p.nxt, p.cur
		if size == 0 {
			break
		}
		prev = r
		pos += size
	}
	return matchStart, matchEnd, nil
}

// add adds the thread at pc, started at start, following every empty
// transition that op allows, in priority order.
func (p *pike) add(l *threadList, pc uint32, start int, op syntax.EmptyOp) {
	stack := append(p.stack[:0], pikeFrame{pc, start})
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if l.set.has(f.pc) {
			continue
		}
		l.set.add(f.pc)
		l.start = append(l.start, f.start)
		inst := &p.prog.Inst[f.pc]
		switch inst.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			// Out has priority over Arg: push Arg first.
			stack = append(stack, pikeFrame{inst.Arg, f.start}, pikeFrame{inst.Out, f.start})
		case syntax.InstCapture, syntax.InstNop:
			stack = append(stack, pikeFrame{inst.Out, f.start})
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(inst.Arg)&^op == 0 {
				stack = append(stack, pikeFrame{inst.Out, f.start})
			}
		}
	}
	p.stack = stack
}

func (l *threadList) clear() {
	l.set.clear()
	l.start = l.start[:0]
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
