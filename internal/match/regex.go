package match

import (
	"bytes"
	"errors"
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rootbound/rootbound/internal/meter"
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

// Matcher finds matches. Every method charges its work to the meter and
// stops with the meter's error.
//
// A line matcher (the default) never matches a line break: a line break
// never matches (classes lose it, `.` never had it), and ^ $ \A \z mean a
// line's start and end. A multiline matcher finds matches anywhere in the
// text: `.` matches a line break, ^ and $ a line's start and end.
type Matcher interface {
	// NextLine returns the first line of buf at or after from (a line
	// start) that holds a match: its start and its end (the index of its
	// '\n', or len(buf)); -1, -1 when there is none. A multiline matcher
	// returns the lines of its next match: the start of the first, the
	// end of the last.
	NextLine(buf []byte, from int, m *meter.Meter) (start, end int, err error)
	// LocateAt returns where the first match in text that starts at or
	// after from starts and ends, leftmost-first as Go's regexp finds it,
	// reading text[:from] as what comes before it; -1, -1 when there is
	// none. For a line matcher text is a whole line, without its '\n'.
	LocateAt(text []byte, from int, m *meter.Meter) (start, end int, err error)
	// Multiline reports whether matches may span lines.
	Multiline() bool
}

// Options say how grep patterns are read.
type Options struct {
	Literal bool   // each pattern is a literal string
	Case    string // a Case constant; "" is sensitive
	// Word keeps only matches with a non-word character, or a line's
	// start or end, on each side (ripgrep's -w).
	Word bool
	// CRLF lets $ match before a '\r' that ends a line (ripgrep's --crlf).
	CRLF bool
	// Multiline lets a match span lines; `.` then matches a line break.
	Multiline bool
}

// Compile compiles grep patterns: text matches where any of them matches
// (ripgrep's -e, several times). Regular expressions are RE2 syntax with
// ripgrep's Unicode classes (unicode.go); smart case looks at all the
// patterns together.
func Compile(patterns []string, o Options) (Matcher, error) {
	joined := strings.Join(patterns, "|")
	bad := func(reason string) error { return &PatternError{Kind: "regex", Pattern: joined, Reason: reason} }
	if len(patterns) == 0 {
		return nil, bad("no pattern")
	}
	for _, p := range patterns {
		switch {
		case p == "":
			return nil, &PatternError{Kind: "regex", Pattern: p, Reason: "empty pattern"}
		case o.Literal && len(p) > MaxPatternBytes:
			return nil, &PatternError{Kind: "regex", Pattern: p, Reason: fmt.Sprintf("longer than %d bytes", MaxPatternBytes)}
		case !o.Literal && len(p) > MaxExprBytes:
			return nil, &PatternError{Kind: "regex", Pattern: p, Reason: fmt.Sprintf("longer than %d bytes (a fixed string may have %d)", MaxExprBytes, MaxPatternBytes)}
		case o.Literal && !o.Multiline && strings.ContainsAny(p, "\n\r"):
			return nil, &PatternError{Kind: "regex", Pattern: p, Reason: "a line break never matches: the search is line by line (multiline searches across lines)"}
		}
	}
	var fold bool
	switch o.Case {
	case "", CaseSensitive:
	case CaseInsensitive:
		fold = true
	case CaseSmart:
		fold = true // decided below
	default:
		return nil, fmt.Errorf("unknown case mode %q, want sensitive|insensitive|smart", o.Case)
	}
	exprs := make([]string, len(patterns))
	for i, p := range patterns {
		exprs[i] = p
		if o.Literal {
			if fold && !utf8.ValidString(p) {
				return nil, &PatternError{Kind: "regex", Pattern: p, Reason: "not valid UTF-8, so it has no letter case: search it case-sensitively"}
			}
			exprs[i] = quoteMeta(p)
		}
		// Each pattern must parse alone, so that an error names it.
		e, _, n := unicodePerl(exprs[i])
		if n += unicodeProperties(exprs[i]); n > MaxUnicodeClasses {
			return nil, &PatternError{Kind: "regex", Pattern: p, Reason: fmt.Sprintf("more than %d Unicode classes (\\d \\s \\w \\pL \\p{Greek} and their complements): start it with (?-u) to make \\d \\s \\w ASCII, or use [a-z] for \\pL", MaxUnicodeClasses)}
		}
		if _, err := syntax.Parse(e, syntax.Perl); err != nil {
			return nil, parseError(p, err)
		}
	}
	if o.Case == CaseSmart {
		if o.Literal {
			fold = !hasUpper(strings.Join(patterns, ""))
		} else {
			fold = smartFold(strings.Join(exprs, "|"))
		}
	}
	if len(patterns) == 1 && o.Literal && !fold && !o.Word && !o.Multiline {
		return newLiteralMatcher([]byte(patterns[0])), nil
	}
	inner := exprs[0]
	if len(exprs) > 1 {
		inner = "(?:" + strings.Join(exprs, ")|(?:") + ")"
	}
	c := &compiler{fold: fold, multiline: o.Multiline, crlf: o.CRLF}
	if !o.Word {
		m, err := c.compile(inner)
		if err != nil {
			return nil, bad(err.Error())
		}
		return m, nil
	}
	// -w as ripgrep has it: a non-word character (or a line's edge) on
	// each side. The wrapped pattern says which lines; the pattern alone,
	// with its neighbours checked, where.
	outer, err := c.compile(`(?:^|\W)(` + inner + `)(?:$|\W)`)
	if err != nil {
		return nil, bad(err.Error())
	}
	alone, err := c.compile(inner)
	if err != nil {
		return nil, bad(err.Error())
	}
	return &wordMatcher{regexMatcher: outer.(*regexMatcher), inner: alone}, nil
}

// parseError is a pattern that does not parse. The part of it at fault is
// named when it is a part, not the whole pattern the message names already.
func parseError(pattern string, err error) error {
	var se *syntax.Error
	if errors.As(err, &se) {
		reason := string(se.Code)
		if se.Expr != "" && se.Expr != pattern && strings.Contains(pattern, se.Expr) {
			reason += " at " + Quote(se.Expr)
		}
		return &PatternError{Kind: "regex", Pattern: pattern, Reason: reason}
	}
	return &PatternError{Kind: "regex", Pattern: pattern, Reason: err.Error()}
}

// compiler turns pattern text into a regexMatcher.
type compiler struct {
	fold, multiline, crlf bool
}

func (c *compiler) compile(expr string) (Matcher, error) {
	expr, ascii, _ := unicodePerl(expr)
	flags := syntax.Perl
	if c.fold {
		flags |= syntax.FoldCase
	}
	if c.multiline {
		flags = flags&^syntax.OneLine | syntax.DotNL
	}
	re, err := syntax.Parse(expr, flags)
	if err != nil {
		var se *syntax.Error
		if errors.As(err, &se) {
			return nil, errors.New(string(se.Code)) // se.Expr is of the expression as rewritten here
		}
		return nil, err
	}
	if !c.multiline && matchesNewline(re) {
		return nil, errors.New("matches a line break, which never matches: the search is line by line (multiline searches across lines)")
	}
	if lit, ok := plainLiteral(re); ok && !c.fold && !c.multiline {
		// A regex that is only a literal ("return") is searched as one.
		return newLiteralMatcher(lit), nil
	}
	if n := programSize(re); n > MaxProgram {
		return nil, fmt.Errorf("compiles to about %d instructions, over the limit of %d: lower repetition counts such as {1000}, or split the pattern", n, MaxProgram)
	}
	if !c.multiline {
		lineOnly(re, c.crlf)
	}
	re = re.Simplify()
	prog, err := syntax.Compile(re)
	if err != nil {
		return nil, err
	}
	if len(prog.Inst) > MaxProgram {
		return nil, fmt.Errorf("compiles to %d instructions, over the limit of %d: lower repetition counts such as {1000}, or split the pattern", len(prog.Inst), MaxProgram)
	}
	isWord := isUnicodeWord
	if ascii {
		isWord = syntax.IsWordChar
	}
	need := needed(re)
	var pre *prefilter
	if !c.multiline {
		if pre = newPrefilter(literals(re)); pre == nil && len(need) == 1 {
			pre = newSetPrefilter(need[0])
		}
	}
	d := newDFA(prog, false, isWord)
	d.strict = true
	pike := newPike(prog, isWord)
	return &regexMatcher{
		dfa:       d,
		pike:      pike,
		backtrack: newBacktracker(prog, isWord, pike.ascii),
		prefilter: pre,
		need:      need,
		multiline: c.multiline,
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
// \A and \z mean its start and end). With crlf, a line end may follow a
// '\r' (`beta;$` matches "beta;\r").
func lineOnly(re *syntax.Regexp, crlf bool) {
	switch re.Op {
	case syntax.OpAnyChar:
		re.Op = syntax.OpAnyCharNotNL
	case syntax.OpCharClass:
		re.Rune = withoutNewline(re.Rune)
	case syntax.OpBeginText:
		re.Op = syntax.OpBeginLine
	case syntax.OpEndText, syntax.OpEndLine:
		re.Op = syntax.OpEndLine
		re.Flags &^= syntax.WasDollar
		if crlf {
			end := *re
			*re = syntax.Regexp{Op: syntax.OpConcat, Flags: re.Flags, Sub: []*syntax.Regexp{
				{Op: syntax.OpQuest, Sub: []*syntax.Regexp{{Op: syntax.OpLiteral, Rune: []rune{'\r'}}}},
				&end,
			}}
			return
		}
	}
	for _, sub := range re.Sub {
		lineOnly(sub, crlf)
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

func (l *literalMatcher) LocateAt(text []byte, from int, m *meter.Meter) (int, int, error) {
	if err := m.Spend((len(text) - from) / 8); err != nil {
		return -1, -1, err
	}
	i := bytes.Index(text[from:], l.lit)
	if i < 0 {
		return -1, -1, nil
	}
	return from + i, from + i + len(l.lit), nil
}

func (l *literalMatcher) Multiline() bool { return false }

// Required returns literals of which every match of m contains one, each
// as a sequence of byte sets (the bytes each position may have: a case
// variant's), or nil when m offers none. An index of file contents asks
// for them to pass over files that cannot match.
func Required(m Matcher) [][][]byte {
	var lits []literal
	switch m := m.(type) {
	case *literalMatcher:
		lits = []literal{exact(m.lit)}
	case *regexMatcher:
		lits = m.need
	case *wordMatcher:
		lits = m.need
	}
	if len(lits) == 0 {
		return nil
	}
	out := make([][][]byte, len(lits))
	for i, l := range lits {
		out[i] = l
	}
	return out
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
// one: the prefilter measured 20× on such patterns in wasm. A multiline
// matcher has no prefilter, and says where with the Pike VM from where the
// last match ended, once the DFA has said there is another.
type regexMatcher struct {
	dfa       *dfa
	pike      *pike
	backtrack *backtracker // the Pike VM's answer for a short text, faster
	prefilter *prefilter   // or nil
	// need: every match contains one (nil: none known), for the index
	// (need.go); the prefilter's are fewer (literals).
	need      []literal
	multiline bool
}

func (r *regexMatcher) Multiline() bool { return r.multiline }

func (r *regexMatcher) NextLine(buf []byte, from int, m *meter.Meter) (int, int, error) {
	if r.multiline {
		s, e, err := r.LocateAt(buf, from, m)
		if s < 0 || err != nil {
			return -1, -1, err
		}
		start, _, err := lineAround(buf, from, s, m)
		if err != nil {
			return -1, -1, err
		}
		_, end, err := lineAround(buf, start, max(s, e-1), m)
		return start, end, err
	}
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

func (r *regexMatcher) LocateAt(text []byte, from int, m *meter.Meter) (int, int, error) {
	s, e, _, err := r.find(text, from, m)
	return s, e, err
}

// find runs the Pike VM from from (start, end and capture group 1), after
// the DFA says there is a match at all: the Pike VM costs the text times
// the threads it runs. A line matcher is asked first for a line known to
// match, from 0, so the DFA is skipped there; then, after each match, for
// the next, which most lines do not hold.
func (r *regexMatcher) find(text []byte, from int, m *meter.Meter) (int, int, [2]int, error) {
	if r.multiline || from > 0 {
		if p, err := r.dfa.earliest(text, from, len(text), m); p < 0 || err != nil {
			return -1, -1, [2]int{}, err
		}
	}
	if r.backtrack.fits(text, from) {
		return r.backtrack.find(text, from, m)
	}
	return r.pike.find(text, from, m)
}

// wordMatcher is ripgrep's -w: the pattern wrapped as
// `(?:^|\W)(pattern)(?:$|\W)` says which lines match, and where is the
// capture group, as in ripgrep. Where, first as ripgrep finds it: the
// pattern alone, whose leftmost match is the word match when a non-word
// character (or the text's edge) is on each side of it; the wrapped
// pattern's Pike VM, which runs more threads, only when it is not (`make
// bench`, `grep -n -w err` on the Go tree: 3,554 ms with the Pike VM alone,
// 1,242 ms).
type wordMatcher struct {
	*regexMatcher
	inner Matcher // the pattern alone
}

func (w *wordMatcher) LocateAt(text []byte, from int, m *meter.Meter) (int, int, error) {
	s, e, err := w.inner.LocateAt(text, from, m)
	if s < 0 || err != nil {
		return -1, -1, err // no match of the pattern alone: none wrapped
	}
	if w.wordEdge(text, s, e) {
		return s, e, nil
	}
	s, _, g, err := w.find(text, from, m)
	if s < 0 || err != nil {
		return -1, -1, err
	}
	return g[0], g[1], nil
}

// wordEdge reports whether text[s:e] has a non-word character or the
// text's edge on each side.
func (w *wordMatcher) wordEdge(text []byte, s, e int) bool {
	if s > 0 {
		if r, _ := utf8.DecodeLastRune(text[:s]); w.dfa.isWord(r) {
			return false
		}
	}
	if e < len(text) {
		if r, _ := utf8.DecodeRune(text[e:]); w.dfa.isWord(r) {
			return false
		}
	}
	return true
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
