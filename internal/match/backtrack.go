package match

import (
	"regexp/syntax"
	"unicode/utf8"

	"github.com/rootbound/rootbound/internal/meter"
)

// A backtracker finds what the Pike VM finds (the leftmost-first match and
// its capture group 1) by trying each path in priority order, as Go's
// regexp does for short texts: it follows one thread at a time where the
// Pike VM carries every live one a character at a time, so a line that
// matches early costs a few steps a character. Each (instruction,
// position) is visited at most once, in a bitmap of both (a path that
// failed from there fails again, from any start), so its work is bounded
// by the program times the text, as the Pike VM's is; the bitmap bounds
// the texts it takes (maxBacktrack).
type backtracker struct {
	prog    *syntax.Prog
	isWord  func(rune) bool
	ascii   [][2]uint64 // asciiSets
	visited []uint32
	jobs    []btJob
}

// btJob is a path to try: at pc and pos, or (restore) capture slot arg
// set back to pos when the paths after it failed.
type btJob struct {
	pc      uint32
	arg     uint32
	pos     int
	restore bool
}

// maxBacktrack bounds the bitmap: a text of n bytes under a program of k
// instructions takes k*(n+1) bits (Go's regexp has the same bound).
const maxBacktrack = 256 << 10

func newBacktracker(prog *syntax.Prog, isWord func(rune) bool, ascii [][2]uint64) *backtracker {
	return &backtracker{prog: prog, isWord: isWord, ascii: ascii}
}

// fits says whether the search of text from from fits the bitmap.
func (b *backtracker) fits(text []byte, from int) bool {
	return len(b.prog.Inst)*(len(text)-from+1) <= maxBacktrack
}

// find is pike.find for a text that fits: the first match at or after
// from, leftmost-first, and its capture group 1.
func (b *backtracker) find(text []byte, from int, m *meter.Meter) (start, end int, group [2]int, err error) {
	width := len(text) - from + 1
	words := (len(b.prog.Inst)*width + 31) / 32
	if cap(b.visited) < words {
		b.visited = make([]uint32, words)
	}
	b.visited = b.visited[:words]
	clear(b.visited)
	if err := m.Spend(words); err != nil {
		return -1, -1, [2]int{}, err
	}
	steps := 0
	for s := from; s <= len(text); {
		group = [2]int{-1, -1}
		b.jobs = append(b.jobs[:0], btJob{pc: uint32(b.prog.Start), pos: s})
		for len(b.jobs) > 0 {
			j := b.jobs[len(b.jobs)-1]
			b.jobs = b.jobs[:len(b.jobs)-1]
			if j.restore {
				group[j.arg-2] = j.pos
				continue
			}
			pc, pos := j.pc, j.pos
			for {
				// Visit (pc, pos) once.
				bit := int(pc)*width + pos - from
				if b.visited[bit/32]&(1<<(bit%32)) != 0 {
					break
				}
				b.visited[bit/32] |= 1 << (bit % 32)
				if steps++; steps&255 == 0 {
					if err := m.Spend(256); err != nil {
						return -1, -1, [2]int{}, err
					}
				}
				inst := &b.prog.Inst[pc]
				switch inst.Op {
				case syntax.InstMatch:
					return s, pos, group, nil
				case syntax.InstAlt, syntax.InstAltMatch:
					b.jobs = append(b.jobs, btJob{pc: inst.Arg, pos: pos}) // Out first
					pc = inst.Out
					continue
				case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
					if pos == len(text) {
						break
					}
					if c := text[pos]; c < utf8.RuneSelf {
						if b.ascii[pc][c>>6]&(1<<(c&63)) == 0 {
							break
						}
						pc, pos = inst.Out, pos+1
						continue
					}
					r, size := decodeRune(text[pos:])
					if !matchRune(inst, r) {
						break
					}
					pc, pos = inst.Out, pos+size
					continue
				case syntax.InstCapture:
					if inst.Arg == 2 || inst.Arg == 3 {
						b.jobs = append(b.jobs, btJob{arg: inst.Arg, pos: group[inst.Arg-2], restore: true})
						group[inst.Arg-2] = pos
					}
					pc = inst.Out
					continue
				case syntax.InstEmptyWidth:
					if syntax.EmptyOp(inst.Arg)&^b.context(text, from, pos) != 0 {
						break
					}
					pc = inst.Out
					continue
				case syntax.InstNop:
					pc = inst.Out
					continue
				}
				break // InstFail, or a character not matched
			}
		}
		if s == len(text) {
			break
		}
		_, size := decodeRune(text[s:])
		s += size
	}
	return -1, -1, [2]int{-1, -1}, nil
}

// context is the assertions that hold at pos, as the Pike VM works them
// out: text before from is what comes before it (its start is the
// line's), and the characters after from are read from from (from within
// a character, its remaining bytes are each one not valid).
func (b *backtracker) context(text []byte, from, pos int) syntax.EmptyOp {
	before, after := rune(eot), rune(eot)
	switch {
	case pos > from:
		before, _ = utf8.DecodeLastRune(text[from:pos])
	case pos > 0:
		before, _ = utf8.DecodeLastRune(text[:pos])
	}
	if pos < len(text) {
		after, _ = decodeRune(text[pos:])
	}
	return emptyOpContext(before, after, pos == 0, b.isWord)
}
