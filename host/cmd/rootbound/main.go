// Command rootbound finds files and searches their contents inside a
// WebAssembly sandbox that can read nothing but the directory it is given.
//
//	rootbound glob [flags] PATTERN [PATH]   like fd -g PATTERN PATH
//	rootbound grep [flags] PATTERN [PATH]   like rg PATTERN PATH
//	rootbound serve --root NAME=DIR ...      the JSON-lines protocol on stdin and stdout
//
// PATH is a directory or a single file (default: the current directory).
// Results print as they are found. Exit status, as rg's: 0 when something
// was found, 1 when nothing was, 2 on an error or when a file could not be
// read (results found before it are still printed).
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/host/internal/escape"
	"github.com/rootbound/rootbound/host/internal/grouping"
	"github.com/rootbound/rootbound/protocol"
)

const usage = `usage:
  rootbound glob [flags] PATTERN [PATH]   find files by name or path (* ? ** [a-z] {a,b})
  rootbound grep [flags] PATTERN [PATH]   search file contents (RE2, or -F for a literal)
  rootbound serve --root NAME=DIR ...     answer protocol requests on stdin, one JSON line each
  rootbound mcp --root NAME=DIR ...       serve glob and grep over MCP (stdio, or --http 127.0.0.1:PORT)
  rootbound version                       print the version and the module's hash

PATH is a directory or a file (default: the current directory).
Run 'rootbound glob --help', 'rootbound grep --help', 'rootbound serve --help' or 'rootbound mcp --help' for flags.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "glob", "grep":
		return search(args[0], args[1:], stdout, stderr)
	case "serve":
		return serve(args[1:], stdin, stdout, stderr)
	case "mcp":
		return mcpServe(args[1:], stdin, stdout, stderr)
	case "version", "--version", "-V":
		fmt.Fprintln(stdout, version())
		return 0
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "rootbound: unknown command %q\n%s", args[0], usage)
		return 2
	}
}

// version names this build: the module version (or the VCS revision) and
// the first bytes of the embedded module's SHA-256, which tells builds with
// different guests apart.
func version() string {
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && v == "(devel)" {
				v = s.Value[:min(12, len(s.Value))]
			}
		}
	}
	sum := sha256.Sum256(host.Module())
	return fmt.Sprintf("rootbound %s (module sha256 %x)", v, sum[:6])
}

type options struct {
	max, maxSizeMiB   int
	json              bool
	timeout           time.Duration
	fixed, ignoreCase bool
	smartCase         bool
	files, count      bool
	globs             []string

	exclude               []string
	types, typesNot       []string
	maxDepth              int
	sort                  string
	noIgnore, noHidden    bool
	noIgnoreParent        bool
	noIgnoreGlobal        bool
	includeDirs, typeList bool
	offset                int

	// grep's, as rg names them
	regexps                  []string
	after, before, context   int
	multiline, word, invert  bool
	only, crlf, countMatches bool
	maxCount                 int
}

func search(tool string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rootbound "+tool, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.IntVar(&o.max, "max-results", protocol.MaxResultsCeiling, "stop after this many results (at least 1; the default is everything)")
	fs.BoolVar(&o.json, "json", false, "print the protocol lines as the module writes them (JSON)")
	fs.DurationVar(&o.timeout, "timeout", time.Minute, "give up after this long")
	fs.IntVar(&o.maxSizeMiB, "max-filesize", protocol.DefaultMaxFileSize>>20, "skip files larger than this many MiB")
	fs.StringArrayVarP(&o.types, "type", "t", nil, "only files of this type, ripgrep's names (go, py, md; --type-list lists them); repeat it")
	fs.StringArrayVarP(&o.typesNot, "type-not", "T", nil, "leave out files of this type; repeat it")
	fs.BoolVar(&o.typeList, "type-list", false, "list the file types and their globs, and exit")
	fs.IntVarP(&o.maxDepth, "max-depth", "d", 0, "look at most this deep below PATH (1: its own entries)")
	fs.StringVar(&o.sort, "sort", "path", "order: path (directory order) or mtime (newest first)")
	fs.BoolVar(&o.noIgnore, "no-ignore", false, "do not apply .gitignore, .ignore, .rgignore, .git/info/exclude or global excludes")
	fs.BoolVar(&o.noIgnoreParent, "no-ignore-parent", false, "do not apply ignore files of the directories above PATH")
	fs.BoolVar(&o.noIgnoreGlobal, "no-ignore-global", false, "do not apply the global excludes (git's core.excludesFile)")
	fs.BoolVar(&o.noHidden, "no-hidden", false, "leave out hidden files and directories (by default they are searched)")
	fs.BoolP("hidden", "H", true, "search hidden files and directories (the default; accepted for rg and fd compatibility)")
	fs.IntVar(&o.offset, "offset", 0, "skip the first N results (to page through them with --max-results)")
	if tool == "glob" {
		fs.StringArrayVarP(&o.exclude, "exclude", "E", nil, "leave out what this glob matches, a directory with all it holds; repeat it")
		fs.BoolVarP(&o.ignoreCase, "ignore-case", "i", false, "match the pattern without regard to case")
		fs.BoolVar(&o.includeDirs, "include-dirs", false, "list matching directories too (with a trailing /)")
	}
	if tool == "grep" {
		fs.BoolVarP(&o.fixed, "fixed-strings", "F", false, "the pattern is a literal string, not a regular expression")
		fs.BoolVarP(&o.ignoreCase, "ignore-case", "i", false, "ignore case")
		fs.BoolVarP(&o.smartCase, "smart-case", "S", false, "ignore case when the pattern has letters and none is upper case")
		fs.BoolVarP(&o.files, "files-with-matches", "l", false, "print only the paths of files with matches")
		fs.BoolVarP(&o.count, "count", "c", false, "print the number of matching lines per file")
		fs.StringArrayVarP(&o.globs, "glob", "g", nil, "search only files matching this glob; !GLOB excludes; repeat it, the last match decides")
		fs.BoolP("line-number", "n", true, "show line numbers (always on; accepted for rg compatibility)")
		fs.StringArrayVarP(&o.regexps, "regexp", "e", nil, "a pattern to search for; repeat it (any may match); then every argument is a PATH")
		fs.IntVarP(&o.after, "after-context", "A", 0, "show N lines after each match")
		fs.IntVarP(&o.before, "before-context", "B", 0, "show N lines before each match")
		fs.IntVarP(&o.context, "context", "C", 0, "show N lines before and after each match")
		fs.BoolVarP(&o.multiline, "multiline", "U", false, "let matches span lines; . matches a newline too (rg -U --multiline-dotall)")
		fs.IntVarP(&o.maxCount, "max-count", "m", 0, "take at most N matching lines from each file")
		fs.BoolVarP(&o.word, "word-regexp", "w", false, "only matches that are whole words")
		fs.BoolVarP(&o.invert, "invert-match", "v", false, "print the lines that do not match")
		fs.BoolVarP(&o.only, "only-matching", "o", false, "print each match on its own line, the matched text only")
		fs.BoolVar(&o.crlf, "crlf", false, "read \\r\\n as a line end: $ matches before \\r")
		fs.BoolVar(&o.countMatches, "count-matches", false, "print the number of matches per file")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stdout, "usage: rootbound %s [flags] PATTERN [PATH]\n\n%s", tool, fs.FlagUsages())
			return 0
		}
		return 2
	}
	if o.typeList {
		for _, name := range host.TypeNames() {
			fmt.Fprintf(stdout, "%s: %s\n", name, strings.Join(host.TypeGlobs(name), ", "))
		}
		return 0
	}
	pos := fs.Args()
	if len(o.regexps) > 0 {
		// As rg: with -e, the argument is the path (one, for now).
		pos = append([]string{o.regexps[0]}, pos...)
	}
	if len(pos) < 1 || len(pos) > 2 {
		fmt.Fprintf(stderr, "rootbound %s: want PATTERN [PATH] (or -e PATTERN ... [PATH])\n", tool)
		return 2
	}
	if o.max < 1 || o.max > protocol.MaxResultsCeiling {
		fmt.Fprintf(stderr, "rootbound %s: --max-results %d, want 1 to %d (the default is everything)\n", tool, o.max, protocol.MaxResultsCeiling)
		return 2
	}
	root, file, prefix, err := target(pos)
	if err != nil {
		fmt.Fprintln(stderr, "rootbound:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	maxSize := int64(o.maxSizeMiB) << 20
	// The command streams what it finds, with --json too: no cap on what
	// one call returns.
	cfg := host.NewConfig().WithRoot("/workspace", root).WithTimeout(o.timeout).WithMaxFileSize(maxSize).WithInstances(1).
		WithMaxResultBytes(math.MaxInt64)
	if !o.noIgnore {
		outside, err := host.OutsideIgnoreRules(root)
		if err != nil {
			fmt.Fprintln(stderr, "rootbound:", err)
			return 2
		}
		var keep []host.IgnoreRules
		held := 0
		for _, r := range outside {
			if r.Kind == "global" && o.noIgnoreGlobal || r.Kind != "global" && o.noIgnoreParent {
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
		return 2
	}
	defer r.Close(context.Background())
	for _, w := range r.Warnings() {
		fmt.Fprintln(stderr, "rootbound: warning:", w)
	}

	var hidden *bool
	if o.noHidden {
		hidden = new(bool)
	}
	glob := host.GlobArgs{Pattern: pos[0], Path: file, MaxResults: o.max, Exclude: o.exclude, CaseInsensitive: o.ignoreCase,
		IncludeDirs: o.includeDirs, Type: o.types, TypeNot: o.typesNot, Sort: host.Sort(o.sort), MaxDepth: o.maxDepth, NoIgnore: o.noIgnore, Hidden: hidden,
		Offset: o.offset}
	grep := host.GrepArgs{Pattern: pos[0], Path: file, Literal: o.fixed, Glob: o.globs, MaxResults: o.max, OutputMode: host.ModeContent,
		Type: o.types, TypeNot: o.typesNot, Sort: host.Sort(o.sort), MaxDepth: o.maxDepth, NoIgnore: o.noIgnore, Hidden: hidden,
		Offset: o.offset, AfterContext: o.after, BeforeContext: o.before, Context: o.context, Multiline: o.multiline,
		MaxCount: o.maxCount, Word: o.word, Invert: o.invert, OnlyMatching: o.only, CRLF: o.crlf}
	if len(o.regexps) > 1 {
		grep.Patterns = o.regexps[1:]
	}
	switch {
	case o.files:
		grep.OutputMode = host.ModeFiles
	case o.countMatches:
		grep.OutputMode = host.ModeCountMatches
	case o.count:
		grep.OutputMode = host.ModeCount
	}
	switch {
	case o.ignoreCase:
		grep.Case = host.CaseInsensitive
	case o.smartCase:
		grep.Case = host.CaseSmart
	}
	if o.json {
		return searchJSON(ctx, r, tool, glob, grep, o.timeout, maxSize, stdout, stderr)
	}
	// Results print as they arrive: the first ones show at once, and memory
	// stays flat however many there are.
	out := newPrinter(stdout, prefix)
	out.groups.On = grep.Context > 0 || grep.BeforeContext > 0 || grep.AfterContext > 0
	var res *host.Result
	if tool == "glob" {
		res, _ = r.GlobEach(ctx, glob, out.item)
	} else {
		res, _ = r.GrepEach(ctx, grep, out.item)
	}
	out.finish(stderr, res, o.maxSizeMiB)
	switch {
	case res.Done.Error != nil, res.Done.Skipped.Unreadable > 0:
		return 2
	case out.found == 0:
		return 1
	}
	return 0
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

// serve answers protocol requests on stdin, through the wazero host.
func serve(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rootbound serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rf := addRootFlags(fs, "requests and results")
	timeout := fs.Duration("timeout", 20*time.Second, "the longest a request may run (a request's own deadline_ms may be shorter)")
	instances := fs.Int("instances", 1, "requests answered at once (they are answered in order)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stdout, "usage: rootbound serve --root NAME=DIR [--root NAME=DIR ...] < requests.jsonl\n\n%s", fs.FlagUsages())
			return 0
		}
		return 2
	}
	cfg, err := rf.config(fs.NArg())
	if err != nil {
		fmt.Fprintln(stderr, "rootbound serve:", err)
		return 2
	}
	cfg = cfg.WithTimeout(*timeout).WithInstances(*instances)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	r, err := host.NewRunner(ctx, cfg)
	if err != nil {
		fmt.Fprintln(stderr, "rootbound:", err)
		return 2
	}
	defer r.Close(context.Background())
	for _, w := range r.Warnings() {
		fmt.Fprintln(stderr, "rootbound: warning:", w)
	}
	if err := r.Serve(ctx, stdin, stdout); err != nil {
		fmt.Fprintln(stderr, "rootbound:", err)
		return 2
	}
	return 0
}
