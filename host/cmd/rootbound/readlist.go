package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/host/internal/printer"
	"github.com/rootbound/rootbound/internal/options"
	"github.com/rootbound/rootbound/protocol"
)

// toolIn is the subcommand of a tool whose call is its options and one
// PATH (read and list, and any tool the table adds): the options as
// flags, PATH resolved as glob's and grep's is, and its items printed as
// they come; read also takes PATH:A-B and reads in as many calls as the
// lines take. It runs where e says (this process, or the resident server
// for a client).
func toolIn(e env, tool string, args []string, stdout, stderr io.Writer) int {
	t, _ := toolOf(tool)
	read := t == options.Read
	usage := fmt.Sprintf("usage: rootbound %s %s\n  %s", tool, options.Commands[t].Synopsis, options.Commands[t].Summary)
	switch {
	case read:
		usage = "usage: rootbound read [flags] PATH[:LINE[-[LINE]]]\n  print the lines of a file, numbered as cat -n numbers them: all of them, or PATH:A line A (as grep -n names a place), PATH:A-B lines A to B, PATH:A- A to the end; -n and --offset say the same"
	case t == options.List:
		usage = "usage: rootbound list [flags] [PATH]\n  list a directory's entries: files with their sizes, directories with a trailing /, links (never followed)"
	}
	fs := newFlags("rootbound " + tool)
	vals := bindOptions(fs, t)
	var c commandFlags
	bindCommand(fs, t, &c)
	if done, code := parse(fs, args, usage+"\n"+pathRule, stdout, stderr); done {
		return code
	}
	needsPath := slices.ContainsFunc(options.For(t), func(o options.Option) bool { return o.Name == "path" && o.Required })
	if len(fs.Args()) > 1 || needsPath && len(fs.Args()) == 0 {
		want := "at most one PATH"
		if needsPath {
			want = "one PATH"
		}
		fmt.Fprintf(stderr, "rootbound %s: want %s (rootbound %s --help)\n", tool, want, tool)
		return 2
	}
	arg := ""
	if len(fs.Args()) == 1 {
		arg = fs.Args()[0]
	}
	first, last := 0, 0
	if read {
		var err error
		if arg, first, last, err = lineRange(e, arg); err != nil {
			fmt.Fprintln(stderr, "rootbound read:", err)
			return 2
		}
	}
	target, err := resolveTarget(e, arg)
	if errors.Is(err, errNotOpened) {
		return fallback
	}
	if err != nil {
		fmt.Fprintln(stderr, "rootbound:", err)
		return 2
	}
	defer target.closeNow()
	if read && target.file == "" {
		fmt.Fprintf(stderr, "rootbound read: %s is a directory: rootbound list %s lists it\n", arg, arg)
		return 2
	}
	raw, err := vals.Args("", "")
	if err != nil {
		fmt.Fprintln(stderr, "rootbound:", err)
		return 2
	}
	// The call: the flags' arguments, PATH and read's range, under the
	// tool's name, as a request carries it.
	var call map[string]any
	if err := json.Unmarshal(raw, &call); err != nil {
		fmt.Fprintln(stderr, "rootbound:", err)
		return 2
	}
	switch {
	case target.file != "":
		call["path"] = target.file
	case needsPath: // a directory is the root: stat asks for the root itself
		call["path"] = "."
	}
	if first > 0 {
		call["offset"] = first
	}
	if last > 0 {
		call["limit"] = last - first + 1
	}
	var tc protocol.Call
	b, _ := json.Marshal(map[string]any{tool: call})
	if err := json.Unmarshal(b, &tc); err != nil {
		fmt.Fprintln(stderr, "rootbound:", err)
		return 2
	}
	ctx, cancel := context.WithTimeout(e.ctx, c.timeout)
	defer cancel()
	r, done := c.runner(ctx, e, target, false, stderr)
	if r == nil {
		return 2
	}
	defer done()
	if c.json {
		req := protocol.Request{V: protocol.Version, ID: "1", Call: tc,
			Limits: &protocol.Limits{DeadlineMS: c.timeout.Milliseconds(), MaxFileSize: c.maxSize}}
		return serveJSON(ctx, r, req, target.prefix, stdout, stderr)
	}
	// A listing's names end in remarks ("(12 bytes)"): to a pipe, each is
	// printed so that it can never pass for another entry (escape.Path).
	shown := printer.NamesModel
	if e.tty {
		shown = printer.NamesShown
	}
	out := newOutput(stdout, printer.Style{Filename: true, Numbered: read, Names: shown})
	out.lines.Prefix = target.prefix
	var res *host.Result
	if read {
		res = readAll(ctx, r, *tc.Read, out)
	} else {
		p, err := r.Prepare(tc)
		if err != nil {
			fmt.Fprintln(stderr, "rootbound:", err)
			return 2
		}
		res, _ = p.RunEach(ctx, out.item)
	}
	out.problems(stderr, res)
	if read && out.found == 0 && res.Done.Error == nil && first > res.Done.Lines {
		fmt.Fprintf(stderr, "rootbound read: %s has %d lines; line %d is past its end\n", target.prefix+target.file, res.Done.Lines, first)
	}
	var total runTotals
	total.add(res)
	total.notices(stderr, out.found == 0, c.maxSize)
	switch {
	case res.Done.Error != nil, res.Done.Skipped.Unreadable > 0:
		return 2
	case out.found == 0:
		return 1
	}
	return 0
}

