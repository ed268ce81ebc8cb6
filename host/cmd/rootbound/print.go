package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/term"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/host/internal/printer"
)

// output writes results as rg and fd do (package printer, in a Style),
// buffered, and flushed at the first result and then at least every
// flushEvery, so output shows while a long search runs. It counts what
// --stats reports.
type output struct {
	w     *bufio.Writer
	lines printer.Lines
	quiet bool // -q: print nothing, stop at the first result
	// rewrite, if set, changes a line before it is printed (rg -r).
	rewrite func(host.Item) host.Item
	quit    bool // a result came under -q
	last    time.Time
	start   time.Time

	found    int  // results (context lines are not)
	matches  int  // matches in the lines printed
	content  bool // results were lines, so matches were counted
	files    int  // files with results
	printed  int64
	lastFile string
}

const flushEvery = 100 * time.Millisecond

// errQuiet stops a call at its first result under -q.
var errQuiet = errors.New("a result was found (-q)")

func newOutput(stdout io.Writer, style printer.Style) *output {
	o := &output{start: time.Now()}
	o.w = bufio.NewWriterSize(countWriter{stdout, &o.printed}, 64<<10)
	o.lines = printer.Lines{W: o.w, Style: style}
	return o
}

func (o *output) item(it host.Item) error {
	if !it.Context {
		o.found++
		if it.LineNumber > 0 {
			o.content = true
			o.matches += max(1, len(it.Submatches)) // an inverted line holds none
		}
		if string(it.Path) != o.lastFile {
			o.files++
			o.lastFile = string(it.Path)
		}
	}
	if o.quiet {
		o.quit = true
		return errQuiet
	}
	if o.rewrite != nil && !it.Context && it.Text != nil {
		it = o.rewrite(it)
	}
	o.lines.Write(it)
	if now := time.Now(); o.found == 1 || now.Sub(o.last) >= flushEvery {
		o.last = now
		return o.w.Flush()
	}
	return nil
}

func (o *output) flush() { _ = o.w.Flush() }

// binaryMatch prints, as rg does, that a binary file a PATH named holds a
// match (printer.BinaryMatch): a result, whose lines are not printed.
func (o *output) binaryMatch(it host.Item) error {
	o.found++
	if o.quiet {
		o.quit = true
		return errQuiet
	}
	o.lines.BinaryMatch(it)
	return nil
}

// problems prints, on stderr, what a call says whatever it found
// (printer.Notices).
func (o *output) problems(stderr io.Writer, res *host.Result) {
	o.flush()
	if o.quit {
		return
	}
	d := res.Done
	e := printer.End{Results: d.Results, NextOffset: d.NextOffset, Truncated: d.Truncated, IgnoredBy: d.IgnoredBy, Lines: d.Lines}
	if d.Error != nil {
		e.ErrCode, e.ErrMessage = d.Error.Code, d.Error.Message
	}
	printer.Notices(stderr, o.lines.Prefix, res.Problems, e)
}

// runTotals adds up the calls of one command (one per PATH).
type runTotals struct {
	skipped          printer.Skipped
	files, filesRead int64
	bytesRead        int64
}

func (t *runTotals) add(res *host.Result) {
	t.skipped.Add(res.Done.Skipped)
	t.files += res.Done.Stats.Files
	t.filesRead += res.Done.Stats.FilesRead
	t.bytesRead += res.Done.Stats.BytesRead
}

// notices says on stderr what was left out and why, when asked (nothing
// was found, or --stats): an empty answer is never unexplained.
func (t *runTotals) notices(stderr io.Writer, asked bool, maxSize int64) {
	if asked {
		printer.LeftOutLines(stderr, "rootbound: ", t.skipped, maxSize)
	}
}

// printStats prints rg's --stats lines after the results (matches and
// matched lines when the results were lines: the module counts no more).
// What was left out and why goes to stderr (runTotals.notices).
func (c *commandFlags) printStats(w io.Writer, o *output, t runTotals) {
	fmt.Fprintln(w)
	if o.content {
		fmt.Fprintf(w, "%d matches\n%d matched lines\n", o.matches, o.found)
	}
	fmt.Fprintf(w, "%d files contained matches\n%d files searched\n%d bytes printed\n%d bytes searched\n%.6f seconds\n",
		o.files, t.filesRead, o.printed, t.bytesRead, time.Since(o.start).Seconds())
}

// countWriter counts what goes through it.
type countWriter struct {
	w io.Writer
	n *int64
}

func (c countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	*c.n += int64(n)
	return n, err
}

// isTerminal reports whether w is a terminal, where rg and fd print
// headings, line numbers and colours by default.
func isTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr }) // an *os.File, or stdout
	return ok && term.IsTerminal(int(f.Fd()))
}

// colorsAllowed reports whether this process's environment lets a
// terminal be coloured, as rg reads it (--color auto): TERM set and not
// "dumb", and NO_COLOR not set (to any value). cron, `env -i` and CI
// runners set no TERM.
func colorsAllowed() bool {
	term, ok := os.LookupEnv("TERM")
	if !ok || term == "dumb" {
		return false
	}
	_, no := os.LookupEnv("NO_COLOR")
	return !no
}
