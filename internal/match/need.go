package match

import (
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// What the index asks for (Required) is wider than what the prefilter
// scans for (literals): a small class of ASCII characters is a position of
// its own (`[0-9]` is ten bytes there), and the positions of adjacent
// literals and classes make one literal, so that `[A-Z]{3}_[0-9]{4}` asks
// for the grams of `_` and the digits around it, which no literal of the
// pattern holds alone (codesearch expands classes the same way). The index
// bounds the grams a position stands for (internal/index, maxVariants).

// maxNeedClass bounds the bytes of a class taken as a position.
const maxNeedClass = 64

// needed returns literals such that every match of re contains one of
// them, for the index; nil when it sees none.
func needed(re *syntax.Regexp) []literal {
	if seq, ok := exactSeq(re); ok {
		if len(seq) == 0 {
			return nil
		}
		return []literal{seq}
	}
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus, syntax.OpRepeat:
		if sub := within(re); sub != nil {
			return needed(sub)
		}
	case syntax.OpConcat:
		// Runs of adjacent positions, each a literal every match holds;
		// a child that is one only at its edges (x+) ends a run and
		// starts the next. Any run, or any child's own, will do: the best.
		var best, run []literal
		var cur literal
		end := func() {
			if len(cur) > 0 {
				run = append(run, cur)
			}
			cur = nil
		}
		for _, sub := range re.Sub {
			if seq, ok := exactSeq(sub); ok {
				cur = append(cur, seq...)
				continue
			}
			if edge, ok := edges(sub); ok {
				cur = append(cur, edge...)
				end()
				cur = append(literal(nil), edge...)
				continue
			}
			end()
			if lits := needed(sub); betterNeed(lits, best) {
				best = lits
			}
		}
		end()
		for _, l := range run {
			if lits := []literal{l}; betterNeed(lits, best) {
				best = lits
			}
		}
		return best
	case syntax.OpAlternate:
		return everyBranch(re.Sub, needed)
	}
	return nil
}

// exactSeq returns the byte sets, position by position, of every match of
// re when all have one length and each position a set the index can take;
// ok is false otherwise. An assertion is an empty sequence.
func exactSeq(re *syntax.Regexp) (seq literal, ok bool) {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return literal{}, true
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase == 0 {
			return exact([]byte(string(re.Rune))), true
		}
		for _, r := range re.Rune {
			sets, ok := foldSets(r)
			if !ok {
				return nil, false
			}
			seq = append(seq, sets...)
		}
		return seq, true
	case syntax.OpCharClass:
		var set []byte
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi >= utf8.RuneSelf || len(set)+int(hi-lo)+1 > maxNeedClass {
				return nil, false
			}
			for c := lo; c <= hi; c++ {
				set = append(set, byte(c))
			}
		}
		if len(set) == 0 {
			return nil, false
		}
		return literal{set}, true
	case syntax.OpCapture:
		return exactSeq(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min != re.Max || re.Min > maxNeedRepeat {
			return nil, false
		}
		one, ok := exactSeq(re.Sub[0])
		if !ok {
			return nil, false
		}
		for range re.Min {
			seq = append(seq, one...)
		}
		return seq, true
	case syntax.OpConcat:
		seq = literal{}
		for _, sub := range re.Sub {
			s, ok := exactSeq(sub)
			if !ok {
				return nil, false
			}
			seq = append(seq, s...)
		}
		return seq, true
	}
	return nil, false
}

// maxNeedRepeat bounds a repetition taken whole (after Simplify, which
// writes x{3} as xxx, one is left only in a tree not simplified).
const maxNeedRepeat = 16

// edges returns the sequence every match of re starts with and ends with,
// when re is a repetition of an exact sequence at least once (x+, x{2,}):
// ok is false otherwise.
func edges(re *syntax.Regexp) (literal, bool) {
	switch re.Op {
	case syntax.OpCapture:
		return edges(re.Sub[0])
	case syntax.OpPlus:
		return exactSeq(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return exactSeq(re.Sub[0])
		}
	}
	return nil, false
}

// foldSets is r's case variants as byte sets, position by position; ok is
// false when they differ in length (k, K and the Kelvin sign).
func foldSets(r rune) (literal, bool) {
	size := utf8.RuneLen(r)
	if size < 0 {
		return nil, false
	}
	sets := make(literal, size)
	for v := r; ; {
		var b [utf8.UTFMax]byte
		if utf8.EncodeRune(b[:], v) != size {
			return nil, false
		}
		for k := range size {
			if !containsByte(sets[k], b[k]) {
				sets[k] = append(sets[k], b[k])
			}
		}
		if v = unicode.SimpleFold(v); v == r {
			return sets, true
		}
	}
}

func containsByte(set []byte, c byte) bool {
	for _, b := range set {
		if b == c {
			return true
		}
	}
	return false
}

// betterNeed reports whether a asks the index for more than b: its weakest
// literal holds more runs of three positions of small sets, or, as many,
// as the prefilter's better says (its shortest literal is longer).
func betterNeed(a, b []literal) bool {
	if a != nil && b != nil && len(a) <= maxLiterals {
		if wa, wb := weakest(a), weakest(b); wa != wb {
			return wa > wb
		}
	}
	return better(a, b)
}

// weakest is the least any literal of lits narrows: the runs of three
// positions whose sets make few grams, the fewer the better (an exact run
// counts 8, one of up to 512 variants 1).
func weakest(lits []literal) int {
	least := -1
	for _, l := range lits {
		n := 0
		for i := 0; i+3 <= len(l); i++ {
			switch v := len(l[i]) * len(l[i+1]) * len(l[i+2]); {
			case v == 1:
				n += 8
			case v <= 8:
				n += 4
			case v <= 64:
				n += 2
			case v <= 512:
				n++
			}
		}
		if least < 0 || n < least {
			least = n
		}
	}
	return least
}
