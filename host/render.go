package host

import (
	"fmt"
	"strings"

	"github.com/rootbound/rootbound/host/internal/escape"
	"github.com/rootbound/rootbound/host/internal/grouping"
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
	if n := r.results(); n > 0 {
		var what string
		switch {
		case r.Tool == "glob":
			what = plural(n, "file", "files") + " matching"
		case r.Mode == protocol.ModeContent && r.only:
			what = plural(n, "match", "matches") + " of"
		case r.Mode == protocol.ModeContent:
			what = plural(n, "matching line", "matching lines") + " for"
		case r.Mode == protocol.ModeCount:
			what = plural(n, "file", "files") + " with matches (matching lines per file) for"
		case r.Mode == protocol.ModeCountMatches:
			what = plural(n, "file", "files") + " with matches (matches per file) for"
		default:
			what = plural(n, "file", "files") + " with matches for"
		}
		lead := fmt.Sprintf("%d %s", n, what)
		switch {
		case r.offset > 0:
			lead = fmt.Sprintf("Results %d to %d: %s", r.offset+1, r.offset+n, lead)
		case d.Truncated:
			lead = "The first " + lead
		}
		fmt.Fprintf(&b, "%s %s in %q:\n", lead, r.patterns(), r.Path)
	}
	g := grouping.Groups{On: r.context}
	for _, it := range r.Items {
		p := escape.Path(string(it.Path))
		switch {
		case it.Text != nil:
			g.Line(&b, p, it.LineNumber, it.Context, escape.Line(string(*it.Text)))
		case it.Count > 0:
			fmt.Fprintf(&b, "%s:%d\n", p, it.Count)
		default:
			fmt.Fprintf(&b, "%s\n", p)
		}
	}
	if r.results() == 0 && d.Status == protocol.StatusComplete {
		what := "files match"
		if r.Tool == "grep" {
			what = "matches for"
		}
		fmt.Fprintf(&b, "No %s %s in %q.\n", what, r.patterns(), r.Path)
	}
	if d.Truncated {
		shown := fmt.Sprintf("the first %d results", d.Results)
		if r.offset > 0 {
			shown = fmt.Sprintf("results %d to %d", r.offset+1, r.offset+d.Results)
		}
		fmt.Fprintf(&b, "[Truncated: showing %s; %s.]\n", shown, d.Narrow)
	}
	if d.Error != nil {
		fmt.Fprintf(&b, "[Partial results (%s): %s]\n", d.Error.Code, d.Error.Message)
	}
	for _, p := range r.Problems {
		fmt.Fprintf(&b, "[Could not read %s: %s]\n", escape.Path(string(p.Path)), p.Message)
	}
	if s := skippedText(d.Skipped); s != "" {
		fmt.Fprintf(&b, "[Skipped: %s.]\n", s)
	}
	for _, line := range r.leftOut() {
		fmt.Fprintf(&b, "[Skipped: %s.]\n", line)
	}
	if d.IgnoredBy != "" {
		fmt.Fprintf(&b, "[Note: the path %s is ignored (%s); it was searched because it was named.]\n",
			escape.Path(r.Path), escape.Line(d.IgnoredBy))
	}
	return b.String()
}

// patterns names the call's patterns: the first, quoted, and how many more.
func (r *Result) patterns() string {
	q := fmt.Sprintf("%q", r.Pattern)
	if r.more > 0 {
		q += fmt.Sprintf(" (and %s)", plural64(int64(r.more), "1 more pattern", "more patterns"))
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

// leftOut says what rules left out and how to take it in: one sentence per
// reason, each naming the argument that turns it off.
func (r *Result) leftOut() []string {
	s := r.Done.Skipped
	var out []string
	if n := s.Ignored; n > 0 {
		out = append(out, fmt.Sprintf("%s matched by ignore files (.gitignore, .ignore, .rgignore, .git/info/exclude); pass no_ignore: true to include them",
			plural64(n, "1 path", "paths")))
	}
	if n := s.Hidden; n > 0 {
		how := "pass hidden: true to include them"
		if r.hides {
			how = "this root does not show hidden files"
		}
		out = append(out, fmt.Sprintf("%s (names starting with \".\"); %s", plural64(n, "1 hidden path", "hidden paths"), how))
	}
	if n := s.Denied; n > 0 {
		out = append(out, fmt.Sprintf("%s this root denies (never read)", plural64(n, "1 path", "paths")))
	}
	return out
}

// plural64 writes n with its noun: one as given, or "n many".
func plural64(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func skippedText(s Skipped) string {
	var parts []string
	add := func(n int64, one, many string) {
		switch {
		case n == 1:
			parts = append(parts, "1 "+one)
		case n > 1:
			parts = append(parts, fmt.Sprintf("%d %s", n, many))
		}
	}
	add(s.Binary, "binary file", "binary files")
	add(s.TooLarge, "file over the size cap", "files over the size cap")
	add(s.Unreadable, "unreadable path", "unreadable paths")
	add(s.Symlink, "symbolic link (links are not followed)", "symbolic links (links are not followed)")
	add(s.Special, "special file (FIFO, socket or device)", "special files (FIFOs, sockets or devices)")
	return strings.Join(parts, ", ")
}
