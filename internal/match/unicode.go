package match

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Perl classes as ripgrep has them. RE2, and Go's regexp/syntax, make \d,
// \s, \w and \b ASCII-only; ripgrep makes them Unicode-aware by default, and
// agents write patterns with ripgrep in mind (`^\w+$` over Greek, `\bΣ`). So
// a pattern's \d \s \w \D \S \W are rewritten, before it is parsed, to the
// classes ripgrep (Rust's regex, UTS #18) gives them, and \b \B use the same
// word characters:
//
//	\d  \p{Nd}
//	\s  White_Space
//	\w  Alphabetic, M, Nd, Pc, Join_Control
//
// `(?-u)` in a pattern turns this off, as in ripgrep; unlike ripgrep, for
// the whole pattern (Go's parser has no such flag, so it is taken out).
// POSIX classes ([[:alpha:]]) stay ASCII, as in ripgrep.

// perl holds a class's ranges as RE2 text, for use inside brackets: the
// class ("word") and its complement ("nonword").
type perl struct{ class, complement string }

var (
	perlOnce    sync.Once
	perlClasses map[byte]perl // by escape letter, lower case
	wordTable   *unicode.RangeTable
)

func perlTables() {
	perlOnce.Do(func() {
		word := merge(unicode.L, unicode.Nl, unicode.Other_Alphabetic, unicode.M, unicode.Nd, unicode.Pc, unicode.Join_Control)
		perlClasses = map[byte]perl{
			'd': rangesText(merge(unicode.Nd)),
			's': rangesText(merge(unicode.White_Space)),
			'w': rangesText(word),
		}
		wordTable = toTable(word)
	})
}

// isUnicodeWord reports whether r is a word character, as \w and \b see it.
func isUnicodeWord(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	perlTables()
	return unicode.Is(wordTable, r)
}

// merge returns the sorted, merged ranges (pairs lo, hi) of tables.
func merge(tables ...*unicode.RangeTable) [][2]rune {
	var rs [][2]rune
	add := func(lo, hi, stride rune) {
		if stride == 1 {
			rs = append(rs, [2]rune{lo, hi})
			return
		}
		for ; lo <= hi; lo += stride {
			rs = append(rs, [2]rune{lo, lo})
		}
	}
	for _, t := range tables {
		for _, r := range t.R16 {
			add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
		}
		for _, r := range t.R32 {
			add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
		}
	}
	slices.SortFunc(rs, func(a, b [2]rune) int { return int(a[0] - b[0]) })
	var out [][2]rune
	for _, r := range rs {
		if n := len(out); n > 0 && r[0] <= out[n-1][1]+1 {
			out[n-1][1] = max(out[n-1][1], r[1])
			continue
		}
		out = append(out, r)
	}
	return out
}

func rangesText(rs [][2]rune) perl {
	var b, c strings.Builder
	next := rune(0)
	for _, r := range rs {
		fmt.Fprintf(&b, `\x{%x}-\x{%x}`, r[0], r[1])
		if r[0] > next {
			fmt.Fprintf(&c, `\x{%x}-\x{%x}`, next, r[0]-1)
		}
		next = r[1] + 1
	}
	if next <= unicode.MaxRune {
		fmt.Fprintf(&c, `\x{%x}-\x{%x}`, next, unicode.MaxRune)
	}
	return perl{class: b.String(), complement: c.String()}
}

func toTable(rs [][2]rune) *unicode.RangeTable {
	t := &unicode.RangeTable{}
	for _, r := range rs {
		if r[1] <= 0xFFFF {
			t.R16 = append(t.R16, unicode.Range16{Lo: uint16(r[0]), Hi: uint16(r[1]), Stride: 1})
			continue
		}
		lo := r[0]
		if lo <= 0xFFFF {
			t.R16 = append(t.R16, unicode.Range16{Lo: uint16(lo), Hi: 0xFFFF, Stride: 1})
			lo = 0x10000
		}
		t.R32 = append(t.R32, unicode.Range32{Lo: uint32(lo), Hi: uint32(r[1]), Stride: 1})
	}
	return t
}

// MaxUnicodeClasses bounds the Unicode classes of a pattern: \d \s \w and
// their complements, each written out as ranges before the pattern is
// parsed (\w as about 750), and \p{...} and \P{...} (\pL is about 650).
// Parsing and compiling one costs about a millisecond in the module, with
// no host call in between, and leaves garbage the module's collector then
// marks: at 32 a host's ticker waited up to 115 ms, at 16 under 30 ms
// (make hostile, the rows "Unicode classes"). `(?-u)` makes \d \s \w
// ASCII, and free.
const MaxUnicodeClasses = 16

