package match

import (
	"bytes"
	"regexp/syntax"
	"unicode/utf8"
)

// minLiteral is the shortest required literal worth a prefilter: a single
// byte turns up on most lines and saves nothing.
const minLiteral = 2

// requiredLiteral returns a literal that every match of re contains, the
// longest it can see, and whether it compares case-insensitively (then it is
// lower-case ASCII). It returns nil when it finds none.
func requiredLiteral(re *syntax.Regexp) ([]byte, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return foldableRun(re.Rune), true
		}
		b := []byte(string(re.Rune))
		if len(b) < minLiteral {
			return nil, false
		}
		return b, false
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiteral(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiteral(re.Sub[0])
		}
	case syntax.OpConcat:
		var best []byte
		var bestFold bool
		for _, sub := range re.Sub {
			if lit, fold := requiredLiteral(sub); len(lit) > len(best) {
				best, bestFold = lit, fold
			}
		}
		return best, bestFold
	}
	return nil, false
}

// foldableRun returns the longest run of runes that fold within ASCII, lower
// case. Letters that fold to non-ASCII runes under Unicode simple folding (k
// to the Kelvin sign, s to the long s) end a run, as does any non-ASCII rune,
// so an ASCII case-insensitive scan never misses a match.
func foldableRun(runes []rune) []byte {
	var best, cur []byte
	for _, r := range runes {
		switch {
		case r >= utf8.RuneSelf, r == 'k', r == 'K', r == 's', r == 'S':
			cur = nil
		default:
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			cur = append(cur, byte(r))
			if len(cur) > len(best) {
				best = append(best[:0], cur...)
			}
		}
	}
	if len(best) < minLiteral {
		return nil
	}
	return best
}

// indexFold returns the first index of lit (lower-case ASCII) in buf, ASCII
// letters compared case-insensitively, or -1. It scans with IndexByte (an
// assembly loop even in wasm) for both cases of the first byte.
func indexFold(buf, lit []byte) int {
	lower := lit[0]
	upper := lower
	if 'a' <= lower && lower <= 'z' {
		upper = lower - ('a' - 'A')
	}
	for off := 0; off+len(lit) <= len(buf); {
		rest := buf[off:]
		i := bytes.IndexByte(rest, lower)
		if upper != lower {
			end := i
			if end < 0 {
				end = len(rest)
			}
			if j := bytes.IndexByte(rest[:end], upper); j >= 0 {
				i = j
			}
		}
		if i < 0 || off+i+len(lit) > len(buf) {
			return -1
		}
		if equalFold(rest[i:i+len(lit)], lit) {
			return off + i
		}
		off += i + 1
	}
	return -1
}

func equalFold(b, lower []byte) bool {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}
