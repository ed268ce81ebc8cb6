package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	flag "github.com/spf13/pflag"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/host/internal/escape"
	"github.com/rootbound/rootbound/host/internal/printer"
	"github.com/rootbound/rootbound/host/internal/rootfs"
	"github.com/rootbound/rootbound/protocol"
)

// commandFlags are the flags of glob and grep that are the command's own,
// not options of a call (those come from the table in internal/options):
// how it prints, as rg and fd print, and what it reads.
type commandFlags struct {
	json                           bool
	noServer                       bool // read by viaServer, from the arguments
	timeout                        time.Duration
	maxSize                        int64 // --max-filesize, in bytes
	lineRegexp                     bool  // -x
	fixed                          bool  // glob -F
	typeList                       bool
	noIgnoreParent, noIgnoreGlobal bool
	unrestricted                   int // -u, -uu, -uuu
	threads                        int // -j: instances a grep is split across; 0: the CPUs
	follow                         bool
	quiet, stats, null             bool
	color                          string

	// grep
	regexps                      []string // -e
	files                        bool     // --files
	lineNumbers, filename, heads tri      // -n/-N, -H/-I, --heading/--no-heading
	column, vimgrep, pretty      bool
	patternFiles                 []string // -f
	replace                      string   // -r
	replaced                     bool     // -r was given (an empty replacement is one)
	trim                         bool
	sortr                        string

	// glob
	absolute      bool     // -a
	extensions    []string // -e
	caseSensitive bool     // -s: no smart case
	entries       entryFilter
	exactDepth    int  // --exact-depth
	stripCWD      bool // --strip-cwd-prefix
}

// tri is a flag that two flags set, the last one given winning (-n, -N).
type tri struct{ set, on bool }

type triFlag struct {
	t  *tri
	on bool
}

func (f triFlag) String() string   { return "" }
func (f triFlag) Type() string     { return "bool" }
func (f triFlag) Set(string) error { *f.t = tri{set: true, on: f.on}; return nil }

func (t tri) or(def bool) bool {
	if t.set {
		return t.on
	}
	return def
}

// env is where a search runs: this process, or a resident server for a
// client (server.go), which passes what the search would have looked up
// in its own process.
type env struct {
	ctx context.Context
	cwd string // "" for this process's: PATHs as given
	tty bool   // stdout is a terminal
	// colors: the environment lets a terminal be coloured (colorsAllowed;
	// a client's, on a server).
	colors bool
	// stdin is what grep searches when it is given no PATH, or "-", as rg
	// does: this process's standard input when it is a pipe or a file, nil
	// otherwise. A server has none of its client's: piped says the client
	// has one, and a grep that would read it runs in the client's process.
	stdin io.Reader
	piped bool
	// paths are the PATHs a resident server's client opened, by the
	// argument that names them ("" the client's working directory): a
	// server opens none itself. nil in the command's own process, which
	// opens each (openPath).
	paths map[string]openedPath
	// runner returns a runner for cfg (which key names: two configs with
	// one key are the same) and what to call when done with it.
	runner func(ctx context.Context, key string, cfg host.Config) (*host.Runner, func(), error)
}

// processEnv is this process's: interrupted by Ctrl-C, a runner a call.
func processEnv(stdin io.Reader, stdout io.Writer) (env, func()) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	if !searchable(stdin) {
		stdin = nil
	}
	return env{ctx: ctx, tty: isTerminal(stdout), colors: colorsAllowed(), stdin: stdin, piped: stdin != nil, runner: func(ctx context.Context, _ string, cfg host.Config) (*host.Runner, func(), error) {
		// Started in the background: on a fresh install the call runs on
		// the interpreter while the module compiles.
		r, err := host.NewRunner(ctx, cfg.WithLazyStart(true))
		if err != nil {
			return nil, nil, err
		}
		return r, func() { r.Close(context.Background()) }, nil
	}}, stop
}

// searchFlags declares the flags of glob or grep: the call's options from
// the table (vals) and the command's own (c).
func searchFlags(tool string) (fs *flag.FlagSet, vals *values, c *commandFlags) {
	fs = newFlags("rootbound " + tool)
	t, _ := toolOf(tool)
	vals = bindOptions(fs, t)
	c = new(commandFlags)
	bindCommand(fs, t, c)
	return fs, vals, c
}

