package match

import (
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/rootbound/rootbound/internal/meter"
)

// Wildmatch is a compiled pattern of git's wildmatch (wildmatch.c), as
// ignore files use it, with WM_PATHNAME: "*", "?" and bracket expressions
// never match "/"; "**" whose first star follows "/" (or starts the
// pattern) and whose last star comes before "/" (or ends it) matches any
// number of directories, and elsewhere is "*"; "[!a]" and "[^a]" negate;
// "[[:digit:]]" and the other classes of git's ctype (ASCII only, "space"
// without \v and \f); "\" escapes. Like git it works on bytes, not
// characters: "?" matches one byte of a multi-byte name. A pattern git
// cannot match anything with (an unterminated class, an unknown class
// name, a trailing "\") matches nothing here either.
//
// It runs on the lazy DFA, in time linear in the text: wildmatch.c
// recurses at each star and is exponential in the pattern in its worst
// case. The translation is checked against git's own wildmatch cases
// (testdata/wildmatch.txt) and, through package ignore, against git.
type Wildmatch struct {
	dfa *dfa
}

// CompileWildmatch compiles a wildmatch pattern. Git before 2.52 matched
// the literal start of an ignore file's path pattern apart from the rest,
// so that "foo**/bar" matched "foobar"; 2.52 fixed that (commit 1940a02dc1,
// "match_pathname(): give fnmatch one char of prefix context"), and this is
// the fixed behaviour: the whole pattern is one wildmatch.
func CompileWildmatch(pattern string) *Wildmatch {
	never := `[^\x00-\x{10FFFF}]`
	expr, ok := wildRegexp(pattern)
	if !ok {
		expr = never
	}
	re, err := syntax.Parse(`(?s:`+expr+`)\z`, syntax.Perl)
	if err != nil { // cannot happen: every piece is quoted
		re, _ = syntax.Parse(never, syntax.Perl)
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil || len(prog.Inst) > MaxProgram {
		re, _ = syntax.Parse(never, syntax.Perl)
		prog, _ = syntax.Compile(re)
	}
	return &Wildmatch{dfa: newDFA(prog, true, syntax.IsWordChar)}
}

// Match reports whether text matches, charging m (which may be nil) for
// the bytes read; when m's check fails it reports false and m keeps the
// error. Bytes are matched as bytes: each is read as the code point of
// the same value.
func (w *Wildmatch) Match(text string, m *meter.Meter) bool {
	var b []byte
	if isASCII(text) {
		b = unsafe.Slice(unsafe.StringData(text), len(text))
	} else {
		b = make([]byte, 0, 2*len(text))
		for i := 0; i < len(text); i++ {
			b = utf8.AppendRune(b, rune(text[i]))
		}
	}
	p, _ := w.dfa.earliest(b, 0, len(b), m)
	return p >= 0
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// byteRegexp is the RE2 syntax for the byte c, read as the code point c.
func byteRegexp(c byte) string {
	if c < utf8.RuneSelf && (c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || c == '/' || c == '-' || c == ' ') {
		return string(rune(c))
	}
	return fmt.Sprintf(`\x{%x}`, c)
}

// wildRegexp translates a wildmatch pattern into RE2 syntax over code
// points 0-255; ok is false for a pattern that matches nothing.
func wildRegexp(p string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(p); {
		switch c := p[i]; c {
		case '\\':
			if i+1 == len(p) {
				return "", false // wildmatch compares the text with NUL
			}
			b.WriteString(byteRegexp(p[i+1]))
			i += 2
		case '?':
			b.WriteString(`[^/]`)
			i++
		case '*':
			j := i
			for j < len(p) && p[j] == '*' {
				j++
			}
			afterSlash := i == 0 || p[i-1] == '/'
			beforeSlash := j == len(p) || p[j] == '/' || p[j] == '\\' && j+1 < len(p) && p[j+1] == '/'
			switch {
			case j-i < 2 || !afterSlash || !beforeSlash:
				b.WriteString(`[^/]*`)
			case j < len(p) && p[j] == '/':
				// "**/" matches nothing, or anything that ends in "/".
				b.WriteString(`(?:.*/)?`)
				j++
			default:
				b.WriteString(`.*`)
			}
			i = j
		case '[':
			class, n, ok := wildClass(p[i:])
			if !ok {
				return "", false
			}
			b.WriteString(class)
			i += n
		default:
			b.WriteString(byteRegexp(c))
			i++
		}
	}
	return b.String(), true
}

// wildClass translates the bracket expression at the start of s as
// wildmatch.c reads it, byte by byte: "]" first is a member; "a-z" is a
// range from the member before "-" (none after a range or a class); "\"
// escapes; "[:name:]" is a class, and "[:" that does not end in ":]" before
// the next "]" is a "[". It returns the class and the bytes it took; ok is
// false when git would abort the match.
func wildClass(s string) (string, int, bool) {
	var set [256]bool
	i := 1
	negated := false
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		negated = true
		i++
	}
	var prev byte // 0: no member to start a range from
	for first := true; ; first = false {
		if i >= len(s) {
			return "", 0, false
		}
		c := s[i]
		if c == ']' && !first {
			i++
			break
		}
		switch {
		case c == '\\':
			if i+1 >= len(s) {
				return "", 0, false
			}
			c = s[i+1]
			set[c] = true
			i += 2
		case c == '-' && prev != 0 && i+1 < len(s) && s[i+1] != ']':
			hi := s[i+1]
			i += 2
			if hi == '\\' {
				if i >= len(s) {
					return "", 0, false
				}
				hi = s[i]
				i++
			}
			for x := int(prev); x <= int(hi); x++ {
				set[x] = true
			}
			c = 0
		case c == '[' && i+1 < len(s) && s[i+1] == ':':
			end := strings.IndexByte(s[i+2:], ']')
			if end < 0 {
				return "", 0, false
			}
			name := s[i+2 : i+2+end]
			if !strings.HasSuffix(name, ":") {
				// Not a class: the "[" is a member, and ":" comes next.
				set['['] = true
				i++
				break
			}
			class, ok := gitClasses[strings.TrimSuffix(name, ":")]
			if !ok {
				return "", 0, false
			}
			for x := range 128 {
				set[x] = set[x] || class(byte(x))
			}
			i += 2 + end + 1
			c = 0
		default:
			set[c] = true
			i++
		}
		prev = c
	}
	var b strings.Builder
	b.WriteByte('[')
	for lo := 0; lo < 256; {
		if set[lo] == negated || lo == '/' {
			lo++
			continue
		}
		hi := lo
		for hi+1 < 256 && set[hi+1] != negated && hi+1 != '/' {
			hi++
		}
		fmt.Fprintf(&b, `\x{%x}-\x{%x}`, lo, hi)
		lo = hi + 1
	}
	b.WriteByte(']')
	if b.Len() == 2 {
		return `[^\x00-\x{10FFFF}]`, i, true
	}
	return b.String(), i, true
}

// gitClasses are the classes of wildmatch.c over git's ctype (ctype.c):
// ASCII only, and "space" is tab, line feed, carriage return and space.
var gitClasses = map[string]func(byte) bool{
	"alnum":  func(c byte) bool { return isDigit(c) || isAlpha(c) },
	"alpha":  isAlpha,
	"blank":  func(c byte) bool { return c == ' ' || c == '\t' },
	"cntrl":  func(c byte) bool { return c < 0x20 || c == 0x7f },
	"digit":  isDigit,
	"graph":  func(c byte) bool { return c > ' ' && c < 0x7f },
	"lower":  func(c byte) bool { return c >= 'a' && c <= 'z' },
	"print":  func(c byte) bool { return c >= ' ' && c < 0x7f },
	"punct":  func(c byte) bool { return c > ' ' && c < 0x7f && !isDigit(c) && !isAlpha(c) },
	"space":  func(c byte) bool { return c == '\t' || c == '\n' || c == '\r' || c == ' ' },
	"upper":  func(c byte) bool { return c >= 'A' && c <= 'Z' },
	"xdigit": func(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' },
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
