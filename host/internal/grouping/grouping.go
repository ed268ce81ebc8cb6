// Package grouping prints content results as ripgrep does without
// headings: "path:N:text" for a matching line, "path-N-text" for a context
// line, and, when context was asked for, "--" between groups of lines that
// are not next to each other (another file, or a gap).
package grouping

import (
	"fmt"
	"io"
)

// Separator is what goes between groups.
const Separator = "--"

// Groups tracks the last line printed, to know where a group ends.
type Groups struct {
	// On: context was asked for, so groups are separated.
	On bool

	path    string
	line    int
	printed bool
}

// Line writes one content line (path and text already escaped), after a
// separator when it starts a new group.
func (g *Groups) Line(w io.Writer, path string, number int, context bool, text string) {
	if g.On && g.printed && (path != g.path || number > g.line+1) {
		fmt.Fprintln(w, Separator)
	}
	g.path, g.line, g.printed = path, number, true
	sep := ':'
	if context {
		sep = '-'
	}
	fmt.Fprintf(w, "%s%c%d%c%s\n", path, sep, number, sep, text)
}