// searchIn runs glob or grep (their kind says how they differ) over one
// or more PATHs.
func searchIn(e env, tool string, args []string, stdout, stderr io.Writer) int {
	k := kinds[tool]()
	fs, vals, c := searchFlags(tool)
	if done, code := parseSearch(fs, tool, k, args, stdout, stderr); done {
		return code
	}
	c.replaced = fs.Changed("replace")
	if c.follow {
		fmt.Fprintf(stderr, "rootbound %s: -L/--follow is refused: symbolic links are never followed, at any component of any path (a link is counted, never read through); instead: give the link's target as PATH\n", tool)
		return 2
	}
	if c.typeList {
		for _, name := range host.TypeNames() {
			fmt.Fprintf(stdout, "%s: %s\n", name, strings.Join(host.TypeGlobs(name), ", "))
		}
		return 0
	}
	if c.pretty {
		c.heads, c.lineNumbers = tri{set: true, on: true}, tri{set: true, on: true}
	}
	if c.color != "never" && c.color != "auto" && c.color != "always" {
		fmt.Fprintf(stderr, "rootbound %s: --color %q, want never, auto or always\n", tool, c.color)
		return 2
	}
	if c.sortr != "" && c.sortr != "modified" && c.sortr != "mtime" {
		fmt.Fprintf(stderr, "rootbound %s: --sortr %q, want modified (newest first)\n", tool, c.sortr)
		return 2
	}
	if code, ok := c.readPatternFiles(e.cwd, stderr); !ok {
		return code
	}
	pattern, paths, unopened, ok := c.positional(e, tool, k, fs.Args(), stderr)
	if !ok {
		return unopened
	}
	defer closeTargets(paths)
	raw, err := vals.Args(pattern, "")
	if err == nil {
		k, err = k.call(c, raw)
	}
	if err != nil {
		fmt.Fprintf(stderr, "rootbound %s: %v\n", tool, err)
		return 2
	}
	if max := k.maxResults(); max < 1 || max > protocol.MaxResultsCeiling {
		fmt.Fprintf(stderr, "rootbound %s: --max-results %d, want 1 to %d (the default is everything)\n", tool, max, protocol.MaxResultsCeiling)
		return 2
	}
	for i, p := range paths {
		if !p.stdin {
			continue
		}
		if e.stdin == nil {
			if e.piped {
				return fallback
			}
			fmt.Fprintf(stderr, "rootbound %s: -: no standard input to search (it is a terminal)\n", tool)
			return 2
		}
		t, err := stdinTarget(e.stdin, c.maxSize, k.streams(c))
		if err != nil {
			fmt.Fprintln(stderr, "rootbound:", err)
			return 2
		}
		paths[i] = t
	}

	ctx, cancel := context.WithTimeout(e.ctx, c.timeout)
	defer cancel()
	out := newOutput(stdout, k.style(c, e.tty, len(paths) == 1 && paths[0].file != "", e.colors))
	out.quiet = c.quiet
	var total runTotals
	code := 1
	if unopened == 2 {
		code = 2
	}
	for _, p := range paths {
		out.lines.Prefix = k.prefix(c, p)
		r, done := c.runner(ctx, e, p, k.noIgnore(), stderr)
		if r == nil {
			code = 2
			continue
		}
		if c.json {
			req := protocol.Request{V: protocol.Version, ID: "1",
				Limits: &protocol.Limits{DeadlineMS: c.timeout.Milliseconds(), MaxFileSize: c.maxSize}}
			k.request(&req, p.file)
			rc := serveJSON(ctx, r, req, out.lines.Prefix, stdout, stderr)
			done()
			code = worse(code, rc)
			continue
		}
		res, err := k.run(ctx, r, c, p, out)
		done()
		if res == nil {
			fmt.Fprintln(stderr, "rootbound:", err)
			code = 2
			continue
		}
		total.add(res)
		out.problems(stderr, res)
		if out.quit {
			return 0
		}
		switch {
		case res.Done.Error != nil, res.Done.Skipped.Unreadable > 0:
			code = 2
		case res.Done.Results > 0 && code == 1:
			code = 0
		}
	}
	if c.json {
		return code
	}
	out.flush()
	if out.found == 0 && code != 2 {
		code = 1
	}
	if c.stats {
		c.printStats(stdout, out, total)
	}
	total.notices(stderr, out.found == 0 || c.stats, c.maxSize)
	if out.found == 0 {
		k.none(stderr)
	}
	return code
}

// parseSearch parses the flags of glob or grep. A flag rg or fd has and
// rootbound does not is named as theirs.
func parseSearch(fs *flag.FlagSet, tool string, k kind, args []string, stdout, stderr io.Writer) (done bool, code int) {
	t, _ := toolOf(tool)
	if name, f, ok := refusedFlag(t, fs, args); ok {
		fmt.Fprintf(stderr, "rootbound %s: %s's %s (%s) is not supported; instead: %s\n", tool, k.like(), name, f.What, f.Instead)
		return true, 2
	}
	return parse(fs, args, fmt.Sprintf("usage: rootbound %s [flags] %s\n", tool, k.usage())+pathRule, stdout, stderr)
}

