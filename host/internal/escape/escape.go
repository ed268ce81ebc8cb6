// Package escape makes paths and lines safe to print, by one rule that
// every text output of rootbound follows (Result.Text, the CLI, the Node
// host's printer; testdata/escape/cases.json holds them all to it):
//
//   - No byte of a name or a line can start a new output line, move the
//     cursor, send a terminal escape, hide or reorder text, or pass for
//     the punctuation results are printed with: C0 and C1 controls, DEL,
//     Unicode format characters (bidi controls such as U+202E and
//     U+2066–2069, zero-width ones such as U+200B and U+FEFF), line and
//     paragraph separators, spaces other than " " (U+00A0, U+3000, …),
//     characters that render blank (the Hangul fillers U+115F, U+1160,
//     U+3164, U+FFA0, the blank Braille pattern U+2800), variation
//     selectors (U+FE0F), look-alikes of ":" (U+FF1A, U+2236, …) and of
//     "/" (U+2215, U+2044, U+FF0F, …: "a∕b" is not a directory), a
//     combining mark with nothing to combine with (first, or after a
//     space, a tab, "/" or an escaped character) or past the fourth in a
//     row, and bytes that are not UTF-8 are written as escapes: \t \n \r,
//     \xNN (bytes and code points below U+0100), \uNNNN, \UNNNNNNNN
//     (lower-case hex, as Go writes them).
//   - A result can never pass for a notice or for another result. Every
//     notice line rootbound writes starts with "[" or holds a double quote;
//     a path is printed as it is only when it holds no character to
//     escape, no double quote, no backslash, no colon (which would make
//     "a.go:1:x" read as a grep result), no dash but "-", and no "-N-"
//     (which would make "a.go-1-x" read as a context line of a.go), is not
//     "--" (a separator of context groups), does not start with "[", does
//     not end in a remark in parentheses (" (symbolic link, not
//     followed)"), and does not start or end with a space. Any other path
//     is printed double-quoted, with `"` and `\` escaped too, so it reads back
//     unambiguously.
//   - A line's text (after path:N:) is escaped but never quoted: tabs stay.
//
// That rule is for text a model may read. A person at a terminal gets
// Shown (a path is quoted only when it holds a character to escape, as fd
// and rg print names); a list of paths a line, to a pipe, gets Piped (a
// path's bytes unless one breaks, hides or reorders its line, quoted then
// as git's core.quotePath quotes); a program that asks for exact bytes
// (-0, JSON) gets them: the printer picks (printer.Names).
package escape

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Path returns p as printed: as it is, or double-quoted and escaped.
func Path(p string) string {
	if !needsQuote(p) {
		return p
	}
	return quote(p)
}

// Shown returns p as a person at a terminal reads it: as it is, as rg and
// fd print names, unless it holds a character that could drive the
// terminal or hide text (the first rule above): then double-quoted and
// escaped, as Path writes it.
func Shown(p string) string {
	if !hazardous(p) {
		return p
	}
	return quote(p)
}

// Piped returns p as a list of paths a line prints it, for a program
// that reads lines (xargs, while read) and for a model reading the same
// output: p's bytes as they are, unless it holds a character that could
// break its line, hide itself or reorder what is around it (C0 and C1
// controls, DEL, Unicode format characters: the bidi controls, zero-width
// characters, the BOM; line and paragraph separators), a double quote or
// a backslash. Such a path is double-quoted as git's core.quotePath
// quotes a name: \a \b \t \n \v \f \r, \" and \\, each byte of
// another such character, and each byte that is not UTF-8, in octal
// (\342\200\256 for U+202E), every other character as it is (a name in
// CJK stays readable); strconv.Unquote, and git's own unquoting, read it
// back to the exact bytes. A path that needs none of it is printed as it
// is, bytes that are not UTF-8 included. So a name can never make a line of its own
// ("x\nfake.go:1:FORGED").
func Piped(p string) string {
	if !strings.ContainsFunc(p, func(r rune) bool { return breaksLine(r) || r == '"' || r == '\\' }) {
		return p
	}
	return gitQuote(p)
}

// PipedLine returns p as a line of grep's to a pipe begins with it
// ("path:N:text", as rg prints it): as Piped, and quoted too when it holds
// a colon, which would end the path early for a reader of the line (cut
// -d: -f1) and could make it pass for another path's line. A name rg's
// output hands to `cut -d: -f1 | xargs` is printed as rg prints it.
func PipedLine(p string) string {
	if strings.Contains(p, ":") {
		return gitQuote(p)
	}
	return Piped(p)
}

