package host

import (
	"fmt"
	"strings"

	"github.com/rootbound/rootbound/host/internal/escape"
	"github.com/rootbound/rootbound/host/internal/printer"
	"github.com/rootbound/rootbound/internal/match"
	"github.com/rootbound/rootbound/protocol"
)

// Text renders a result as an agent reads it: a line that counts the
// results, the results one per line (paths as rg and fd print them; content
// as path:line:text; count as path:count), then what the agent must know to
// trust them: an explicit "no matches", a truncation notice naming what to
// change, what was skipped and why, and any error. Every line that is not a
// result starts with "[" or holds a double quote, and names and lines are
// escaped (package escape), so no file name or content can forge a line or
// pass for a notice.
func (r *Result) Text() string {
	var b strings.Builder
	d := r.Done
	if d.Status == protocol.StatusFailed && d.Error != nil {
		fmt.Fprintf(&b, "[Error (%s): %s]\n", d.Error.Code, d.Error.Message)
		return b.String()
	}
	tl := toolNamed(r.Tool)
	if tl == nil {
		fmt.Fprintf(&b, "[Error (%s): a result of no tool (%q)]\n", protocol.CodeInternal, r.Tool)
		return b.String()
	}
	w := tl.words
	if w.text != nil {
		w.text(r, &b)
		return b.String()
	}
	if n := r.results(); n > 0 {
		what := w.found(r, n)
		lead := fmt.Sprintf("%d %s", n, what)
		switch {
		case r.offset > 0:
			lead = fmt.Sprintf("Results %d to %d: %s", r.offset+1, r.offset+n, lead)
		case d.Truncated && n == 1:
			lead = "The first " + what
		case d.Truncated:
			lead = "The first " + lead
		}
		if w.withPatterns {
			fmt.Fprintf(&b, "%s %s in %s:\n", lead, r.patterns(), match.Quote(r.Path))
		} else {
			fmt.Fprintf(&b, "%s in %s:\n", lead, match.Quote(r.Path))
		}
	}
	lines := printer.ModelLines(&b, r.grep)
	for _, it := range r.Items {
		lines.Write(it)
	}
	if r.results() == 0 && d.Status == protocol.StatusComplete {
		if w.withPatterns {
			fmt.Fprintf(&b, w.none+"\n", r.patterns(), match.Quote(r.Path))
		} else {
			fmt.Fprintf(&b, w.none+"\n", match.Quote(r.Path))
		}
		if r.Hint != "" {
			fmt.Fprintf(&b, "[Hint: %s.]\n", r.Hint)
		}
	}
	r.notices(&b, w)
	return b.String()
}

// notices writes what follows the results, in a model's words (package
// printer words every sentence): w's, for a truncated answer's notice.
func (r *Result) notices(b *strings.Builder, w words) {
	var t *printer.Truncation
	if w.matched != nil {
		one, many := w.matched(r)
		t = &printer.Truncation{One: one, Many: many, Where: escape.Path(r.Path), How: w.how,
			Offset: r.offset, Max: r.max, Results: r.Done.Results, Next: r.Done.NextOffset, Capped: r.Done.Capped, CapBytes: r.capBytes}
	}
	printer.ModelNotices(b, r.Path, r.Problems, r.Done, t, r.hides)
}

// grepFound names n results of a grep, by its output mode.
func grepFound(r *Result, n int) string {
	switch {
	case r.Mode == protocol.ModeContent && r.onlyMatching():
		return plural(n, "match", "matches") + " of"
	case r.Mode == protocol.ModeContent:
		return plural(n, "matching line", "matching lines") + " for"
	case r.Mode == protocol.ModeCount:
		return plural(n, "file", "files") + " with matches (matching lines per file) for"
	case r.Mode == protocol.ModeCountMatches:
		return plural(n, "file", "files") + " with matches (matches per file) for"
	case r.Mode == protocol.ModeFilesWithout:
		return plural(n, "file", "files") + " without a match for"
	}
	return plural(n, "file", "files") + " with matches for"
}

// globMatched is what one and many of a glob's results are, with its
// pattern.
func globMatched(r *Result) (string, string) {
	one, many := "file matches", "files match"
	if r.paths {
		one, many = "path matches", "paths match"
	}
	q := " " + match.Quote(r.Pattern)
	return one + q, many + q
}

// grepMatched is what one and many of a grep's results are.
func grepMatched(r *Result) (string, string) {
	switch {
	case r.Mode == protocol.ModeContent && r.onlyMatching():
		return "match", "matches"
	case r.Mode == protocol.ModeContent:
		return "line matches", "lines match"
	}
	return "file matches", "files match"
}

// onlyMatching: a grep whose every match is a result (-o).
func (r *Result) onlyMatching() bool { return r.grep != nil && r.grep.OnlyMatching }

// patterns names the call's patterns: the first, quoted, and how many more.
func (r *Result) patterns() string {
	q := match.Quote(r.Pattern)
	if r.grep != nil && len(r.grep.Patterns) > 0 {
		q += fmt.Sprintf(" (and %s)", printer.Count(int64(len(r.grep.Patterns)), "1 more pattern", "more patterns"))
	}
	return q
}

// results counts the items that are results: context lines are not.
func (r *Result) results() int {
	n := 0
	for _, it := range r.Items {
		if !it.Context {
			n++
		}
	}
	return n
}

// readText writes a read's answer: which lines of how many, the lines
// numbered as cat -n numbers them, then the notices.
func (r *Result) readText(b *strings.Builder) {
	d := r.Done
	path := match.Quote(r.Path)
	if len(r.Items) > 0 {
		path = match.Quote(string(r.Items[0].Path))
	}
	first := max(r.offset, 1)
	switch n := r.results(); {
	case n == 1:
		fmt.Fprintf(b, "Line %d of %s (%s):\n", first, path, printer.Count(int64(d.Lines), "1 line", "lines"))
	case n > 0:
		fmt.Fprintf(b, "Lines %d to %d of %s (%s):\n", first, first+n-1, path, printer.Count(int64(d.Lines), "1 line", "lines"))
	case d.Status == protocol.StatusComplete && d.Lines == 0:
		fmt.Fprintf(b, "%s is empty.\n", path)
	case d.Status == protocol.StatusComplete:
		fmt.Fprintf(b, "[%s has %s: offset %d is past its end.]\n", path, printer.Count(int64(d.Lines), "1 line", "lines"), first)
	}
	p := printer.Lines{W: b, Style: printer.Style{Numbered: true}}
	for _, it := range r.Items {
		p.Write(it)
	}
	r.notices(b, words{}) // a read's own notice needs no words
}

func plural(n int, one, many string) string { return printer.Plural(int64(n), one, many) }