// unicodeProperties counts the \p and \P escapes of a pattern, inside
// classes or not.
func unicodeProperties(p string) int {
	n := 0
	for i := 0; i < len(p); i++ {
		if p[i] != '\\' || i+1 == len(p) {
			continue
		}
		i++
		if p[i] == 'p' || p[i] == 'P' {
			n++
		}
	}
	return n
}

// RE2 is a grep pattern as Go's regexp package reads it, with ripgrep's
// Unicode classes (\w \d \s): for a host that finds a match's groups again
// (rg -r), so that they are the module's.
func RE2(pattern string) string {
	out, _, _ := unicodePerl(pattern)
	return out
}

// unicodePerl rewrites the Perl classes of a pattern (well formed for Go's
// parser but for flags with "u") to ripgrep's Unicode classes, and takes
// the "u" flag out of flag groups. ascii reports a "-u": then the classes
// are left as they are, ASCII. n counts the classes rewritten.
func unicodePerl(p string) (out string, ascii bool, count int) {
	var b strings.Builder
	flagsOut := func(s string) string {
		// s is a group head "(?flags)" or "(?flags:"; "u" is not Go's.
		if !strings.ContainsRune(s, 'u') {
			return s
		}
		body, end := s[2:len(s)-1], s[len(s)-1:]
		on, off, _ := strings.Cut(body, "-")
		if strings.ContainsRune(off, 'u') {
			ascii = true
		}
		on, off = strings.ReplaceAll(on, "u", ""), strings.ReplaceAll(off, "u", "")
		flags := on
		if off != "" {
			flags += "-" + off
		}
		if flags == "" && end == ")" {
			return "" // "(?u)", "(?-u)": nothing left
		}
		return "(?" + flags + end
	}
	// First pass: flags, to know whether the classes stay ASCII.
	var heads []string
	for i := 0; i < len(p); {
		switch p[i] {
		case '\\':
			i += escape(p[i:], func(rune) {})
			continue
		case '[':
			i += class(p[i:], func(rune) {})
			continue
		case '(':
			n := groupHead(p[i:])
			heads = append(heads, flagsOut(p[i:i+n]))
			i += n
			continue
		}
		i++
	}
	perlTables()
	h := 0
	for i := 0; i < len(p); {
		switch c := p[i]; c {
		case '\\':
			n := escape(p[i:], func(rune) {})
			if n == 2 && !ascii {
				if pc, ok := perlClasses[p[i+1]|0x20]; ok {
					count++
					if p[i+1] >= 'a' {
						b.WriteString("[" + pc.class + "]")
					} else {
						b.WriteString("[" + pc.complement + "]")
					}
					i += 2
					continue
				}
			}
			b.WriteString(p[i : i+n])
			i += n
		case '[':
			n := class(p[i:], func(rune) {})
			cl, k := classPerl(p[i:i+n], ascii)
			b.WriteString(cl)
			count += k
			i += n
		case '(':
			n := groupHead(p[i:])
			b.WriteString(heads[h])
			h++
			i += n
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), ascii, count
}

// classPerl rewrites the Perl classes inside a bracket expression, and
// counts them.
func classPerl(s string, ascii bool) (string, int) {
	if ascii || !strings.Contains(s, `\`) {
		return s, 0
	}
	count := 0
	var b strings.Builder
	b.WriteByte('[')
	i := 1
	if i < len(s) && s[i] == '^' {
		b.WriteByte('^')
		i++
	}
	for first := true; i < len(s); first = false {
		switch {
		case s[i] == ']' && !first:
			b.WriteString(s[i:])
			return b.String(), count
		case strings.HasPrefix(s[i:], "[:"):
			if end := strings.Index(s[i:], ":]"); end > 0 {
				b.WriteString(s[i : i+end+2])
				i += end + 2
				continue
			}
			b.WriteByte('[')
			i++
		case s[i] == '\\':
			n := escape(s[i:], func(rune) {})
			if pc, ok := perlClasses[s[min(i+1, len(s)-1)]|0x20]; ok && n == 2 {
				count++
				if s[i+1] >= 'a' {
					b.WriteString(pc.class)
				} else {
					b.WriteString(pc.complement)
				}
			} else {
				b.WriteString(s[i : i+n])
			}
			i += n
		default:
			_, size := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+size])
			i += size
		}
	}
	return b.String(), count
}
