package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/host/internal/escape"
	"github.com/rootbound/rootbound/host/internal/grouping"
)

// printer writes results as rg and fd do, buffered, and flushed at the
// first result and then at least every flushEvery, so output shows while a
// long search runs.
type printer struct {
	w      *bufio.Writer
	prefix string
	found  int // results (context lines are not)
	last   time.Time
	groups grouping.Groups
}

const flushEvery = 100 * time.Millisecond

func newPrinter(stdout io.Writer, prefix string) *printer {
	return &printer{w: bufio.NewWriterSize(stdout, 64<<10), prefix: prefix}
}

func (p *printer) item(it host.Item) error {
	if !it.Context {
		p.found++
	}
	path := escape.Path(p.prefix + string(it.Path))
	switch {
	case it.Text != nil:
		p.groups.Line(p.w, path, it.LineNumber, it.Context, escape.Line(string(*it.Text)))
	case it.Count > 0:
		fmt.Fprintf(p.w, "%s:%d\n", path, it.Count)
	default:
		fmt.Fprintf(p.w, "%s\n", path)
	}
	if now := time.Now(); p.found == 1 || now.Sub(p.last) >= flushEvery {
		p.last = now
		return p.w.Flush()
	}
	return nil
}

// finish prints, on stderr, what the call says besides its results:
// problems, what was skipped (a file over the size cap is never left out
// silently), truncation and errors.
func (p *printer) finish(stderr io.Writer, res *host.Result, maxSizeMiB int) {
	_ = p.w.Flush()
	for _, pr := range res.Problems {
		fmt.Fprintf(stderr, "rootbound: %s: %s\n", escape.Path(p.prefix+string(pr.Path)), pr.Message)
	}
	d := res.Done
	if n := d.Skipped.TooLarge; n > 0 {
		fmt.Fprintf(stderr, "rootbound: %d %s over %d MiB not searched (--max-filesize raises the cap)\n", n, plural(n, "file", "files"), maxSizeMiB)
	}
	if n := d.Skipped.Ignored; n > 0 {
		fmt.Fprintf(stderr, "rootbound: %d %s left out by ignore files (--no-ignore includes them)\n", n, plural(n, "path", "paths"))
	}
	if n := d.Skipped.Hidden; n > 0 {
		fmt.Fprintf(stderr, "rootbound: %d hidden %s left out\n", n, plural(n, "path", "paths"))
	}
	if d.IgnoredBy != "" {
		fmt.Fprintf(stderr, "rootbound: %s is ignored (%s), searched because it was named\n", escape.Path(strings.TrimSuffix(p.prefix, "/")), escape.Line(d.IgnoredBy))
	}
	if res.Done.Truncated {
		fmt.Fprintf(stderr, "rootbound: truncated at %d results: %s\n", res.Done.Results, res.Done.Narrow)
	}
	if e := res.Done.Error; e != nil {
		fmt.Fprintf(stderr, "rootbound: %s: %s\n", e.Code, e.Message)
	}
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
