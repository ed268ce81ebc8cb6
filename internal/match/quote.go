package match

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quote writes a pattern between double quotes as it was typed, its
// backslashes as they are; one that holds a quote, a control character or
// invalid UTF-8 is written in Go's syntax, which escapes them.
func Quote(s string) string {
	if strings.ContainsRune(s, '"') || !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) {
		return strconv.Quote(s)
	}
	return `"` + s + `"`
}
