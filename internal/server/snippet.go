package server

import (
	"unicode/utf8"
	"unsafe"
)

const ellipsis = "…"

// snippet returns line, or, when it is longer than width bytes (minified
// code, data), a window of width bytes centred on col, with "…" where bytes
// were cut (Limits.MaxTextBytes), and where the window is in line. Line
// itself comes back as a string over its bytes, not a copy: the caller
// encodes it before line changes.
func snippet(line []byte, col, width int) (text string, from, to int) {
	if len(line) <= width {
		return unsafe.String(unsafe.SliceData(line), len(line)), 0, len(line)
	}
	col = max(col, 0)
	start := col - width/2
	if start < 0 {
		start = 0
	}
	end := start + width
	if end > len(line) {
		end = len(line)
		start = end - width
	}
	// Do not split a UTF-8 sequence at either edge.
	for start > 0 && start < len(line) && !utf8.RuneStart(line[start]) {
		start--
	}
	for end < len(line) && !utf8.RuneStart(line[end]) {
		end++
	}
	s := string(line[start:end])
	if start > 0 {
		s = ellipsis + s
	}
	if end < len(line) {
		s += ellipsis
	}
	return s, start, end
}