// target is one PATH: the directory to search below, opened (dir), the
// file to search in it ("" for the directory itself), and the prefixes
// that make result paths read as PATH does (absolute: with -a).
type target struct {
	dir                    *os.File
	file, prefix, absolute string
	stdin                  bool   // standard input (no PATH and a piped stdin, or "-"), as rg searches it
	close                  func() // what the target holds: dir (when this process opened it), a copy of stdin
	// stream is standard input still to be read, searched a piece at a
	// time (stdin.go); nil when the target is all there.
	stream io.Reader
}

// openedPath is a PATH a client opened for its resident server: the
// directory, and the file in it when PATH names one.
type openedPath struct {
	dir  *os.File
	file string
	err  error // it did not open: why
}

// closeTargets lets go of what the targets hold.
func closeTargets(ts []target) {
	for _, t := range ts {
		t.closeNow()
	}
}

// fallback is the exit status of a call a server cannot take: the grep
// would read the client's standard input, or a PATH the client did not
// open. The client runs it itself.
const fallback = -1

// errNotOpened: a server was not handed a PATH (fallback).
var errNotOpened = errors.New("a PATH the client did not open")

// positional reads the arguments after the flags: the pattern, and the
// PATHs (the current directory when none), opened. When !ok, code is the
// exit status (2, or fallback); when ok, code is 2 if a PATH could not be
// opened (it was said, and the others are to be searched), else 0.
func (c *commandFlags) positional(e env, tool string, k kind, args []string, stderr io.Writer) (pattern string, paths []target, code int, ok bool) {
	pattern, args, stdin, ok := k.pattern(c, args)
	if !ok {
		fmt.Fprintf(stderr, "rootbound %s: want PATTERN [PATH ...] (rootbound %s --help lists the forms)\n", tool, tool)
		return "", nil, 2, false
	}
	if len(args) == 0 {
		args = []string{""}
		if stdin && e.piped {
			args = []string{"-"} // as rg: no PATH, and something piped in
		}
	}
	for _, a := range args {
		if a == "-" && stdin {
			paths = append(paths, target{stdin: true})
			continue
		}
		p, err := resolveTarget(e, a)
		if errors.Is(err, errNotOpened) {
			closeTargets(paths)
			return "", nil, fallback, false
		}
		if err != nil {
			// As rg: said, and the other PATHs searched; the exit status
			// is 2 whatever they find.
			fmt.Fprintln(stderr, "rootbound:", err)
			code = 2
			continue
		}
		paths = append(paths, p)
	}
	return pattern, paths, code, len(paths) > 0
}

// resolveTarget opens a PATH argument ("" for none: the working
// directory), where e says (this process opens it, openPath; a resident
// server takes what its client opened), and turns it into a target.
// Messages name PATH as given.
func resolveTarget(e env, arg string) (target, error) {
	var t target
	if e.paths != nil {
		p, ok := e.paths[arg]
		switch {
		case !ok:
			return target{}, errNotOpened
		case p.err != nil:
			return target{}, p.err
		}
		t.dir, t.file = p.dir, p.file // the server's handler closes them
	} else {
		dir, file, err := openPath("", cmp.Or(arg, "."))
		if err != nil {
			return target{}, err
		}
		t.dir, t.file, t.close = dir, file, func() { dir.Close() }
	}
	// The directory's name is its absolute path as typed (openPath's,
	// the client's on a server): -a's prefix.
	t.absolute = strings.TrimSuffix(t.dir.Name(), "/") + "/"
	switch {
	case arg == "":
	case t.file == "":
		t.prefix = strings.TrimSuffix(arg, "/") + "/"
	default:
		t.prefix = strings.TrimSuffix(arg, filepath.Base(arg))
	}
	return t, nil
}

// closeNow lets go of what t holds.
func (t target) closeNow() {
	if t.close != nil {
		t.close()
	}
}

// inDir is the path p names from the directory cwd ("": this process's,
// p as it is).
func inDir(cwd, p string) string {
	if cwd == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(cwd, p)
}

