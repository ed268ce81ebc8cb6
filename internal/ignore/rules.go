// Package ignore decides which paths ignore files leave out, with git's
// semantics (gitignore(5), dir.c, wildmatch.c) and ripgrep's precedence
// among .rgignore, .ignore, .gitignore, .git/info/exclude and global
// excludes. It reads no file itself: its caller hands it the bytes, and
// package walk decides when (ripgrep's split: which files to search is
// decided here, apart from what is in them).
//
// Why by hand: of the Go gitignore libraries, none matched git on our
// queries (go-git 8 of 80 answers wrong, sabhiram 11, monochromegane 15,
// against `git ls-files -o -i --exclude-standard`); this one is tested
// against git itself on generated trees and rules (git_test.go).
package ignore

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/rootbound/rootbound/internal/match"
	"github.com/rootbound/rootbound/internal/meter"
)

// Verdict is what the rules say of a path.
type Verdict uint8

const (
	None   Verdict = iota // no rule matches
	Ignore                // the last matching rule ignores it
	Keep                  // the last matching rule is a negation ("!x")
)

// Rules are the rules of one ignore file, in file order.
type Rules struct {
	// Source names the file in notes: ".gitignore", "src/.ignore".
	Source string
	rules  []rule
	// Rules without wildcards are looked up, not matched: most rules of
	// real ignore files are names ("node_modules") or paths ("/dist").
	names map[string][]int32 // literal base-name rules, ascending
	paths map[string][]int32 // literal path rules, ascending
	// exts: "*" and an extension ("*.o"), by the extension (".o"), as
	// ripgrep's globset looks them up: a C project's ignore files are
	// mostly these.
	exts map[string][]int32
	// The lengths and last bytes of the keys of names, paths and exts: a
	// key of another length or last byte is not looked up, whose hash in
	// wasm costs more than the rest of a lookup.
	nameKeys, pathKeys, extKeys keySet
	other                       []int32 // the rest, ascending
	// Long counts the rules longer than MaxRuleBytes, which are not
	// applied; FirstLong is the line of the first.
	Long, FirstLong int
}

// MaxRuleBytes bounds one rule: a longer one is not applied (and counted
// in Rules.Long, so the caller can say so). A path is at most 4,096 bytes
// (PATH_MAX), and compiling one rule is a stretch of work with no look at
// the deadline: a single rule of 7 MiB took 1.3 s natively to compile, and
// stalled a wazero host for half a second.
const MaxRuleBytes = 4096

type rule struct {
	text     string // the line as written (trimmed), for notes
	line     int
	pattern  string // without "!", a trailing "/" and, for a path, a leading "/"
	negative bool
	dirOnly  bool   // a trailing "/": directories only
	basename bool   // no "/" but a trailing one: matches a base name at any depth
	suffix   string // "*" then a literal: compared, not matched
	wm       *match.Wildmatch
	// What any subject wm matches starts and ends with (the pattern's
	// text before its first wildcard and after its last), and the longest
	// text it holds between wildcards ("*.o.*": ".o."): compared first,
	// so most subjects never reach the matcher.
	head, tail, mid string
	// The shortest subject the rule can match, and the byte it must start
	// and the byte it must end with (-1: any), from suffix, head and tail:
	// three comparisons that turn most subjects away before a call (in
	// wasm each of HasSuffix, HasPrefix and Contains is one, and the rules
	// were seven times their native cost).
	minLen      int
	first, last int16
	// midBytes are the bytes of mid: a subject that lacks one of them
	// is turned away before Contains looks for it.
	midBytes [4]uint64
}

// Parse reads the rules of an ignore file as git does (dir.c,
// add_patterns_from_buffer): a UTF-8 byte order mark at the start is
// skipped; lines end at "\n", and a "\r" before it is dropped; empty lines
// and lines starting with "#" are skipped; trailing spaces are dropped
// unless escaped with "\"; "!" negates; a trailing "/" matches directories
// only; a pattern without any other "/" matches a base name at any depth,
// and one with a "/" the path below the file's directory (a leading "/"
// only anchors).
func Parse(data []byte, source string) *Rules {
	r, _ := ParseLimited(data, source, nil, -1)
	return r
}

// ErrTooManyRules is ParseLimited's error for a file with more rules that
// need a matcher of their own than it may compile.
var ErrTooManyRules = errors.New("ignore: too many rules with wildcards")

// compileCost is what compiling a rule with wildcards charges a meter,
// per byte of the rule: compiling takes about as long as scanning that
// many bytes.
const compileCost = 64

