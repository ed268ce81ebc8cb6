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

// byteRank orders bytes by how often they occur in source code, 0 the
// rarest: counted over 3,000 files (.go .s .c .h .md .txt .json .yaml .sh)
// of the Go tree. A literal is searched for by its rarest byte, so the
// assembly IndexByte loop does the scanning and few candidates need a
// compare; searching "errors.New" by its first byte, 'e', stops at nearly
// every word.
var byteRank = [256]uint8{
	0, 60, 1, 2, 3, 4, 5, 6, 7, 252, 249, 8, 9, 82, 10, 11,
	12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
	255, 182, 227, 163, 172, 176, 177, 175, 236, 235, 194, 183, 242, 196, 233, 234,
	238, 224, 216, 203, 206, 195, 205, 191, 198, 193, 214, 185, 173, 229, 169, 159,
	156, 211, 197, 212, 204, 221, 199, 190, 187, 215, 162, 170, 202, 200, 201, 210,
	213, 164, 217, 228, 225, 186, 192, 181, 178, 179, 161, 189, 184, 188, 160, 222,
	168, 247, 223, 244, 241, 254, 239, 230, 231, 248, 166, 209, 243, 232, 250, 245,
	237, 174, 251, 246, 253, 240, 207, 208, 226, 220, 180, 219, 171, 218, 157, 28,
	153, 149, 155, 88, 127, 146, 122, 108, 154, 133, 129, 130, 141, 70, 81, 65,
	76, 78, 87, 140, 126, 152, 113, 128, 138, 142, 101, 66, 148, 151, 123, 104,
	80, 118, 96, 84, 144, 135, 110, 119, 97, 106, 132, 134, 124, 79, 71, 85,
	102, 150, 115, 94, 103, 98, 109, 165, 116, 114, 121, 131, 111, 112, 89, 100,
	29, 30, 167, 147, 90, 83, 31, 62, 32, 33, 95, 77, 120, 93, 136, 125,
	107, 86, 57, 73, 34, 35, 63, 36, 137, 139, 37, 72, 38, 58, 39, 40,
	74, 68, 158, 91, 105, 69, 143, 99, 117, 67, 75, 61, 64, 59, 41, 92,
	145, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56,
}

// rareOffset returns the offset in lit of its rarest byte.
func rareOffset(lit []byte) int {
	best := 0
	for i, c := range lit {
		if byteRank[c] < byteRank[lit[best]] {
			best = i
		}
	}
	return best
}

// indexRare returns the first index of lit in buf, or -1, scanning for the
// byte at lit[off] (its rarest; see rareOffset).
func indexRare(buf, lit []byte, off int) int {
	c := lit[off]
	for start := 0; start+len(lit) <= len(buf); {
		i := bytes.IndexByte(buf[start+off:len(buf)-len(lit)+off+1], c)
		if i < 0 {
			return -1
		}
		pos := start + i
		if bytes.Equal(buf[pos:pos+len(lit)], lit) {
			return pos
		}
		start = pos + 1
	}
	return -1
}
