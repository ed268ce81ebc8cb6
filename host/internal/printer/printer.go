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
	"strconv"
	"strings"

	"github.com/rivo/uniseg"

	"github.com/rootbound/rootbound/host/internal/escape"
	"github.com/rootbound/rootbound/protocol"
)

// Separator goes between groups of context lines.
const Separator = "--"

// ModelLines writes items to w as a model reads results (and rg -n -H
// --no-heading prints them): the path, path:N:text, path-N-text for a
// context line, or path:count, after "--" when the module marked a break.
// grep: the call's arguments, if it is a grep.
func ModelLines(w io.Writer, grep *protocol.GrepArgs) *Lines {
	return &Lines{W: w, Style: Style{Filename: true, LineNumbers: true, Grep: grep}}
}

// Names is how a Style prints names: for whom.
type Names uint8

const (
	// NamesModel: a name can never pass for a result or a notice
	// (escape.Path): for text a model may read, as an agent reads a
	// command's output through a pipe.
	NamesModel Names = iota
	// NamesShown: as rg and fd show names, quoted only when a character
	// must be escaped (escape.Shown): for a person at a terminal.
	NamesShown
	// NamesExact: a name's bytes as they are: for a program that asks for
	// them (-0), which reads what it was given.
	NamesExact
	// NamesPiped: output to a pipe: a name's bytes, unless one could
	// break its line or reorder it (escape.Piped, as git's core.quotePath
	// quotes), or, before a line's text or a count, holds a colon
	// (escape.PipedLine): for xargs, cut and while-read loops, and for a
	// model that reads the same output.
	NamesPiped
)

// Style is how results are printed, as rg and fd print them.
type Style struct {
	Names       Names
	Filename    bool // the path before each line (or above them, Heading)
	Heading     bool // the path on a line of its own above its lines, a blank line between files (rg --heading)
	LineNumbers bool // rg -n
	Column      bool // the column of the first match after the line number (rg --column)
	Vimgrep     bool // a line per match, path:N:column:text (rg --vimgrep)
	Color       bool // rg's colours: paths magenta, line numbers green, matches bold red
	Null        bool // a NUL byte after each path, in place of what follows it (rg -0, fd -0)
	Numbered    bool // a read's lines: the number right-aligned in six columns, a tab, the text (cat -n)
	Trim        bool // a line's leading ASCII white space left out (rg --trim); columns stay the line's
	// Grep is the grep call's arguments, for those that change how a line
	// prints (max_columns_preview); nil: none do.
	Grep *protocol.GrepArgs
}

// Lines writes items in a Style. It remembers the last path, for headings.
type Lines struct {
	W      io.Writer
	Prefix string // before every path (the command's PATH as typed)
	Style
	last  string
	wrote bool
}

// rg's colours, as it writes them.
const (
	reset     = "\x1b[0m"
	colorPath = "\x1b[0m\x1b[35m"
	colorLine = "\x1b[0m\x1b[32m"
	colorCol  = "\x1b[0m"
	colorHit  = "\x1b[0m\x1b[1m\x1b[31m"
)

func (p *Lines) paint(color, s string) string {
	if !p.Color {
		return s
	}
	return color + s + reset
}

