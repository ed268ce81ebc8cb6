package match

import (
	"bytes"
	"errors"
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rootbound/rootbound/guest/meter"
)

// Case modes, as in the protocol.
const (
	CaseSensitive   = "sensitive"
	CaseInsensitive = "insensitive"
	CaseSmart       = "smart" // insensitive when the pattern has literal letters, none upper case (ripgrep's rule)
)

// MaxProgram bounds the size of a compiled regular expression, in
// instructions of its regexp/syntax program, as ripgrep's
// --regex-size-limit does. Every search costs at worst time linear in the
// text times this size, so it is the bound that keeps a model-written
// pattern from holding a call: `[a-z]{1000}` is 1,000 instructions; no
// pattern written to find code needs ten times that.
const MaxProgram = 10_000

// Matcher finds lines. A match never spans lines: a line break never
// matches (classes lose it, `.` never had it), and ^ $ \A \z mean a line's
// start and end. Every method charges its work to the meter and stops with
// the meter's error.
type Matcher interface {
	// NextLine returns the first line of buf at or after from (a line
	// start) that holds a match: its start and its end (the index of its
	// '\n', or len(buf)); -1, -1 when there is none.
	NextLine(buf []byte, from int, m *meter.Meter) (start, end int, err error)
	// Locate returns where the first match in line (a whole line, without
	// its '\n') starts and ends, leftmost-first as Go's regexp finds it;
	// -1, -1 when there is none.
	Locate(line []byte, m *meter.Meter) (start, end int, err error)
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
			return newLiteralMatcher([]byte(pattern)), nil
		}
		if !utf8.ValidString(pattern) {
			return nil, bad("not valid UTF-8, so it has no letter case: search it case-sensitively")
		}
		pattern = quoteMeta(pattern)
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
		fold = smartFold(pattern)
	}
	if fold {
		// Parse again: the parser folds classes and literals itself.
		if re, err = syntax.Parse(pattern, syntax.Perl|syntax.FoldCase); err != nil {
			return nil, bad(err.Error())
		}
	}
	if lit, ok := plainLiteral(re); ok && !fold {
		// A regex that is only a literal ("return") is searched as one.
		return newLiteralMatcher(lit), nil
	}
	if n := programSize(re); n > MaxProgram {
		return nil, bad(fmt.Sprintf("compiles to about %d instructions, over the limit of %d: lower repetition counts such as {1000}, or split the pattern", n, MaxProgram))
	}
	lineOnly(re)
	re = re.Simplify()
	prog, err := syntax.Compile(re)
	if err != nil {
		return nil, bad(err.Error())
	}
	if len(prog.Inst) > MaxProgram {
		return nil, bad(fmt.Sprintf("compiles to %d instructions, over the limit of %d: lower repetition counts such as {1000}, or split the pattern", len(prog.Inst), MaxProgram))
	}
	return &regexMatcher{
		dfa:       newDFA(prog, false, syntax.IsWordChar),
		pike:      newPike(prog, syntax.IsWordChar),
		prefilter: newPrefilter(literals(re)),
	}, nil
}

// plainLiteral returns the bytes re matches when it is a literal string
// and nothing else.
func plainLiteral(re *syntax.Regexp) ([]byte, bool) {
	for re.Op == syntax.OpCapture && len(re.Sub) == 1 {
		re = re.Sub[0]
	}
	if re.Op != syntax.OpLiteral || re.Flags&syntax.FoldCase != 0 {
		return nil, false
	}
	return []byte(string(re.Rune)), true
}

// quoteMeta is regexp.QuoteMeta, without importing package regexp.
func quoteMeta(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// lineOnly rewrites re so that no match can span lines: classes lose '\n',
// `.` never matches it, and text anchors become line anchors (on a line,
// \A and \z mean its start and end).
func lineOnly(re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpAnyChar:
		re.Op = syntax.OpAnyCharNotNL
	case syntax.OpCharClass:
		re.Rune = withoutNewline(re.Rune)
	case syntax.OpBeginText:
		re.Op = syntax.OpBeginLine
	case syntax.OpEndText:
		re.Op = syntax.OpEndLine
		re.Flags &^= syntax.WasDollar
	}
	for _, sub := range re.Sub {
		lineOnly(sub)
	}
}

