package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/host/internal/escape"
	"github.com/rootbound/rootbound/internal/options"
	"github.com/rootbound/rootbound/protocol"
)

// commandFlags are the flags of glob and grep that are the command's own,
// not options of a call (those come from the table in internal/options).
type commandFlags struct {
	json                           bool
	timeout                        time.Duration
	maxSizeMiB                     int
	typeList                       bool
	noIgnoreParent, noIgnoreGlobal bool
	regexps                        []string // grep -e
}

// search runs glob or grep.
func search(tool string, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("rootbound " + tool)
	t := options.Glob
	if tool == "grep" {
		t = options.Grep
	}
	vals := bindOptions(fs, t)
	var c commandFlags
	fs.BoolVar(&c.json, "json", false, "print the protocol lines as the module writes them (JSON)")
	fs.DurationVar(&c.timeout, "timeout", time.Minute, "give up after this long")
	fs.IntVar(&c.maxSizeMiB, "max-filesize", protocol.DefaultMaxFileSize>>20, "skip files larger than this many `MiB`")
	fs.BoolVar(&c.typeList, "type-list", false, "list the file types and their globs, and exit")
	fs.BoolVar(&c.noIgnoreParent, "no-ignore-parent", false, "do not apply ignore files of the directories above PATH")
	fs.BoolVar(&c.noIgnoreGlobal, "no-ignore-global", false, "do not apply the global excludes (git's core.excludesFile)")
	fs.BoolP("hidden", "H", true, "search hidden files and directories (the default; accepted for rg and fd compatibility)")
	if tool == "grep" {
		fs.BoolP("line-number", "n", true, "show line numbers (always on; accepted for rg compatibility)")
		fs.StringArrayVarP(&c.regexps, "regexp", "e", nil, "a `PATTERN` to search for; repeat it (any may match); PATTERN is then not given")
	}
	if done, code := parse(fs, args, "usage: rootbound "+tool+" [flags] PATTERN [PATH]\n", stdout, stderr); done {
		return code
	}
	if c.typeList {
		for _, name := range host.TypeNames() {
			fmt.Fprintf(stdout, "%s: %s\n", name, strings.Join(host.TypeGlobs(name), ", "))
		}
		return 0
	}
	pos := fs.Args()
	if len(c.regexps) > 0 {
		// As rg: with -e, the argument is the path (one, for now).
		pos = append([]string{c.regexps[0]}, pos...)
	}
	if len(pos) < 1 || len(pos) > 2 {
		fmt.Fprintf(stderr, "rootbound %s: want PATTERN [PATH] (or -e PATTERN ... [PATH])\n", tool)
		return 2
	}
	root, file, prefix, err := target(pos)
	if err != nil {
		fmt.Fprintln(stderr, "rootbound:", err)
		return 2
	}
	raw, err := vals.Args(pos[0], file)
	if err != nil {
		fmt.Fprintln(stderr, "rootbound:", err)
		return 2
	}
	var glob host.GlobArgs
	var grep host.GrepArgs
	if tool == "glob" {
		err = json.Unmarshal(raw, &glob)
	} else {
		err = json.Unmarshal(raw, &grep)
		if len(c.regexps) > 1 {
			grep.Patterns = c.regexps[1:]
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "rootbound:", err)
		return 2
	}
	if max := glob.MaxResults + grep.MaxResults; max < 1 || max > protocol.MaxResultsCeiling {
		fmt.Fprintf(stderr, "rootbound %s: --max-results %d, want 1 to %d (the default is everything)\n", tool, max, protocol.MaxResultsCeiling)
		return 2
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	maxSize := int64(c.maxSizeMiB) << 20
	r, code := c.runner(ctx, root, glob.NoIgnore || grep.NoIgnore, maxSize, stderr)
	if r == nil {
		return code
	}
	defer r.Close(context.Background())

	if c.json {
		return searchJSON(ctx, r, tool, glob, grep, c.timeout, maxSize, stdout, stderr)
	}
	// Results print as they arrive: the first ones show at once, and memory
	// stays flat however many there are.
	out := newOutput(stdout, prefix)
	var res *host.Result
	if tool == "glob" {
		res, _ = r.GlobEach(ctx, glob, out.item)
	} else {
		res, _ = r.GrepEach(ctx, grep, out.item)
	}
	out.finish(stderr, res, c.maxSizeMiB)
	switch {
	case res.Done.Error != nil, res.Done.Skipped.Unreadable > 0:
		return 2
	case out.found == 0:
		return 1
	}
	return 0
}

// runner starts the runner of a search of root, with the ignore rules
// from the directories above it (as rg reads them) unless noIgnore. A nil
// Runner comes with the exit status.
func (c commandFlags) runner(ctx context.Context, root string, noIgnore bool, maxSize int64, stderr io.Writer) (*host.Runner, int) {
	// The command streams what it finds, with --json too: no cap on what
	// one call returns.
	cfg := host.NewConfig().WithRoot("/workspace", root).WithTimeout(c.timeout).WithMaxFileSize(maxSize).WithInstances(1).
		WithMaxResultBytes(math.MaxInt64)
	if !noIgnore {
		outside, err := host.OutsideIgnoreRules(root)
		if err != nil {
			fmt.Fprintln(stderr, "rootbound:", err)
			return nil, 2
		}
		var keep []host.IgnoreRules
		held := 0
		for _, r := range outside {
			if r.Kind == "global" && c.noIgnoreGlobal || r.Kind != "global" && c.noIgnoreParent {
				continue
			}
			if held+len(r.Rules) > host.MaxPolicyBytes {
				fmt.Fprintf(stderr, "rootbound: warning: %s not applied: the ignore rules from above the root may hold %d KiB at most\n",
					escape.Path(r.Source), host.MaxPolicyBytes>>10)
				continue
			}
			held += len(r.Rules)
			keep = append(keep, r)
		}
		cfg = cfg.WithRootPolicy("/workspace", host.RootPolicy{Ignore: keep})
	}
	r, err := host.NewRunner(ctx, cfg)
	if err != nil {
		fmt.Fprintln(stderr, "rootbound:", err)
		return nil, 2
	}
	for _, w := range r.Warnings() {
		fmt.Fprintln(stderr, "rootbound: warning:", w)
	}
	return r, 0
}

// target turns the PATH argument into a root directory, the path to search
// below it ("" for the root itself, a name for a single file), and the
// prefix that makes result paths read as PATH does.
func target(pos []string) (root, file, prefix string, err error) {
	if len(pos) < 2 {
		return ".", "", "", nil
	}
	arg := pos[1]
	fi, err := os.Stat(arg)
	if err != nil {
		return "", "", "", err
	}
	if fi.IsDir() {
		return arg, "", strings.TrimSuffix(arg, "/") + "/", nil
	}
	if !fi.Mode().IsRegular() {
		return "", "", "", fmt.Errorf("%s: neither a directory nor a regular file", arg)
	}
	base := filepath.Base(arg)
	return filepath.Dir(arg), base, strings.TrimSuffix(arg, base), nil
}

// searchJSON runs the call through the protocol and prints its lines as the
// module writes them.
func searchJSON(ctx context.Context, r *host.Runner, tool string, glob host.GlobArgs, grep host.GrepArgs,
	timeout time.Duration, maxSize int64, stdout, stderr io.Writer) int {
	req := protocol.Request{V: protocol.Version, ID: "1",
		Limits: &protocol.Limits{DeadlineMS: timeout.Milliseconds(), MaxFileSize: maxSize}}
	if tool == "glob" {
		g := protocol.GlobArgs(glob)
		req.Glob = &g
	} else {
		g := protocol.GrepArgs(grep)
		req.Grep = &g
	}
	line, _ := json.Marshal(req)
	var last bytes.Buffer
	tee := &lastLine{w: stdout, last: &last}
	if err := r.Serve(ctx, bytes.NewReader(append(line, '\n')), tee); err != nil {
		fmt.Fprintln(stderr, "rootbound:", err)
		return 2
	}
	var done protocol.Line
	if err := json.Unmarshal(last.Bytes(), &done); err != nil || done.Done == nil {
		return 2
	}
	switch d := done.Done; {
	case d.Error != nil, d.Skipped.Unreadable > 0:
		return 2
	case d.Results == 0:
		return 1
	}
	return 0
}

// lastLine writes through to w and keeps the last line written.
type lastLine struct {
	w    io.Writer
	last *bytes.Buffer
	cur  []byte
}

func (l *lastLine) Write(p []byte) (int, error) {
	for _, c := range p {
		l.cur = append(l.cur, c)
		if c == '\n' {
			l.last.Reset()
			l.last.Write(l.cur)
			l.cur = l.cur[:0]
		}
	}
	return l.w.Write(p)
}