// Write writes one item.
func (p *Lines) Write(it protocol.Item) {
	if p.Numbered && it.LineNumber > 0 {
		text := "[Omitted long line]"
		if it.Text != nil {
			text = escape.Line(string(*it.Text))
		}
		fmt.Fprintf(p.W, "%6d\t%s\n", it.LineNumber, text)
		return
	}
	shown := p.Prefix + string(it.Path)
	if it.Path == "./" && p.Prefix != "" { // stat of the directory PATH names
		shown = p.Prefix
	}
	path := p.paint(colorPath, p.name(shown, it.LineNumber > 0 || it.Count > 0))
	switch it.Kind {
	case "file":
		if it.Count > 0 { // stat's file: its lines too
			fmt.Fprintf(p.W, "%s (%s, %s)\n", path, Count(it.Size, "1 byte", "bytes"), Count(int64(it.Count), "1 line", "lines"))
			return
		}
		fmt.Fprintf(p.W, "%s (%s)\n", path, Count(it.Size, "1 byte", "bytes"))
		return
	case "symlink":
		fmt.Fprintf(p.W, "%s (symbolic link, not followed)\n", path)
		return
	}
	if it.LineNumber == 0 {
		switch {
		case p.Null && it.Count > 0:
			fmt.Fprintf(p.W, "%s\x00%d\n", path, it.Count)
		case p.Null:
			fmt.Fprintf(p.W, "%s\x00", path)
		case it.Count > 0 && p.Filename:
			fmt.Fprintf(p.W, "%s:%d\n", path, it.Count)
		case it.Count > 0:
			fmt.Fprintf(p.W, "%d\n", it.Count)
		default:
			fmt.Fprintf(p.W, "%s\n", path)
		}
		return
	}
	heading := p.Heading && !p.Vimgrep && p.Filename
	newFile := string(it.Path) != p.last || !p.wrote
	switch {
	case heading && newFile:
		if p.wrote {
			fmt.Fprintln(p.W)
		}
		if p.Null {
			fmt.Fprintf(p.W, "%s\x00", path)
		} else {
			fmt.Fprintln(p.W, path)
		}
	case it.Break:
		fmt.Fprintln(p.W, Separator)
	}
	p.last, p.wrote = string(it.Path), true
	sep := ":"
	text := "[Omitted long matching line]" // over max_columns, as rg -M prints it
	if it.Context {
		sep, text = "-", "[Omitted long context line]"
	}
	var lead strings.Builder
	if p.Filename && !heading {
		lead.WriteString(path)
		if p.Null {
			lead.WriteByte(0)
		} else {
			lead.WriteString(sep)
		}
	}
	if p.LineNumbers || p.Column || p.Vimgrep {
		lead.WriteString(p.paint(colorLine, strconv.Itoa(it.LineNumber)))
		lead.WriteString(sep)
	}
	if it.Text == nil {
		fmt.Fprintf(p.W, "%s%s\n", lead.String(), text)
		return
	}
	columns := (p.Column || p.Vimgrep) && !it.Context && len(it.Submatches) > 0
	text, cut, tail := string(*it.Text), 0, ""
	if g := p.Grep; g != nil && g.MaxColumnsPreview && g.MaxColumns > 0 && len(text) > g.MaxColumns {
		text, tail = p.preview(text, it, g.MaxColumns, columns || g.OnlyMatching)
	}
	if p.Trim {
		trimmed := strings.TrimLeft(text, " \t\n\v\f\r")
		text, cut = trimmed, len(text)-len(trimmed)
	}
	if p.Vimgrep && columns {
		for _, sp := range it.Submatches {
			fmt.Fprintf(p.W, "%s%s:%s%s\n", lead.String(), p.paint(colorCol, strconv.Itoa(sp.Start+1)), p.text(text, shift([]protocol.Span{sp}, cut)), tail)
		}
		return
	}
	if columns {
		lead.WriteString(p.paint(colorCol, strconv.Itoa(it.Submatches[0].Start+1)))
		lead.WriteString(sep)
	}
	spans := shift(it.Submatches, cut)
	if it.Context {
		spans = nil
	}
	fmt.Fprintf(p.W, "%s%s%s\n", lead.String(), p.text(text, spans), tail)
}

// preview is a long line's first n characters (grapheme clusters) and
// what follows them, as rg --max-columns-preview prints it: how many
// matches start past the cut when it reads a line's matches (colour,
// columns, -o), else that the end was left out. (With -o, rg's count is
// not followed: it counts matches of the line that are not after the cut.)
func (p *Lines) preview(text string, it protocol.Item, n int, matches bool) (string, string) {
	end, rest := 0, text
	for i := 0; i < n && rest != ""; i++ {
		cluster, r, _, _ := uniseg.FirstGraphemeClusterInString(rest, -1)
		end, rest = end+len(cluster), r
	}
	if it.Context || !p.Color && !matches {
		return text[:end], " [... omitted end of long line]"
	}
	more := 0
	for _, sp := range it.Submatches {
		if sp.Start >= end {
			more++
		}
	}
	return text[:end], " [... " + Count(int64(more), "1 more match", "more matches") + "]"
}

// shift moves spans cut bytes left, for a text that lost its first cut
// bytes; a span in them shrinks or goes.
func shift(spans []protocol.Span, cut int) []protocol.Span {
	if cut == 0 {
		return spans
	}
	out := make([]protocol.Span, 0, len(spans))
	for _, sp := range spans {
		if sp.End > cut {
			out = append(out, protocol.Span{Start: max(sp.Start-cut, 0), End: sp.End - cut})
		}
	}
	return out
}

// BinaryMatch writes what rg writes of a binary file a PATH named that
// holds a match, in place of its lines: "binary file matches", after the
// path as a line's (Filename). rg adds where the first NUL byte is, which
// the module does not say.
func (p *Lines) BinaryMatch(it protocol.Item) {
	if p.Filename {
		fmt.Fprintf(p.W, "%s: ", p.paint(colorPath, p.name(p.Prefix+string(it.Path), true)))
	}
	fmt.Fprintln(p.W, `binary file matches (found "\0" byte)`)
}