// globArgs applies the command's own flags to a glob call, and readies
// what the host decides (c.entries): whether only executable files are
// wanted (fd -t x), and the bounds of depth.
func (c *commandFlags) globArgs(a *host.GlobArgs) {
	if !c.caseSensitive && !strings.ContainsFunc(a.Pattern, unicode.IsUpper) {
		a.CaseInsensitive = true // fd's smart case
	}
	if c.fixed {
		// fd -F: a name that holds the string, its wildcards literal.
		a.Pattern = "*" + globQuote.Replace(a.Pattern) + "*"
	}
	for _, ext := range c.extensions {
		a.Glob = append(a.Glob, "*."+anyCase(strings.TrimPrefix(ext, ".")))
	}
	if c.unrestricted > 0 {
		a.NoIgnore = true
	}
	if i := slices.Index(a.EntryType, "executable"); i >= 0 {
		a.EntryType = slices.Delete(a.EntryType, i, i+1)
		if !slices.Contains(a.EntryType, "file") {
			a.EntryType = append(a.EntryType, "file")
		}
		c.entries.executable = len(a.EntryType) == 1
	}
	if c.exactDepth > 0 {
		c.entries.minDepth, a.MaxDepth = c.exactDepth, c.exactDepth
	}
	c.entries.now = time.Now()
}

// grepArgs applies the command's own flags to a grep call.
func (c *commandFlags) grepArgs(a *host.GrepArgs) {
	if len(c.regexps) > 1 {
		a.Patterns = c.regexps[1:]
	}
	if c.files {
		a.OutputMode = protocol.ModeFiles
	}
	if c.unrestricted > 0 {
		a.NoIgnore = true
	}
	if c.unrestricted > 2 {
		a.Text = true
	}
	switch c.sortr {
	case "modified", "mtime":
		a.Sort = protocol.SortMTime
	}
	if c.lineRegexp {
		// rg -x: a match is a whole line; a literal (-F) is quoted first.
		whole := func(p string) string {
			if a.Literal {
				p = regexp.QuoteMeta(p)
			}
			return "^(?:" + p + ")$"
		}
		a.Pattern = whole(a.Pattern)
		for i, p := range a.Patterns {
			a.Patterns[i] = whole(p)
		}
		a.Literal = false
	}
}

