package main

import (
	"bufio"
	"io"
	"time"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/host/internal/printer"
)

// output writes results as rg and fd do (package printer, in the
// command's words), buffered, and flushed at the first result and then at
// least every flushEvery, so output shows while a long search runs.
type output struct {
	w      *bufio.Writer
	prefix string
	found  int // results (context lines are not)
	last   time.Time
}

const flushEvery = 100 * time.Millisecond

func newOutput(stdout io.Writer, prefix string) *output {
	return &output{w: bufio.NewWriterSize(stdout, 64<<10), prefix: prefix}
}

func (p *output) item(it host.Item) error {
	if !it.Context {
		p.found++
	}
	printer.WriteItem(p.w, p.prefix, printer.Item{Path: string(it.Path), Line: it.LineNumber, Text: (*string)(it.Text),
		Break: it.Break, Context: it.Context, Count: it.Count})
	if now := time.Now(); p.found == 1 || now.Sub(p.last) >= flushEvery {
		p.last = now
		return p.w.Flush()
	}
	return nil
}

// finish prints, on stderr, what the call says besides its results
// (printer.Notices).
func (p *output) finish(stderr io.Writer, res *host.Result, maxSizeMiB int) {
	_ = p.w.Flush()
	problems := make([]printer.Problem, len(res.Problems))
	for i, pr := range res.Problems {
		problems[i] = printer.Problem{Path: string(pr.Path), Message: pr.Message}
	}
	d := res.Done
	e := printer.End{Results: d.Results, NextOffset: d.NextOffset, Truncated: d.Truncated,
		Skipped: printer.Skipped(d.Skipped), IgnoredBy: d.IgnoredBy}
	if d.Error != nil {
		e.ErrCode, e.ErrMessage = d.Error.Code, d.Error.Message
	}
	printer.Notices(stderr, p.prefix, problems, e, maxSizeMiB)
}