// readAll reads the lines a read asks for, as many calls as they take
// (one returns at most 2,000 lines), printing each as it comes; the result
// is the last call's.
func readAll(ctx context.Context, r *host.Runner, a host.ReadArgs, out *output) *host.Result {
	want := a.Limit // 0: to the end
	a.MaxBytes = protocol.MaxReadBytes
	for {
		a.Limit = protocol.MaxReadLines
		if want > 0 {
			a.Limit = min(want-out.found, protocol.MaxReadLines)
		}
		p, err := r.PrepareRead(a)
		if err != nil {
			return &host.Result{Tool: "read", Done: host.Done{Status: host.StatusFailed, Error: err.(*host.Error)}}
		}
		res, _ := p.RunEach(ctx, out.item)
		if !res.Done.Truncated || res.Done.Error != nil || want > 0 && out.found >= want {
			if want > 0 && out.found < want {
				res.Done.Truncated = false
			}
			return res
		}
		a.Offset = res.Done.NextOffset
	}
}

// lineRange splits PATH:A (line A, as grep -n names a place), PATH:A-B
// (lines A to B) and PATH:A- (A to the end) when PATH is not itself a file
// of that name (where e looks: this process's directory, or what a
// server's client opened). last is 0 for "to the end"; a range that
// names no line (line 0, or one that ends before it starts) is an error.
func lineRange(e env, arg string) (path string, first, last int, err error) {
	m := rangeSuffix.FindStringSubmatch(arg)
	if m == nil {
		return arg, 0, 0, nil
	}
	if p, sent := e.paths[arg]; sent && p.err == nil {
		return arg, 0, 0, nil
	}
	if _, err := os.Lstat(arg); e.paths == nil && err == nil {
		return arg, 0, 0, nil
	}
	first, _ = strconv.Atoi(m[2])
	switch {
	case m[3] == "" && m[4] == "":
		last = first
	case m[4] != "":
		last, _ = strconv.Atoi(m[4])
	}
	switch {
	case first == 0:
		return "", 0, 0, fmt.Errorf("%s: lines are numbered from 1", arg)
	case last != 0 && last < first:
		return "", 0, 0, fmt.Errorf("%s: the range ends before it starts (%s:%d-%d reads lines %d to %d)", arg, m[1], last, first, last, first)
	}
	return m[1], first, last, nil
}

var rangeSuffix = regexp.MustCompile(`^(.+):([0-9]{1,9})(-([0-9]{1,9})?)?$`)
