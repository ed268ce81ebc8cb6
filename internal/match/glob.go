// Package match compiles the patterns of a call: globs, which pick files by
// name or path, and regular expressions or literals, which find lines. It does
// no I/O, so every parser here is fuzzed without a file system.
//
// Every pattern is compiled to a regexp/syntax program and run by this
// package's lazy DFA, in time linear in the text it is matched against;
// nothing here backtracks. Globs are translated to regular expressions, as
// ripgrep's globset does: a glob matcher that expands braces or backtracks
// over stars is exponential in the pattern (doublestar took 2 s per name on
// `{,}` twenty times over, doubling with each group).
//
// Globs: "*" and "?" (never crossing "/"), "**" (any number of
// directories), "[a-z]", "[!a-z]", "[[:digit:]]", "{a,b}" (nested too), "\"
// escapes. Regular expressions are Go's RE2 syntax.
package match

import (
	"fmt"
	"path"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/rootbound/rootbound/internal/meter"
)

// MaxPatternBytes bounds a fixed string (a literal search pattern), and
// MaxExprBytes a glob or a regular expression: what each compiles to grows
// with it, and compiling runs in the module with no clock read between its
// steps. Longer ones are refused: no source tree needs them. At 4 KiB a glob
// of stars ("*a" 2,047 times) kept a host's ticker waiting up to 71 ms,
// at 1 KiB up to 34 ms (make hostile, the rows "the longest a glob may
// be").
const (
	MaxPatternBytes = 4096
	MaxExprBytes    = 1024
)

// PatternError is a pattern that does not compile.
type PatternError struct {
	Kind    string // "glob" or "regex"
	Pattern string
	Reason  string
}

func (e *PatternError) Error() string {
	p := e.Pattern
	if len(p) > 80 {
		p = p[:80] + "…"
	}
	return fmt.Sprintf("invalid %s %s: %s", e.Kind, Quote(p), e.Reason)
}

// Glob is a compiled glob. Without "/" it matches a base name at any depth;
// with "/" it matches the whole path relative to the search root (a leading
// "/" only anchors and is dropped).
type Glob struct {
	basename bool
	dfa      *dfa
	// Meter, if set, is charged for matching; when its check fails, Match
	// reports false and the meter keeps the error.
	Meter *meter.Meter
}

// CompileGlob validates pattern and returns its matcher; fold matches
// without regard to case (simple Unicode folding, as regular expressions'
// (?i)).
func CompileGlob(pattern string, fold bool) (*Glob, error) {
	return compileGlob(pattern, fold, MaxExprBytes)
}

// CompileGlobAny is one glob, "{g1,g2,...}", matching what any of globs
// matches, each at most MaxExprBytes: one DFA decides a name however many
// globs there are. Their number is the caller's to bound.
func CompileGlobAny(globs []string, fold bool) (*Glob, error) {
	for _, g := range globs {
		if len(g) > MaxExprBytes {
			return nil, &PatternError{Kind: "glob", Pattern: g, Reason: fmt.Sprintf("longer than %d bytes", MaxExprBytes)}
		}
	}
	return compileGlob("{"+strings.Join(globs, ",")+"}", fold, len(globs)*(MaxExprBytes+1)+1)
}

func compileGlob(pattern string, fold bool, max int) (*Glob, error) {
	bad := func(reason string) error { return &PatternError{Kind: "glob", Pattern: pattern, Reason: reason} }
	switch {
	case pattern == "":
		return nil, bad("empty pattern")
	case len(pattern) > max:
		return nil, bad(fmt.Sprintf("longer than %d bytes", max))
	case strings.IndexByte(pattern, 0) >= 0:
		return nil, bad("contains a NUL byte")
	case !utf8.ValidString(pattern):
		return nil, bad("not valid UTF-8")
	}
	p := strings.TrimPrefix(pattern, "/")
	if p == "" {
		return nil, bad("matches no file")
	}
	expr, err := globRegexp(p)
	if err != nil {
		return nil, bad(err.Error())
	}
	flags := syntax.Perl
	if fold {
		flags |= syntax.FoldCase
	}
	re, err := syntax.Parse(`(?s:`+expr+`)\z`, flags)
	if err != nil {
		return nil, bad(err.Error())
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, bad(err.Error())
	}
	if len(prog.Inst) > MaxProgram {
		return nil, bad(fmt.Sprintf("compiles to %d instructions, over the limit of %d", len(prog.Inst), MaxProgram))
	}
	return &Glob{basename: !strings.Contains(pattern, "/"), dfa: newDFA(prog, true, syntax.IsWordChar)}, nil
}

// Match reports whether rel, a slash-separated path relative to the search
// root, matches.
func (g *Glob) Match(rel string) bool {
	if g.basename {
		rel = path.Base(rel)
	}
	// The DFA only reads the bytes: view the string without copying it.
	b := unsafe.Slice(unsafe.StringData(rel), len(rel))
	p, _ := g.dfa.earliest(b, 0, len(b), g.Meter)
	return p >= 0
}

