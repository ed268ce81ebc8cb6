// Package escape makes paths and lines safe to print: no byte of a file name
// or a file's contents can start a new output line, move the cursor or send
// a terminal escape, so a hostile tree cannot forge results.
package escape

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Path returns p as printed: as is when it holds only printable UTF-8 and
// does not start with a double quote; otherwise Go-quoted ("a\nb"), which is
// unambiguous.
func Path(p string) string {
	if !needsQuote(p, true) && !strings.HasPrefix(p, `"`) {
		return p
	}
	return fmt.Sprintf("%q", p)
}

// Line returns a line of text as printed: tabs kept, every other control
// character and every byte of invalid UTF-8 written as \xNN (\r as \r).
func Line(s string) string {
	if !needsQuote(s, false) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\r':
			b.WriteString(`\r`)
		case r != '\t' && r < 0x100 && isControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case r != '\t' && isControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needsQuote(s string, tabs bool) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || (isControl(r) && (tabs || r != '\t')) {
			return true
		}
		i += size
	}
	return false
}

// isControl covers C0, DEL, C1 and the Unicode line and paragraph
// separators, which some terminals and models take as line breaks.
func isControl(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r < 0xa0) || r == 0x2028 || r == 0x2029
}
