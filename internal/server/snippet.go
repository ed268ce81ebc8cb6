package server

import "unicode/utf8"

// MaxLineBytes is the longest line a content result carries whole. A longer
// line (minified code, data) is cut to a window of about this size centred
// on the match, with "…" where bytes were cut, so one line cannot flood an
// agent's context.
const MaxLineBytes = 300

const ellipsis = "…"

// snippet returns line, or a window of it around col, and where the window
// is in line.
func snippet(line []byte, col int) (text string, from, to int) {
	if len(line) <= MaxLineBytes {
		return string(line), 0, len(line)
	}
	col = max(col, 0)
	start := col - MaxLineBytes/2
	if start < 0 {
		start = 0
	}
	end := start + MaxLineBytes
	if end > len(line) {
		end = len(line)
		start = end - MaxLineBytes
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
