// Package printer turns what a call found into text, for every reader
// rootbound has: Result.Text, which a model reads, and the rootbound
// command, which a person reads. One package writes the result lines
// (path, path:N:text, path-N-text, path:count, and "--" where the module
// marked a break), says what was left out and why, and how to narrow or
// page; each caller picks its vocabulary (Model tells of the tools'
// arguments, "pass offset: 100"; Shell of the command's flags, "--offset
// 100"). Names and lines go through package escape, so nothing a tree holds
// can pass for a line of the printer's own.
package printer

import (
	"fmt"
	"io"
	"strings"

	"github.com/rootbound/rootbound/host/internal/escape"
)

// Item is a result or a context line.
type Item struct {
	Path    string
	Line    int
	Text    *string
	Break   bool // the module marked a break before it: "--" first
	Context bool
	Count   int
}

// Separator goes between groups of context lines.
const Separator = "--"

// WriteItem writes it as rg and fd print results: the path, path:N:text,
// path-N-text for a context line, or path:count, after "--" when the
// module marked a break. prefix goes before the path (the command's PATH
// as it was typed).
func WriteItem(w io.Writer, prefix string, it Item) {
	path := escape.Path(prefix + it.Path)
	switch {
	case it.Line > 0:
		if it.Break {
			fmt.Fprintln(w, Separator)
		}
		sep, text := ':', "[Omitted long matching line]" // over max_columns, as rg -M prints it
		if it.Context {
			sep, text = '-', "[Omitted long context line]"
		}
		if it.Text != nil {
			text = escape.Line(*it.Text)
		}
		fmt.Fprintf(w, "%s%c%d%c%s\n", path, sep, it.Line, sep, text)
	case it.Count > 0:
		fmt.Fprintf(w, "%s:%d\n", path, it.Count)
	default:
		fmt.Fprintf(w, "%s\n", path)
	}
}

// Skipped counts what a call passed over, by reason.
type Skipped struct {
	Binary, TooLarge, Unreadable, Symlink, Special, Ignored, Hidden, Denied int64
}

// Vocab is what a printer tells its reader to change.
type Vocab struct {
	// NoIgnore, Hidden: how to include what ignore files, and hidden-file
	// rules, left out.
	NoIgnore, Hidden string
	// Offset: how to ask for the page at an offset (a format with %d).
	Offset string
}

// Model and Shell are the two vocabularies: the tools' arguments, the
// command's flags.
var (
	Model = Vocab{NoIgnore: "pass no_ignore: true to include them", Hidden: "pass hidden: true to include them", Offset: "pass offset: %d"}
	Shell = Vocab{NoIgnore: "--no-ignore includes them", Offset: "--offset %d"}
)

// Counted is the sentence of what was skipped whatever a call asks: binary
// files, files over the size cap, unreadable paths, links, special files.
func Counted(s Skipped) string {
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

// LeftOut says what rules left out, one sentence per reason, each naming
// how to take it in, in v's words; rootHides: the root hides hidden files
// whatever a call asks.
func LeftOut(s Skipped, rootHides bool, v Vocab) []string {
	var out []string
	if n := s.Ignored; n > 0 {
		out = append(out, fmt.Sprintf("%s matched by ignore files (.gitignore, .ignore, .rgignore, .git/info/exclude); %s",
			Count(n, "1 path", "paths"), v.NoIgnore))
	}
	if n := s.Hidden; n > 0 {
		how := v.Hidden
		if rootHides {
			how = "this root does not show hidden files"
		}
		line := fmt.Sprintf("%s (names starting with \".\")", Count(n, "1 hidden path", "hidden paths"))
		if how != "" {
			line += "; " + how
		}
		out = append(out, line)
	}
	if n := s.Denied; n > 0 {
		out = append(out, fmt.Sprintf("%s this root denies (never read)", Count(n, "1 path", "paths")))
	}
	return out
}

// Count writes n with its noun: one as given, or "n many".
func Count(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Plural picks the noun for n.
func Plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Problem is a path that could not be read.
type Problem struct{ Path, Message string }

// End is how a call ended, as the printer tells it.
type End struct {
	Results, NextOffset int
	Truncated           bool
	Skipped             Skipped
	IgnoredBy           string // the rule that ignores the search path, which was searched because it was named
	ErrCode, ErrMessage string
}

// Notices writes what the command says on stderr besides the results, in
// the Shell's words: the problems, files over the size cap (maxSizeMiB),
// what ignore files and hidden-file rules left out, a search path that is
// itself ignored, truncation and how to page, and the error. prefix is the
// PATH as typed.
func Notices(w io.Writer, prefix string, problems []Problem, e End, maxSizeMiB int) {
	for _, p := range problems {
		fmt.Fprintf(w, "rootbound: %s: %s\n", escape.Path(prefix+p.Path), p.Message)
	}
	s := e.Skipped
	if n := s.TooLarge; n > 0 {
		fmt.Fprintf(w, "rootbound: %d %s over %d MiB not searched (--max-filesize raises the cap)\n", n, Plural(n, "file", "files"), maxSizeMiB)
	}
	if n := s.Ignored; n > 0 {
		fmt.Fprintf(w, "rootbound: %d %s left out by ignore files (%s)\n", n, Plural(n, "path", "paths"), Shell.NoIgnore)
	}
	if n := s.Hidden; n > 0 {
		fmt.Fprintf(w, "rootbound: %d hidden %s left out\n", n, Plural(n, "path", "paths"))
	}
	if e.IgnoredBy != "" {
		fmt.Fprintf(w, "rootbound: %s is ignored (%s), searched because it was named\n", escape.Path(strings.TrimSuffix(prefix, "/")), escape.Line(e.IgnoredBy))
	}
	if e.Truncated {
		fmt.Fprintf(w, "rootbound: truncated at %d results: narrow the pattern or the path, raise --max-results, or pass "+Shell.Offset+" for the next page\n",
			e.Results, e.NextOffset)
	}
	if e.ErrCode != "" {
		fmt.Fprintf(w, "rootbound: %s: %s\n", e.ErrCode, e.ErrMessage)
	}
}