// globRegexp translates a glob into RE2 syntax, in one pass: its length is
// linear in the glob's, and so is its program.
func globRegexp(glob string) (string, error) {
	var b strings.Builder
	depth := 0 // of { }
	for i := 0; i < len(glob); {
		c := glob[i]
		switch c {
		case '\\':
			if i+1 == len(glob) {
				return "", fmt.Errorf("a trailing \\ escapes nothing")
			}
			r, size := utf8.DecodeRuneInString(glob[i+1:])
			b.WriteString(quoteMeta(string(r)))
			i += 1 + size
		case '*':
			atStart := i == 0 || strings.IndexByte("/{,", glob[i-1]) >= 0
			if i+1 < len(glob) && glob[i+1] == '*' {
				end := i + 2
				atEnd := end == len(glob) || (depth > 0 && strings.IndexByte("},", glob[end]) >= 0)
				switch {
				case atStart && end < len(glob) && glob[end] == '/':
					b.WriteString(`(?:.*/)?`) // "**/": any number of directories
					i = end + 1
					continue
				case atStart && atEnd:
					b.WriteString(`.*`) // "**" as a whole component: anything
					i = end
					continue
				}
				// "**" inside a component is a "*".
				for i < len(glob) && glob[i] == '*' {
					i++
				}
				b.WriteString(`[^/]*`)
				continue
			}
			b.WriteString(`[^/]*`)
			i++
		case '?':
			b.WriteString(`[^/]`)
			i++
		case '[':
			class, n, err := globClass(glob[i:])
			if err != nil {
				return "", err
			}
			b.WriteString(class)
			i += n
		case '{':
			depth++
			b.WriteString(`(?:`)
			i++
		case ',':
			if depth > 0 {
				b.WriteByte('|')
			} else {
				b.WriteByte(',')
			}
			i++
		case '}':
			if depth == 0 {
				return "", fmt.Errorf("unbalanced }: escape it as \\}")
			}
			depth--
			b.WriteByte(')')
			i++
		default:
			r, size := utf8.DecodeRuneInString(glob[i:])
			b.WriteString(quoteMeta(string(r)))
			i += size
		}
	}
	if depth > 0 {
		return "", fmt.Errorf("unbalanced {: close it with }, or escape it as \\{")
	}
	return b.String(), nil
}

// posixClasses are the bracket expressions [:name:] of POSIX and git, as
// ranges over ASCII.
var posixClasses = map[string][]rune{
	"alnum":  {'0', '9', 'A', 'Z', 'a', 'z'},
	"alpha":  {'A', 'Z', 'a', 'z'},
	"blank":  {'\t', '\t', ' ', ' '},
	"cntrl":  {0, 0x1f, 0x7f, 0x7f},
	"digit":  {'0', '9'},
	"graph":  {'!', '~'},
	"lower":  {'a', 'z'},
	"print":  {' ', '~'},
	"punct":  {'!', '/', ':', '@', '[', '`', '{', '~'},
	"space":  {'\t', '\r', ' ', ' '},
	"upper":  {'A', 'Z'},
	"xdigit": {'0', '9', 'A', 'F', 'a', 'f'},
}

// globClass translates the bracket expression at the start of s and returns
// it and how many bytes of s it took. A class never matches "/".
func globClass(s string) (string, int, error) {
	i := 1
	negate := false
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		negate = true
		i++
	}
	var ranges []rune
	first := true
	for {
		if i >= len(s) {
			return "", 0, fmt.Errorf("unbalanced [: close it with ], or escape it as \\[")
		}
		if s[i] == ']' && !first {
			i++
			break
		}
		first = false
		if strings.HasPrefix(s[i:], "[:") {
			if end := strings.Index(s[i+2:], ":]"); end >= 0 {
				name := s[i+2 : i+2+end]
				rs, ok := posixClasses[name]
				if !ok {
					return "", 0, fmt.Errorf("unknown character class [:%s:]", name)
				}
				ranges = append(ranges, rs...)
				i += 2 + end + 2
				continue
			}
		}
		lo, n, err := classChar(s[i:])
		if err != nil {
			return "", 0, err
		}
		i += n
		hi := lo
		if i+1 < len(s) && s[i] == '-' && s[i+1] != ']' {
			if hi, n, err = classChar(s[i+1:]); err != nil {
				return "", 0, err
			}
			i += 1 + n
			if hi < lo {
				return "", 0, fmt.Errorf("range %c-%c is reversed", lo, hi)
			}
		}
		ranges = append(ranges, lo, hi)
	}
	var b strings.Builder
	b.WriteByte('[')
	if negate {
		b.WriteString(`^/`)
	}
	for j := 0; j+1 < len(ranges); j += 2 {
		for _, r := range splitSlash(ranges[j], ranges[j+1], negate) {
			fmt.Fprintf(&b, `\x{%x}-\x{%x}`, r[0], r[1])
		}
	}
	b.WriteByte(']')
	if b.Len() == 2 { // "[]": nothing left once "/" is gone
		return `[^\x00-\x{10FFFF}]`, i, nil
	}
	return b.String(), i, nil
}

// splitSlash returns the range lo-hi without "/" (unless the class is
// negated, where "/" is excluded already).
func splitSlash(lo, hi rune, negated bool) [][2]rune {
	if negated || hi < '/' || lo > '/' {
		return [][2]rune{{lo, hi}}
	}
	var out [][2]rune
	if lo < '/' {
		out = append(out, [2]rune{lo, '/' - 1})
	}
	if hi > '/' {
		out = append(out, [2]rune{'/' + 1, hi})
	}
	return out
}

// classChar reads one character of a bracket expression, escaped or not.
func classChar(s string) (rune, int, error) {
	if s[0] == '\\' {
		if len(s) < 2 {
			return 0, 0, fmt.Errorf("a trailing \\ escapes nothing")
		}
		r, size := utf8.DecodeRuneInString(s[1:])
		return r, 1 + size, nil
	}
	r, size := utf8.DecodeRuneInString(s)
	return r, size, nil
}
