// Command rootbound finds files and searches their contents inside a
// WebAssembly sandbox that can read nothing but the directory it is given.
//
//	rootbound glob PATTERN [DIR]    like fd -g PATTERN DIR
//	rootbound grep PATTERN [DIR]    like rg PATTERN DIR
//
// Exit status, as grep and rg use it: 0 when something was found, 1 when
// nothing was, 2 on an error (results found before it are still printed).
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/rootbound/rootbound/guest/protocol"
	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/host/internal/escape"
)

const usage = `usage:
  rootbound glob [flags] PATTERN [DIR]   find files by name or path (* ? ** [a-z] {a,b})
  rootbound grep [flags] PATTERN [DIR]   search file contents (RE2, or -F for a literal)

Run 'rootbound glob -h' or 'rootbound grep -h' for flags.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "glob", "grep":
		return search(args[0], args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "rootbound: unknown command %q\n%s", args[0], usage)
		return 2
	}
}

type options struct {
	max, maxSizeMiB   int
	json              bool
	timeout           time.Duration
	fixed, ignoreCase bool
	smartCase         bool
	files, count      bool
	glob              string
}

func search(tool string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rootbound "+tool, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.IntVar(&o.max, "max-results", protocol.MaxResultsCeiling, "stop after this many results")
	fs.BoolVar(&o.json, "json", false, "print the raw protocol lines (JSON)")
	fs.DurationVar(&o.timeout, "timeout", time.Minute, "give up after this long")
	fs.IntVar(&o.maxSizeMiB, "max-filesize", protocol.DefaultMaxFileSize>>20, "skip files larger than this many MiB")
	if tool == "grep" {
		fs.BoolVar(&o.fixed, "F", false, "the pattern is a literal string, not a regular expression")
		fs.BoolVar(&o.ignoreCase, "i", false, "ignore case")
		fs.BoolVar(&o.smartCase, "S", false, "ignore case unless the pattern has an upper-case letter")
		fs.BoolVar(&o.files, "l", false, "print only the paths of files with matches")
		fs.BoolVar(&o.count, "c", false, "print the number of matching lines per file")
		fs.StringVar(&o.glob, "g", "", "search only files whose name (or path, with /) matches this glob")
		fs.Bool("n", true, "show line numbers (always on; accepted for rg compatibility)")
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if len(pos) < 1 || len(pos) > 2 {
		fmt.Fprintf(stderr, "rootbound %s: want PATTERN [DIR]\n", tool)
		return 2
	}
	dir, prefix := ".", ""
	if len(pos) == 2 {
		dir = pos[1]
		prefix = strings.TrimSuffix(dir, "/") + "/"
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	cfg := host.NewConfig().WithRoot("/workspace", dir).WithTimeout(o.timeout).
		WithMaxFileSize(int64(o.maxSizeMiB) << 20).WithInstances(1)
	r, err := host.NewRunner(ctx, cfg)
	if err != nil {
		fmt.Fprintln(stderr, "rootbound:", err)
		return 2
	}
	defer r.Close(context.Background())

	// Results print as they arrive: the first ones show at once, and memory
	// stays flat however many there are.
	out := newPrinter(stdout, prefix, o.json)
	var res *host.Result
	if tool == "glob" {
		res, _ = r.GlobEach(ctx, host.GlobArgs{Pattern: pos[0], MaxResults: o.max}, out.item)
	} else {
		a := host.GrepArgs{Pattern: pos[0], Literal: o.fixed, Glob: o.glob, MaxResults: o.max, OutputMode: protocol.ModeContent}
		switch {
		case o.files:
			a.OutputMode = protocol.ModeFiles
		case o.count:
			a.OutputMode = protocol.ModeCount
		}
		switch {
		case o.ignoreCase:
			a.Case = protocol.CaseInsensitive
		case o.smartCase:
			a.Case = protocol.CaseSmart
		}
		res, _ = r.GrepEach(ctx, a, out.item)
	}
	out.finish(stderr, res)
	switch {
	case res.Done.Error != nil:
		return 2
	case out.found == 0:
		return 1
	}
	return 0
}

// parseInterleaved lets flags come before, between or after the positional
// arguments, as rg and fd allow.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		rest := fs.Args()
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// printer writes results as rg and fd do (or the protocol's item lines,
// with --json), buffered, and flushed at the first result and then at
// least every flushEvery, so output shows while a long search runs.
type printer struct {
	w      *bufio.Writer
	enc    *protocol.Encoder
	prefix string
	found  int
	last   time.Time
}

const flushEvery = 100 * time.Millisecond

func newPrinter(stdout io.Writer, prefix string, json bool) *printer {
	p := &printer{w: bufio.NewWriterSize(stdout, 64<<10), prefix: prefix}
	if json {
		p.enc = protocol.NewEncoder(p.w)
	}
	return p
}

func (p *printer) item(it host.Item) error {
	p.found++
	if p.enc != nil {
		if err := p.enc.Encode(&protocol.Line{ID: "1", Item: &it}); err != nil {
			return err
		}
	} else {
		path := escape.Path(p.prefix + string(it.Path))
		switch {
		case it.Text != nil:
			fmt.Fprintf(p.w, "%s:%d:%s\n", path, it.LineNumber, escape.Line(string(*it.Text)))
		case it.Count > 0:
			fmt.Fprintf(p.w, "%s:%d\n", path, it.Count)
		default:
			fmt.Fprintf(p.w, "%s\n", path)
		}
	}
	if now := time.Now(); p.found == 1 || now.Sub(p.last) >= flushEvery {
		p.last = now
		return p.w.Flush()
	}
	return nil
}

// finish prints what the call says besides its results: problems,
// truncation and errors (on stderr, or as protocol lines with --json).
func (p *printer) finish(stderr io.Writer, res *host.Result) {
	if p.enc != nil {
		for i := range res.Problems {
			_ = p.enc.Encode(&protocol.Line{ID: "1", Problem: &res.Problems[i]})
		}
		_ = p.enc.Encode(&protocol.Line{ID: "1", Done: &res.Done})
		_ = p.w.Flush()
		return
	}
	_ = p.w.Flush()
	for _, pr := range res.Problems {
		fmt.Fprintf(stderr, "rootbound: %s: %s\n", escape.Path(p.prefix+string(pr.Path)), pr.Message)
	}
	if res.Done.Truncated {
		fmt.Fprintf(stderr, "rootbound: truncated at %d results: %s\n", res.Done.Results, res.Done.Narrow)
	}
	if e := res.Done.Error; e != nil {
		fmt.Fprintf(stderr, "rootbound: %s: %s\n", e.Code, e.Message)
	}
}