// name is a path as the Style's reader gets it; line: it begins a line
// of text or a count ("path:N:text", "path:N").
func (p *Lines) name(s string, line bool) string {
	switch p.Names {
	case NamesExact:
		return s
	case NamesPiped:
		if line {
			return escape.PipedLine(s)
		}
		return escape.Piped(s)
	case NamesShown:
		return escape.Shown(s)
	}
	return escape.Path(s)
}

// text is a line's text, escaped, its matches coloured when colour is on.
func (p *Lines) text(s string, spans []protocol.Span) string {
	if !p.Color || len(spans) == 0 {
		return escape.Line(s)
	}
	var b strings.Builder
	at := 0
	for _, sp := range spans {
		end := min(sp.End, len(s)) // a match a preview cuts is coloured up to the cut, as rg does
		if sp.Start < at || sp.Start >= end {
			continue
		}
		b.WriteString(escape.Line(s[at:sp.Start]))
		b.WriteString(colorHit + escape.Line(s[sp.Start:end]) + reset)
		at = end
	}
	b.WriteString(escape.Line(s[at:]))
	return b.String()
}

// Size writes a byte count as people do: 8 MiB, 512 KiB, 100 bytes.
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n == 1:
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// Skipped counts what a call passed over, by reason.
type Skipped = protocol.Skipped

// Vocab is what a printer tells its reader to change.
type Vocab struct {
	// NoIgnore, Hidden: how to include what ignore files, and hidden-file
	// rules, left out.
	NoIgnore, Hidden string
	// Offset: how to ask for the page at an offset (a format with %d).
	Offset string
	// MaxResults: how to ask for more results at once.
	MaxResults string
}

// Model and Shell are the two vocabularies: the tools' arguments, the
// command's flags.
var (
	Model = Vocab{NoIgnore: "pass no_ignore: true to include them", Hidden: "pass hidden: true to include them", Offset: "pass offset: %d", MaxResults: "raise max_results"}
	Shell = Vocab{NoIgnore: "--no-ignore includes them", Offset: "--offset %d", MaxResults: "raise --max-results"}
)

// Truncation is what the notice of a truncated answer tells, from the
// facts the module sends (done's truncated, capped, next_offset) and the
// call's: what matched, one and many ("line matches", "lines match");
// where; how to get fewer; the results skipped (Offset), asked for (Max)
// and sent; and, when the output byte cap cut the answer (Capped), the cap.
type Truncation struct {
	One, Many, Where, How      string
	Offset, Max, Results, Next int
	Capped                     bool
	CapBytes                   int64
}

// Narrow says, in v's words, why an answer was truncated and how to get
// the rest: fewer results, more at once, or the next page.
func (v Vocab) Narrow(t Truncation) string {
	next := fmt.Sprintf(v.Offset, t.Next)
	if t.Capped {
		return fmt.Sprintf("the results filled the %d bytes this host takes from one call after %d of them (%s in %s): %s, or %s for the next page",
			t.CapBytes, t.Results, t.Many, t.Where, t.How, next)
	}
	what := t.Many
	if t.Offset+t.Max == 1 {
		what = t.One
	}
	return fmt.Sprintf("more than %d %s in %s: %s, %s, or %s for the next page", t.Offset+t.Max, what, t.Where, t.How, v.MaxResults, next)
}

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

// End is how a call ended, as the printer tells it.
type End struct {
	Results, NextOffset int
	Truncated           bool
	Skipped             Skipped
	IgnoredBy           string // the rule that ignores the search path, which was searched because it was named
	ErrCode, ErrMessage string
	Lines               int // a read's: the file's line count
}

// Notices writes what the command says on stderr after a call besides
// its results, whatever it found: the problems, a search path that is
// itself ignored, truncation and how to page, and the error. prefix is the
// PATH as typed.
func Notices(w io.Writer, prefix string, problems []protocol.Problem, e End) {
	for _, p := range problems {
		fmt.Fprintf(w, "rootbound: %s: %s\n", escape.Path(prefix+string(p.Path)), p.Message)
	}
	if e.IgnoredBy != "" {
		fmt.Fprintf(w, "rootbound: %s is ignored (%s), searched because it was named\n", escape.Path(strings.TrimSuffix(prefix, "/")), escape.Line(e.IgnoredBy))
	}
	if e.Truncated && e.Lines > 0 {
		fmt.Fprintf(w, "rootbound: the file has %s; this printed up to line %d: "+Shell.Offset+" reads on\n",
			Count(int64(e.Lines), "1 line", "lines"), e.NextOffset-1, e.NextOffset)
	} else if e.Truncated {
		fmt.Fprintf(w, "rootbound: truncated at %s: narrow the pattern or the path, raise --max-results, or pass "+Shell.Offset+" for the next page\n",
			Count(int64(e.Results), "1 result", "results"), e.NextOffset)
	}
	if e.ErrCode != "" {
		fmt.Fprintf(w, "rootbound: %s: %s\n", e.ErrCode, e.ErrMessage)
	}
}

