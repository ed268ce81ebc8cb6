package match

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// smartFold decides smart case as ripgrep does: a pattern is searched
// case-insensitively when it has at least one literal character and no
// literal upper-case one. Literal characters are those written as such,
// escaped (`\.`, `\x41`, `\Q…\E`), in a class (`[A-Z]` has two, `A` and `Z`),
// or at the ends of a range; `\pL`, `\w`, `[:upper:]` and `.` are not literals,
// though they match letters. The parse tree of regexp/syntax no longer tells
// `[A-Z]` from `\p{Lu}`, so this reads the pattern itself; the pattern has
// already parsed, so it is well formed.
func smartFold(p string) bool {
	var anyLiteral, anyUpper bool
	lit := func(r rune) {
		anyLiteral = true
		anyUpper = anyUpper || unicode.IsUpper(r)
	}
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRuneInString(p[i:])
		switch r {
		case '\\':
			i += escape(p[i:], lit)
			continue
		case '[':
			i += class(p[i:], lit)
			continue
		case '(':
			i += groupHead(p[i:])
			continue
		case '{':
			if n := repetition(p[i:]); n > 0 {
				i += n
				continue
			}
			lit(r) // a '{' that starts no repetition is itself
		case '.', '^', '$', '|', ')', '*', '+', '?':
		default:
			lit(r)
		}
		i += size
	}
	return anyLiteral && !anyUpper
}

// escape reads the escape at the start of s, reports a literal it spells,
// and returns its length.
func escape(s string, lit func(rune)) int {
	if len(s) < 2 {
		return len(s)
	}
	c := s[1]
	switch {
	case c == 'p' || c == 'P':
		if len(s) > 2 && s[2] == '{' {
			if end := strings.IndexByte(s, '}'); end > 0 {
				return end + 1
			}
		}
		return min(3, len(s))
	case c == 'Q':
		body, _, found := strings.Cut(s[2:], `\E`)
		for _, r := range body {
			lit(r)
		}
		if found {
			return 2 + len(body) + 2
		}
		return len(s)
	case c == 'x':
		if len(s) > 2 && s[2] == '{' {
			if end := strings.IndexByte(s, '}'); end > 0 {
				if v, err := strconv.ParseUint(s[3:end], 16, 32); err == nil {
					lit(rune(v))
				}
				return end + 1
			}
		}
		if len(s) >= 4 {
			if v, err := strconv.ParseUint(s[2:4], 16, 8); err == nil {
				lit(rune(v))
			}
		}
		return min(4, len(s))
	case '0' <= c && c <= '7':
		n := 2
		for n < len(s) && n < 4 && '0' <= s[n] && s[n] <= '7' {
			n++
		}
		v, _ := strconv.ParseUint(s[1:n], 8, 32)
		lit(rune(v))
		return n
	case strings.IndexByte("aftnrv", c) >= 0:
		lit(rune(c)) // a control character: a literal, never upper case
		return 2
	case strings.IndexByte("dDsSwWbBAzC", c) >= 0:
		return 2 // classes and assertions: no literal
	}
	r, size := utf8.DecodeRuneInString(s[1:])
	lit(r) // an escaped punctuation character
	return 1 + size
}

// class reads the bracket expression at the start of s and returns its
// length, reporting its literal characters and the ends of its ranges.
func class(s string, lit func(rune)) int {
	i := 1
	if i < len(s) && s[i] == '^' {
		i++
	}
	first := true
	for i < len(s) {
		if s[i] == ']' && !first {
			return i + 1
		}
		first = false
		switch {
		case strings.HasPrefix(s[i:], "[:"):
			if end := strings.Index(s[i:], ":]"); end > 0 {
				i += end + 2
				continue
			}
			lit('[')
			i++
		case s[i] == '\\':
			i += escape(s[i:], lit)
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != '-' {
				lit(r)
			}
			i += size
		}
	}
	return len(s)
}

// groupHead returns the length of a group's opening: "(", or "(?flags:",
// "(?flags)", "(?P<name>", "(?<name>", whose letters are no literals.
func groupHead(s string) int {
	if !strings.HasPrefix(s, "(?") {
		return 1
	}
	if end := strings.IndexAny(s, ":)>"); end > 0 {
		return end + 1
	}
	return len(s)
}

// repetition returns the length of a {n}, {n,} or {n,m} at the start of
// s, or 0 when s starts with none.
func repetition(s string) int {
	end := strings.IndexByte(s, '}')
	if end < 2 {
		return 0
	}
	lo, hi, _ := strings.Cut(s[1:end], ",")
	digits := func(x string) bool { return strings.Trim(x, "0123456789") == "" }
	if lo == "" || !digits(lo) || !digits(hi) {
		return 0
	}
	return end + 1
}