// withoutNewline removes '\n' from a class's ranges (pairs lo, hi).
func withoutNewline(ranges []rune) []rune {
	out := make([]rune, 0, len(ranges)+2)
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if lo <= '\n' && '\n' <= hi {
			if lo < '\n' {
				out = append(out, lo, '\n'-1)
			}
			if hi > '\n' {
				out = append(out, '\n'+1, hi)
			}
			continue
		}
		out = append(out, lo, hi)
	}
	return out // empty: a class that matches nothing, which compiles fine
}

// programSize estimates the instructions re compiles to, before Simplify
// expands its repetitions, so a pattern too large to search is refused
// before any of it is built.
func programSize(re *syntax.Regexp) int {
	sub := 0
	for _, s := range re.Sub {
		sub = min(sub+programSize(s), 1<<30)
	}
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune)
	case syntax.OpRepeat:
		n := re.Max
		if n < 0 {
			n = re.Min + 1
		}
		return min(max(n, 1)*(sub+1), 1<<30)
	case syntax.OpCapture:
		return sub + 2
	}
	return sub + 1
}

// literalMatcher finds a case-sensitive literal.
type literalMatcher struct {
	lit []byte
	p   *prefilter
}

func newLiteralMatcher(lit []byte) *literalMatcher {
	return &literalMatcher{lit: lit, p: newPrefilter([]literal{exact(lit)})}
}

func (l *literalMatcher) NextLine(buf []byte, from int, m *meter.Meter) (int, int, error) {
	i, err := l.find(buf, from, m)
	if i < 0 || err != nil {
		return -1, -1, err
	}
	return lineAround(buf, from, i, m)
}

func (l *literalMatcher) Locate(line []byte, m *meter.Meter) (int, int, error) {
	i := bytes.Index(line, l.lit)
	if i < 0 {
		return -1, -1, nil
	}
	return i, i + len(l.lit), nil
}

// find finds the literal: a one-byte literal with IndexByte, any other
// with a prefilter (which checks it whole).
func (l *literalMatcher) find(buf []byte, from int, m *meter.Meter) (int, error) {
	if l.p == nil {
		j, err := meter.IndexByte(m, buf[from:], l.lit[0])
		if j < 0 || err != nil {
			return -1, err
		}
		return from + j, nil
	}
	return l.p.find(buf, from, m)
}

// regexMatcher runs a regular expression with a lazy DFA, which says which
// lines match, and a Pike VM, which says where in a line. When every match
// contains one of a set of literals (`\w+_init\(` contains "_init(",
// `TODO|FIXME` one of two, `(?i)error` a case variant of "error"), the
// prefilter finds them first and the DFA runs only on the lines that hold
// one: the prefilter measured 20× on such patterns in wasm.
type regexMatcher struct {
	dfa       *dfa
	pike      *pike
	prefilter *prefilter // or nil
}

func (r *regexMatcher) NextLine(buf []byte, from int, m *meter.Meter) (int, int, error) {
	if r.prefilter == nil {
		p, err := r.dfa.earliest(buf, from, len(buf), m)
		if p < 0 || err != nil {
			return -1, -1, err
		}
		start, end, err := lineAround(buf, from, p, m)
		if start == len(buf) {
			return -1, -1, err // an empty match after the final '\n': no line there
		}
		return start, end, err
	}
	for from < len(buf) {
		i, err := r.prefilter.find(buf, from, m)
		if i < 0 || err != nil {
			return -1, -1, err
		}
		start, end, err := lineAround(buf, from, i, m)
		if err != nil {
			return -1, -1, err
		}
		// Scan the line and its '\n' (the look-ahead that $ and \b need).
		p, err := r.dfa.earliest(buf, start, min(end+1, len(buf)), m)
		if err != nil {
			return -1, -1, err
		}
		if p >= 0 && p <= end {
			return start, end, nil
		}
		from = end + 1
	}
	return -1, -1, nil
}

func (r *regexMatcher) Locate(line []byte, m *meter.Meter) (int, int, error) {
	return r.pike.find(line, m)
}

// lineAround returns the line that holds buf[i], searching back no further
// than from (a line start).
func lineAround(buf []byte, from, i int, m *meter.Meter) (int, int, error) {
	back, err := meter.LastIndexByte(m, buf[from:i], '\n')
	if err != nil {
		return -1, -1, err
	}
	start := from + back + 1
	fwd, err := meter.IndexByte(m, buf[i:], '\n')
	if err != nil {
		return -1, -1, err
	}
	end := len(buf)
	if fwd >= 0 {
		end = i + fwd
	}
	return start, end, nil
}

func hasUpper(s string) bool {
	for _, r := range s {
		if unicode.IsUpper(r) {
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
