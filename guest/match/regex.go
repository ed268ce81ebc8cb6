package match

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
)

// Case modes, as in the protocol.
const (
	CaseSensitive   = "sensitive"
	CaseInsensitive = "insensitive"
	CaseSmart       = "smart" // insensitive unless the pattern has an upper-case letter
)

// Matcher finds lines. The searcher runs Find over a whole file buffer and
// confirms each candidate with MatchLine on the line that holds it, so a
// match never spans lines: searching the buffer once and finding the line
// only on a hit measured 42% faster than going line by line in wasm.
type Matcher interface {
	// Find returns a candidate in buf, or -1, -1: the leftmost match, or
	// the leftmost place of a literal that every match contains. No line
	// before the candidate's line matches.
	Find(buf []byte) (start, end int)
	// MatchLine reports whether line (without its terminator) matches.
	MatchLine(line []byte) bool
}

// CompileLine compiles a grep pattern: RE2 syntax, or a literal string when
// literal is set, with caseMode one of the Case constants ("" is sensitive).
func CompileLine(pattern string, literal bool, caseMode string) (Matcher, error) {
	bad := func(reason string) error { return &PatternError{Kind: "regex", Pattern: pattern, Reason: reason} }
	switch {
	case pattern == "":
		return nil, bad("empty pattern")
	case len(pattern) > MaxPatternBytes:
		return nil, bad(fmt.Sprintf("longer than %d bytes", MaxPatternBytes))
	case literal && strings.ContainsAny(pattern, "\n\r"):
		return nil, bad("a line break never matches: the search is line by line")
	}
	var fold bool
	switch caseMode {
	case "", CaseSensitive:
	case CaseInsensitive:
		fold = true
	case CaseSmart:
		fold = true // decided below, once the pattern is parsed
	default:
		return nil, fmt.Errorf("match: unknown case mode %q, want sensitive|insensitive|smart", caseMode)
	}
	if literal {
		if caseMode == CaseSmart {
			fold = !hasUpper(pattern)
		}
		if !fold {
			lit := []byte(pattern)
			return &literalMatcher{lit: lit, off: rareOffset(lit)}, nil
		}
		pattern = regexp.QuoteMeta(pattern)
	}
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		var se *syntax.Error
		if errors.As(err, &se) {
			return nil, bad(string(se.Code) + " " + se.Expr)
		}
		return nil, bad(err.Error())
	}
	if matchesNewline(re) {
		return nil, bad("matches a line break, which never matches: the search is line by line")
	}
	if caseMode == CaseSmart && !literal {
		fold = !hasUpperLiteral(re)
	}
	flags := "(?m)"
	if fold {
		flags = "(?mi)"
	}
	compiled, err := regexp.Compile(flags + pattern)
	if err != nil {
		return nil, bad(err.Error())
	}
	m := &regexMatcher{re: compiled, find: compiled}
	if textAnchors(re) {
		// On a line \A and \z mean its start and end; over a whole buffer
		// they would mean the file's. Find runs the line-anchored form.
		if m.find, err = regexp.Compile(flags + re.String()); err != nil {
			return nil, bad(err.Error())
		}
	}
	if fold {
		re.Flags |= syntax.FoldCase
		setFold(re)
	}
	m.lit, m.fold = requiredLiteral(re.Simplify())
	if m.lit != nil && !m.fold {
		m.off = rareOffset(m.lit)
	}
	return m, nil
}

// textAnchors rewrites \A and \z in re as ^ and $ (multi-line), and reports
// whether it found any.
func textAnchors(re *syntax.Regexp) bool {
	found := false
	switch re.Op {
	case syntax.OpBeginText:
		re.Op, found = syntax.OpBeginLine, true
	case syntax.OpEndText:
		re.Op, found = syntax.OpEndLine, true
	}
	for _, sub := range re.Sub {
		if textAnchors(sub) {
			found = true
		}
	}
	return found
}

// setFold marks every literal of re as case-folded, as the (?i) flag that
// CompileLine prepends does.
func setFold(re *syntax.Regexp) {
	re.Flags |= syntax.FoldCase
	for _, sub := range re.Sub {
		setFold(sub)
	}
}

// literalMatcher finds a case-sensitive literal by its rarest byte.
type literalMatcher struct {
	lit []byte
	off int // of the rarest byte in lit
}

func (l *literalMatcher) Find(buf []byte) (int, int) {
	i := indexRare(buf, l.lit, l.off)
	if i < 0 {
		return -1, -1
	}
	return i, i + len(l.lit)
}

func (l *literalMatcher) MatchLine(line []byte) bool { return indexRare(line, l.lit, l.off) >= 0 }

// regexMatcher runs an RE2 regexp. When the pattern has a literal that every
// match must contain (a "required literal", as in `\w+_init\(`), Find looks
// for that literal only and the regexp runs on the lines that hold it: Go's
// regexp over a whole buffer is the slowest part of a search in wasm, and the
// prefilter measured 20× on such patterns (and more under (?i), where the
// regexp cannot use its own literal prefix).
type regexMatcher struct {
	re   *regexp.Regexp // runs on a line
	find *regexp.Regexp // runs on a whole buffer
	lit  []byte         // required literal, or nil
	fold bool           // lit is lower-case ASCII, compared case-insensitively
	off  int            // of lit's rarest byte, when not fold
}

func (m *regexMatcher) Find(buf []byte) (int, int) {
	if m.lit != nil {
		var i int
		if m.fold {
			i = indexFold(buf, m.lit)
		} else {
			i = indexRare(buf, m.lit, m.off)
		}
		if i < 0 {
			return -1, -1
		}
		return i, i + len(m.lit)
	}
	loc := m.find.FindIndex(buf)
	if loc == nil {
		return -1, -1
	}
	return loc[0], loc[1]
}

func (m *regexMatcher) MatchLine(line []byte) bool { return m.re.Match(line) }

func hasUpper(s string) bool {
	for _, r := range s {
		if unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// hasUpperLiteral reports whether a literal in re has an upper-case letter,
// as ripgrep's smart case decides (escapes such as \W do not count).
func hasUpperLiteral(re *syntax.Regexp) bool {
	if re.Op == syntax.OpLiteral && hasUpper(string(re.Rune)) {
		return true
	}
	for _, sub := range re.Sub {
		if hasUpperLiteral(sub) {
			return true
		}
	}
	return false
}

// matchesNewline reports whether re spells out a line break as a literal.
func matchesNewline(re *syntax.Regexp) bool {
	if re.Op == syntax.OpLiteral && strings.ContainsRune(string(re.Rune), '\n') {
		return true
	}
	for _, sub := range re.Sub {
		if matchesNewline(sub) {
			return true
		}
	}
	return false
}