// gitQuote returns p double-quoted as git's core.quotePath quotes a name
// (Piped).
func gitQuote(p string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRuneInString(p[i:])
		switch {
		case size == 1 && r == utf8.RuneError:
			fmt.Fprintf(&b, "\\%03o", p[i]) // not UTF-8
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case breaksLine(r):
			if c := strings.IndexRune("\a\b\t\n\v\f\r", r); c >= 0 {
				b.WriteByte('\\')
				b.WriteByte("abtnvfr"[c])
				break
			}
			for _, c := range []byte(p[i : i+size]) {
				fmt.Fprintf(&b, "\\%03o", c)
			}
		default:
			b.WriteString(p[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

// breaksLine reports whether r, printed as it is, could break a line,
// hide itself or reorder the text around it: Piped quotes a path that
// holds one.
func breaksLine(r rune) bool {
	return r < 0x20 || 0x7f <= r && r < 0xa0 || r >= 0x80 && unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// quote returns p double-quoted, every hazardous rune, quote and backslash
// escaped.
func quote(p string) string {
	var b strings.Builder
	b.WriteByte('"')
	write(&b, p, true)
	b.WriteByte('"')
	return b.String()
}

// Line returns a line of text as printed: tabs kept, everything hazardous
// escaped.
func Line(s string) string {
	if !hazardous(s) {
		return s
	}
	var b strings.Builder
	write(&b, s, false)
	return b.String()
}

func needsQuote(p string) bool {
	return p == "" || p == "--" || hazardous(p) || strings.ContainsAny(p, "\"\\:\t") ||
		p[0] == '[' || p[0] == ' ' || p[len(p)-1] == ' ' || contextLike(p) || strings.ContainsFunc(p, dashLike) ||
		remarked(p)
}

// remarked reports whether p ends in a remark in parentheses, as the
// printers mark an entry (`lnk (symbolic link, not followed)`): a name
// "a (symbolic link, not followed)" is quoted, so it cannot pass for a
// link that was not followed.
func remarked(p string) bool { return strings.HasSuffix(p, ")") && strings.Contains(p, " (") }

// contextLike reports whether p holds "-N-", as a context line's prefix.
func contextLike(p string) bool {
	for i := strings.IndexByte(p, '-'); i >= 0 && i+1 < len(p); {
		j := i + 1
		for j < len(p) && '0' <= p[j] && p[j] <= '9' {
			j++
		}
		if j > i+1 && j < len(p) && p[j] == '-' {
			return true
		}
		k := strings.IndexByte(p[i+1:], '-')
		if k < 0 {
			return false
		}
		i += 1 + k
	}
	return false
}

// dashLike reports whether r is a dash other than "-": a path that holds
// one is quoted, so "a.go‐1‐x" cannot pass for a context line either.
func dashLike(r rune) bool { return r != '-' && (unicode.Is(unicode.Pd, r) || r == '\u2212') }

func hazardous(s string) bool {
	var sc scanner
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		bad := r == utf8.RuneError && size == 1
		if sc.escape(r, bad) && r != '\t' {
			return true
		}
		i += size
	}
	return false
}

// maxMarks is how many combining marks in a row print as they are: more
// stack into a column of ink over the lines around it.
const maxMarks = 4

// scanner decides rune by rune what is escaped; a combining mark depends
// on what came before it.
type scanner struct {
	prev        rune
	prevEscaped bool
	marks       int
	started     bool
}

// escape reports whether r (bad: a byte that is not UTF-8) is written as
// an escape, and moves past it.
func (sc *scanner) escape(r rune, bad bool) bool {
	mark := !bad && unicode.In(r, unicode.Mn, unicode.Me)
	var esc bool
	switch {
	case bad:
		esc = true
	case mark:
		esc = always(r) || !sc.started || sc.prevEscaped || sc.prev == ' ' || sc.prev == '\t' || sc.prev == '/' || sc.marks >= maxMarks
	default:
		esc = always(r)
	}
	if mark {
		sc.marks++
	} else {
		sc.marks = 0
	}
	sc.prev, sc.prevEscaped, sc.started = r, esc, true
	return esc
}

// always reports whether r is written as an escape wherever it stands.
func always(r rune) bool {
	switch {
	case r < 0x20 || (0x7f <= r && r < 0xa0):
		return true
	case r < 0x80:
		return false
	case unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) || unicode.Is(unicode.Zs, r):
		return true
	}
	switch r {
	case 0x115f, 0x1160, 0x3164, 0xffa0, 0x2800, // blank Hangul fillers, the blank Braille pattern
		0x02d0, 0x02f8, 0x0589, 0x05c3, 0x0703, 0x0704, 0x16ec, 0x1803, 0x1809, 0x205a, 0x2236, // look-alikes of ":"
		0xa4fd, 0xa789, 0xfe13, 0xfe30, 0xfe55, 0xff1a,
		0x1735, 0x2044, 0x2215, 0x29f8, 0x2f03, 0xff0f, 0x1d23a: // look-alikes of "/"
		return true
	}
	return 0xfe00 <= r && r <= 0xfe0f || 0xe0100 <= r && r <= 0xe01ef || 0x180b <= r && r <= 0x180f // variation selectors
}

// write writes s with every hazardous rune escaped (in a quoted path also
// tab, double quote and backslash).
func write(b *strings.Builder, s string, quoted bool) {
	var sc scanner
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		bad := r == utf8.RuneError && size == 1
		esc := sc.escape(r, bad)
		switch {
		case bad:
			fmt.Fprintf(b, `\x%02x`, s[i])
		case r == '\t' && !quoted:
			b.WriteByte('\t')
		case quoted && (r == '"' || r == '\\'):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case esc && r < 0x100:
			fmt.Fprintf(b, `\x%02x`, r)
		case esc && r < 0x10000:
			fmt.Fprintf(b, `\u%04x`, r)
		case esc:
			fmt.Fprintf(b, `\U%08x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
}