// ModelNotices writes, a bracketed line each, what follows a model's
// results: a read's place in its file, or how a truncated answer was cut
// and how to get the rest (t); a partial call's error; the problems; what
// was skipped and why (rootHides: the root hides hidden files); and a
// search path (path) that is itself ignored.
func ModelNotices(w io.Writer, path string, problems []protocol.Problem, d protocol.Done, t *Truncation, rootHides bool) {
	switch {
	case d.Truncated && d.Lines > 0:
		fmt.Fprintf(w, "[Truncated: the file has %s; this answer ends at line %d: "+Model.Offset+" to read on.]\n",
			Count(int64(d.Lines), "1 line", "lines"), d.NextOffset-1, d.NextOffset)
	case d.Truncated && t != nil:
		shown := fmt.Sprintf("the first %d results", t.Results)
		switch {
		case t.Offset > 0:
			shown = fmt.Sprintf("results %d to %d", t.Offset+1, t.Offset+t.Results)
		case t.Results == 1:
			shown = "the first result"
		}
		fmt.Fprintf(w, "[Truncated: showing %s; %s.]\n", shown, Model.Narrow(*t))
	}
	if d.Error != nil {
		fmt.Fprintf(w, "[Partial results (%s): %s]\n", d.Error.Code, d.Error.Message)
	}
	for _, p := range problems {
		what := "Could not read"
		if p.Code == protocol.SkippedBinary {
			what = "Skipped"
		}
		fmt.Fprintf(w, "[%s %s: %s]\n", what, escape.Path(string(p.Path)), p.Message)
	}
	if s := Counted(d.Skipped); s != "" {
		fmt.Fprintf(w, "[Skipped: %s.]\n", s)
	}
	for _, line := range LeftOut(d.Skipped, rootHides, Model) {
		fmt.Fprintf(w, "[Skipped: %s.]\n", line)
	}
	if d.IgnoredBy != "" {
		fmt.Fprintf(w, "[Note: the path %s is ignored (%s); it was searched because it was named.]\n",
			escape.Path(path), escape.Line(d.IgnoredBy))
	}
}

// LeftOutLines writes, a line each, what a search passed over and why, in
// the Shell's words, as the command says it when nothing was found (so an
// empty answer is never unexplained) or with --stats: files over the size
// cap (maxSize), binary files, what ignore files and hidden-file rules
// left out, links, special files. lead starts each line ("rootbound: " on
// stderr).
func LeftOutLines(w io.Writer, lead string, s Skipped, maxSize int64) {
	if n := s.TooLarge; n > 0 {
		fmt.Fprintf(w, "%s%d %s over %s not searched (--max-filesize raises the cap)\n", lead, n, Plural(n, "file", "files"), Size(maxSize))
	}
	if n := s.Binary; n > 0 {
		fmt.Fprintf(w, "%s%d binary %s not searched (-a searches them as text)\n", lead, n, Plural(n, "file", "files"))
	}
	if n := s.Ignored; n > 0 {
		fmt.Fprintf(w, "%s%d %s left out by ignore files (%s)\n", lead, n, Plural(n, "path", "paths"), Shell.NoIgnore)
	}
	if n := s.Hidden; n > 0 {
		fmt.Fprintf(w, "%s%d hidden %s left out\n", lead, n, Plural(n, "path", "paths"))
	}
	if n := s.Denied; n > 0 {
		fmt.Fprintf(w, "%s%d %s denied by the root's policy\n", lead, n, Plural(n, "path", "paths"))
	}
	if n := s.Symlink; n > 0 {
		fmt.Fprintf(w, "%s%d symbolic %s not followed\n", lead, n, Plural(n, "link", "links"))
	}
	if n := s.Special; n > 0 {
		fmt.Fprintf(w, "%s%d special %s (FIFOs, sockets, devices) not read\n", lead, n, Plural(n, "file", "files"))
	}
}