// ParseLimited is Parse for files a stranger wrote: it charges m (which
// may be nil) as it compiles, and stops with m's error, or with
// ErrTooManyRules once more than maxWild rules would need a matcher of
// their own (a negative maxWild: no bound). So an ignore file of millions
// of rules costs no more than a call may spend.
func ParseLimited(data []byte, source string, m *meter.Meter, maxWild int) (*Rules, error) {
	r := &Rules{Source: source, names: map[string][]int32{}, paths: map[string][]int32{}, exts: map[string][]int32{}}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	wild := 0
	for n := 1; len(data) > 0; n++ {
		line, rest, _ := bytes.Cut(data, []byte("\n"))
		data = rest
		if err := m.Spend(len(line) + 1); err != nil {
			return r, err
		}
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) > MaxRuleBytes {
			if r.Long++; r.Long == 1 {
				r.FirstLong = n
			}
			continue
		}
		if r.add(trimTrailingSpaces(string(line)), n) {
			if wild++; maxWild >= 0 && wild > maxWild {
				return r, ErrTooManyRules
			}
			if err := m.Spend(compileCost * len(line)); err != nil {
				return r, err
			}
		}
	}
	return r, nil
}

// trimTrailingSpaces drops trailing spaces that no backslash escapes
// (dir.c, trim_trailing_spaces).
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i == len(s) {
				return s
			}
			fallthrough
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