// anyCase writes a glob that matches s in any letter case: "go" is
// "[gG][oO]".
func anyCase(s string) string {
	var b strings.Builder
	for _, r := range s {
		lo, up := strings.ToLower(string(r)), strings.ToUpper(string(r))
		switch {
		case lo != up:
			b.WriteString("[" + lo + up + "]")
		case strings.ContainsRune(`*?[]{}\!,`, r):
			b.WriteString(`\` + string(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anyCaseAll writes globs to match in any letter case (rg --iglob).
func anyCaseAll(globs []string) []string {
	out := make([]string, len(globs))
	for i, g := range globs {
		body, neg := strings.CutPrefix(g, "!")
		out[i] = anyCaseGlob(body)
		if neg {
			out[i] = "!" + out[i]
		}
	}
	return out
}

// anyCaseGlob makes the letters of a glob match in any case, outside its
// [classes] (which keep theirs) and escapes.
func anyCaseGlob(g string) string {
	var b strings.Builder
	class, esc := false, false
	for _, r := range g {
		lo, up := strings.ToLower(string(r)), strings.ToUpper(string(r))
		switch {
		case esc:
			esc = false
			b.WriteRune(r)
		case r == '\\':
			esc = true
			b.WriteRune(r)
		case class:
			class = r != ']'
			b.WriteRune(r)
		case r == '[':
			class = true
			b.WriteRune(r)
		case lo != up:
			b.WriteString("[" + lo + up + "]")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// worse is the exit status of two runs: an error over anything, something
// found over nothing.
func worse(a, b int) int {
	if a == 2 || b == 2 {
		return 2
	}
	return min(a, b)
}

// runner starts the runner of a search of t's directory (opened: the
// runner opens it through its descriptor, never by a name), with the
// ignore rules from the directories above it (as rg reads them) unless
// noIgnore. A nil Runner comes with the exit status.
func (c commandFlags) runner(ctx context.Context, e env, t target, noIgnore bool, stderr io.Writer) (*host.Runner, func()) {
	dir := t.dir
	// The command streams what it finds, with --json too: no cap on what
	// one call returns, and lines are printed whole, as rg prints them.
	maxSize := c.maxSize
	key := fmt.Sprintf("%q %s %v %d %d %v ", dir.Name(), dirID(dir), c.timeout, maxSize, c.threads, noIgnore)
	// No default skips: the command lists what fd and rg list.
	cfg := host.NewConfig().WithRootDir("/workspace", dir).WithTimeout(c.timeout).WithMaxFileSize(maxSize).WithInstances(1).
		WithMaxResultBytes(math.MaxInt64).WithMaxTextBytes(max(maxSize, protocol.DefaultMaxFileSize)).
		WithParallelism(c.threads).WithDefaultSkips(false)
	if !noIgnore {
		outside, err := host.OutsideIgnoreRulesAt(dir)
		if err != nil {
			fmt.Fprintln(stderr, "rootbound:", err)
			return nil, nil
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
		rules, _ := json.Marshal(keep)
		key += string(rules)
	}
	r, done, err := e.runner(ctx, key, cfg)
	var git *rootfs.InsideGitError
	if errors.As(err, &git) {
		// Said of PATH as it was given, not of the root the command
		// names its directory by.
		fmt.Fprintln(stderr, "rootbound:", &rootfs.InsideGitError{Dir: escape.Path(cmp.Or(t.prefix+t.file, "."))})
		return nil, nil
	}
	if err != nil {
		fmt.Fprintln(stderr, "rootbound:", err)
		return nil, nil
	}
	for _, w := range r.Warnings() {
		fmt.Fprintln(stderr, "rootbound: warning:", w)
	}
	return r, done
}

// serveJSON runs one request through the protocol (Runner.Serve) and prints
// its lines as the module writes them, with the paths of items and
// problems as the command prints them (prefix: PATH as typed), so that a
// path read from --json works pasted back into a command; the exit status
// is rg's.
func serveJSON(ctx context.Context, r *host.Runner, req protocol.Request, prefix string, stdout, stderr io.Writer) int {
	line, _ := json.Marshal(req)
	var last bytes.Buffer
	tee := &lastLine{w: stdout, last: &last, prefix: prefix}
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

// lastLine writes whole lines through to w, the paths of items and
// problems with prefix before them, and keeps the last line written.
type lastLine struct {
	w      io.Writer
	last   *bytes.Buffer
	cur    []byte
	prefix string
}

func (l *lastLine) Write(p []byte) (int, error) {
	for _, c := range p {
		l.cur = append(l.cur, c)
		if c != '\n' {
			continue
		}
		out := l.cur
		if l.prefix != "" {
			out = prefixed(l.cur, l.prefix)
		}
		if _, err := l.w.Write(out); err != nil {
			return 0, err
		}
		l.last.Reset()
		l.last.Write(l.cur)
		l.cur = l.cur[:0]
	}
	return len(p), nil
}

// prefixed is a protocol line with prefix before the path of its item or
// problem; any other line as it is.
func prefixed(line []byte, prefix string) []byte {
	var l protocol.Line
	if !bytes.Contains(line, []byte(`"path"`)) || json.Unmarshal(line, &l) != nil || l.Item == nil && l.Problem == nil {
		return line
	}
	if l.Item != nil {
		l.Item.Path = protocol.Data(prefix) + l.Item.Path
	} else {
		l.Problem.Path = protocol.Data(prefix) + l.Problem.Path
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(l) != nil {
		return line
	}
	return b.Bytes()
}

// names is for whom names are printed: a program that asks for their
// bytes gets them (-0); output to a pipe gets each path's bytes unless one
// could break its line (or, before a line's text, holds a colon), quoted
// then as git quotes: xargs, cut and while-read loops take them as they
// take rg's, and a name can never make a line of its own; a person at a
// terminal sees them as rg and fd show them.
func names(tty, null bool) printer.Names {
	switch {
	case null:
		return printer.NamesExact
	case tty:
		return printer.NamesShown
	}
	return printer.NamesPiped
}

// searchable reports whether r is a standard input rg would search: a pipe
// or a file (not a terminal, not a device such as /dev/null), or, in
// tests, any reader given.
func searchable(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return r != nil
	}
	st, err := f.Stat()
	return err == nil && (st.Mode()&os.ModeNamedPipe != 0 || st.Mode().IsRegular())
}

// globQuote escapes what a glob would read as a wildcard or a class.
var globQuote = strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`, "]", `\]`, "{", `\{`, "}", `\}`)

// namedBinary searches again, as text, a binary file a PATH named, which
// the search skipped: rg searches a file it is given whatever it holds,
// and says "binary file matches" in place of its lines (a count or a list
// of files is what it would be of text). The answer stands for the
// search's.
func namedBinary(ctx context.Context, r *host.Runner, g host.GrepArgs, out *output) *host.Result {
	g.Text = true
	if g.OutputMode != host.ModeContent {
		res, _ := r.GrepEach(ctx, g, out.item)
		return res
	}
	g.OutputMode = host.ModeFiles
	res, _ := r.GrepEach(ctx, g, out.binaryMatch)
	return res
}
