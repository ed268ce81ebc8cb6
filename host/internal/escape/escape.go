// Package escape makes paths and lines safe to print, by one rule that
// every text output of rootbound follows (Result.Text, the CLI, the Node
// host's printer; testdata/escape/cases.json holds them all to it):
//
//   - No byte of a name or a line can start a new output line, move the
//     cursor, send a terminal escape, or hide or reorder text: C0 and C1
//     controls, DEL, Unicode format characters (bidi controls such as
//     U+202E and U+2066–2069, zero-width ones such as U+200B and U+FEFF),
//     line and paragraph separators, and bytes that are not UTF-8 are
//     written as escapes: \t \n \r, \xNN (bytes and code points below
//     U+0100), \uNNNN, \UNNNNNNNN (lower-case hex, as Go writes them).
//   - A result can never pass for a notice. Every notice line rootbound
//     writes starts with "[" or holds a double quote; a path is printed as
//     it is only when it holds no character to escape, no double quote, no
//     backslash, no colon (which would make "a.go:1:x" read as a grep
//     result), does not start with "[", and does not start or end with a
//     space. Any other path is printed double-quoted, with `"` and `\`
//     escaped too, so it reads back unambiguously.
//   - A line's text (after path:N:) is escaped but never quoted: tabs stay.
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
	return p == "" || hazardous(p) || strings.ContainsAny(p, "\"\\:\t") ||
		p[0] == '[' || p[0] == ' ' || p[len(p)-1] == ' '
}

func hazardous(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || (r != '\t' && escaped(r)) {
			return true
		}
		i += size
	}
	return false
}

// escaped reports whether r is always written as an escape.
func escaped(r rune) bool {
	return r < 0x20 || (0x7f <= r && r < 0xa0) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// write writes s with every hazardous rune escaped (in a quoted path also
// tab, double quote and backslash).
func write(b *strings.Builder, s string, quoted bool) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
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
		case escaped(r) && r < 0x100:
			fmt.Fprintf(b, `\x%02x`, r)
		case escaped(r) && r < 0x10000:
			fmt.Fprintf(b, `\u%04x`, r)
		case escaped(r):
			fmt.Fprintf(b, `\U%08x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
}