// add parses one pattern (dir.c, parse_path_pattern) and reports whether
// it compiled a matcher for it.
func (r *Rules) add(text string, line int) bool {
	ru := rule{text: text, line: line}
	p := text
	if strings.HasPrefix(p, "!") {
		ru.negative = true
		p = p[1:]
	}
	if strings.HasSuffix(p, "/") {
		ru.dirOnly = true
		p = p[:len(p)-1]
	}
	ru.basename = !strings.Contains(p, "/")
	if !ru.basename {
		p = strings.TrimPrefix(p, "/")
	}
	ru.pattern = p
	literal := !strings.ContainsAny(p, `*?[\`)
	idx := int32(len(r.rules))
	switch {
	case literal && ru.basename:
		r.names[p] = append(r.names[p], idx)
		r.nameKeys.add(p)
	case literal:
		r.paths[p] = append(r.paths[p], idx)
		r.pathKeys.add(p)
	case ru.basename && len(p) > 2 && p[0] == '*' && p[1] == '.' && !strings.ContainsAny(p[2:], `*?[\.`):
		r.exts[p[1:]] = append(r.exts[p[1:]], idx)
		r.extKeys.add(p[1:])
	default:
		if ru.basename && len(p) > 1 && p[0] == '*' && !strings.ContainsAny(p[1:], `*?[\`) {
			ru.suffix = p[1:]
		} else {
			ru.wm = match.CompileWildmatch(p)
			if !strings.Contains(p, "**") { // "**/" may match nothing, "/" and all
				ru.head = p[:strings.IndexAny(p, `*?[\`)]
				ru.tail = p[strings.LastIndexAny(p, `*?[]\`)+1:]
				ru.mid = middle(p)
			}
		}
		ru.first, ru.last = -1, -1
		lit := ru.tail
		if ru.suffix != "" {
			lit = ru.suffix
		}
		if ru.head != "" {
			ru.first = int16(ru.head[0])
		}
		if lit != "" {
			ru.last = int16(lit[len(lit)-1])
		}
		ru.minLen = len(ru.head) + len(lit)
		for i := 0; i < len(ru.mid); i++ {
			ru.midBytes[ru.mid[i]>>6] |= 1 << (ru.mid[i] & 63)
		}
		r.other = append(r.other, idx)
	}
	r.rules = append(r.rules, ru)
	return ru.wm != nil
}

// keySet is what a set of keys' lengths and last bytes are: bit n of
// lens for a key of n bytes (63: 63 or more), bit b of last for one that
// ends with byte b.
type keySet struct {
	lens  uint64
	last  [4]uint64
	empty bool // "" is one
}

func (k *keySet) add(s string) {
	if s == "" {
		k.empty = true
		return
	}
	k.lens |= 1 << min(len(s), 63)
	k.last[s[len(s)-1]>>6] |= 1 << (s[len(s)-1] & 63)
}

// may says whether s may be one of the keys.
func (k *keySet) may(s string) bool {
	if s == "" {
		return k.empty
	}
	return k.lens&(1<<min(len(s), 63)) != 0 && k.last[s[len(s)-1]>>6]&(1<<(s[len(s)-1]&63)) != 0
}

// middle returns the longest run of literal text in the wildcard pattern
// p, outside its bracket expressions and escapes: text every subject that
// p matches holds. It returns "" when a bracket expression holds a class
// ("[[:alpha:]]", whose first "]" does not end it) or is not closed.
func middle(p string) string {
	best, run := "", 0
	take := func(end int) {
		if end-run > len(best) {
			best = p[run:end]
		}
	}
	for i := 0; i < len(p); {
		switch p[i] {
		case '*', '?':
			take(i)
			i++
		case '\\':
			take(i)
			i += 2 // the escaped byte is in no run
		case '[':
			take(i)
			j := i + 1
			if j < len(p) && (p[j] == '!' || p[j] == '^') {
				j++
			}
			if j < len(p) && p[j] == ']' {
				j++
			}
			for j < len(p) && p[j] != ']' {
				if p[j] == '[' {
					return "" // "[:", "[=", "[." open a class inside
				}
				if p[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(p) {
				return ""
			}
			i = j + 1
		default:
			i++
			continue
		}
		run = min(i, len(p))
	}
	take(len(p))
	return best
}

// Len is the number of rules.
func (r *Rules) Len() int { return len(r.rules) }

// Wild is the number of rules that need a matcher of their own (those
// with wildcards, other than "*" and a literal): what rules cost in memory,
// about 4 KiB each.
func (r *Rules) Wild() int {
	n := 0
	for _, i := range r.other {
		if r.rules[i].wm != nil {
			n++
		}
	}
	return n
}

// Match says what the rules say of path, a "/"-separated path relative to
// the directory of the file (a rule's base), and which rule said it (-1
// for None): the last rule that matches decides. m, which may be nil, is
// charged for matching.
func (r *Rules) Match(path string, isDir bool, m *meter.Meter) (Verdict, int) {
	base := path
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		base = path[i+1:]
	}
	best := int32(-1)
	last := func(idx []int32) {
		for j := len(idx) - 1; j >= 0 && idx[j] > best; j-- {
			if isDir || !r.rules[idx[j]].dirOnly {
				best = idx[j]
				return
			}
		}
	}
	if r.nameKeys.may(base) {
		last(r.names[base])
	}
	if r.pathKeys.may(path) {
		last(r.paths[path])
	}
	if i := strings.LastIndexByte(base, '.'); i >= 0 && r.extKeys.may(base[i:]) {
		last(r.exts[base[i:]])
	}
	var bytes [4]uint64
	bytesKnown := false
	for j := len(r.other) - 1; j >= 0 && r.other[j] > best; j-- {
		ru := &r.rules[r.other[j]]
		if ru.dirOnly && !isDir {
			continue
		}
		subject := path
		if ru.basename {
			subject = base
		}
		if n := len(subject); n < ru.minLen || ru.first >= 0 && subject[0] != byte(ru.first) || ru.last >= 0 && subject[n-1] != byte(ru.last) {
			continue
		}
		if ru.mid != "" {
			if !bytesKnown {
				// The bytes of path (base's are among them), once.
				for i := 0; i < len(path); i++ {
					bytes[path[i]>>6] |= 1 << (path[i] & 63)
				}
				bytesKnown = true
			}
			if bytes[0]&ru.midBytes[0] != ru.midBytes[0] || bytes[1]&ru.midBytes[1] != ru.midBytes[1] ||
				bytes[2]&ru.midBytes[2] != ru.midBytes[2] || bytes[3]&ru.midBytes[3] != ru.midBytes[3] {
				continue
			}
		}
		var ok bool
		if ru.wm == nil {
			ok = strings.HasSuffix(subject, ru.suffix)
		} else {
			ok = strings.HasPrefix(subject, ru.head) && strings.HasSuffix(subject, ru.tail) &&
				strings.Contains(subject, ru.mid) && ru.wm.Match(subject, m)
		}
		if ok {
			best = r.other[j]
			break
		}
	}
	switch {
	case best < 0:
		return None, -1
	case r.rules[best].negative:
		return Keep, int(best)
	}
	return Ignore, int(best)
}

// Describe names rule i for a note: `.gitignore:3 "build/"`.
func (r *Rules) Describe(i int) string {
	if i < 0 || i >= len(r.rules) {
		return r.Source
	}
	return fmt.Sprintf("%s:%d %q", r.Source, r.rules[i].line, r.rules[i].text)
}
