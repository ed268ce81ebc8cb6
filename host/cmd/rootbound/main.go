// Command rootbound finds files and searches their contents inside a
// WebAssembly sandbox that can read nothing but the directory it is given.
//
//	rootbound glob [flags] PATTERN [PATH]   like fd -g PATTERN PATH
//	rootbound grep [flags] PATTERN [PATH]   like rg PATTERN PATH
//	rootbound read [flags] PATH[:A[-B]]     like cat -n PATH (lines A to B)
//	rootbound list [flags] [PATH]           like ls -A PATH, with sizes
//	rootbound stat [flags] PATH             what a path is: a directory, or a file's size and lines
//	rootbound serve --root DIR ...           the JSON-lines protocol on stdin and stdout
//	rootbound mcp --root DIR ...             the tools over MCP
//	rootbound completion bash|zsh|fish       the shell's completions
//	rootbound man                            the manual page
//
// PATH is a directory or a single file (default: the current directory).
// Results print as they are found. Exit status, as rg's: 0 when something
// was found, 1 when nothing was, 2 on an error or when a file could not be
// read (results found before it are still printed).
package main

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	flag "github.com/spf13/pflag"

	project "github.com/rootbound/rootbound"
	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/internal/options"
	"github.com/rootbound/rootbound/protocol"
)

func main() {
	ignoreSIGPIPE()
	out := stdout{os.Stdout}
	if code, ok := viaServer(os.Args[1:], out, os.Stderr); ok {
		os.Exit(code)
	}
	os.Exit(run(os.Args[1:], os.Stdin, out, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return 2
	}
	switch args[0] {
	case "version", "--version", "-V":
		fmt.Fprintln(stdout, version())
		return 0
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage())
		return 0
	}
	c := command(args[0])
	if c == nil {
		hint := ""
		var names []string
		for _, c := range commands {
			names = append(names, c.name)
		}
		if near := nearest(args[0], names); near != "" {
			hint = "; did you mean " + near + "?"
		}
		fmt.Fprintf(stderr, "rootbound: unknown command %q%s\n%s", args[0], hint, usage())
		return 2
	}
	if c.in == nil {
		return c.run(args[1:], stdin, stdout, stderr)
	}
	if !c.stdin {
		stdin = nil
	}
	e, stop := processEnv(stdin, stdout)
	defer stop()
	return c.in(e, c.name, args[1:], stdout, stderr)
}

// A subcommand is a row of the command's table. A tool's row is made from
// the table of tools (options.All, options.Commands); the others are the
// command's own.
type subcommand struct {
	name, synopsis, summary string
	// in runs a tool's call where e says: in this process, or in the
	// resident server for a client (which takes every tool's calls).
	in func(e env, tool string, args []string, stdout, stderr io.Writer) int
	// stdin: the tool may search what is piped to it (grep, glob --files).
	stdin bool
	// run runs a subcommand that is not a tool.
	run func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
	// flagless: it parses no flags (describe does not ask it for them).
	flagless bool
}

// commands are the subcommands, in the order usage lists them (init).
var commands []subcommand

func init() {
	// The tools whose subcommands are their own; any other tool's is
	// toolIn's: its options as flags, and one PATH.
	own := map[string]subcommand{
		"glob": {in: searchIn, stdin: true},
		"grep": {in: searchIn, stdin: true},
	}
	for _, t := range options.All {
		name := options.Names[t]
		c, ok := own[name]
		if !ok {
			c.in = toolIn
		}
		c.name, c.synopsis, c.summary = name, options.Commands[t].Synopsis, options.Commands[t].Summary
		commands = append(commands, c)
	}
	commands = append(commands,
		subcommand{name: "serve", synopsis: "--root DIR ...", summary: "answer protocol requests on stdin, one JSON line each",
			run: serve},
		subcommand{name: "mcp", synopsis: "--root DIR ...", summary: "serve the tools over MCP (stdio, or --http 127.0.0.1:PORT)",
			run: mcpServe},
		subcommand{name: "server", synopsis: "[--stop]", summary: "the resident server the tools hand their calls to (Linux; started by their first)",
			run: func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
				return serverCommand(args, stdout, stderr)
			}},
		subcommand{name: "completion", synopsis: "bash|zsh|fish", summary: "print a shell's completions", flagless: true,
			run: func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
				return completion(args, stdout, stderr)
			}},
		subcommand{name: "man", summary: "print the manual page (roff)", flagless: true,
			run: func(args []string, _ io.Reader, stdout, stderr io.Writer) int { return manPage(args, stdout, stderr) }},
		subcommand{name: "version", summary: "print the version, the protocol's, and the module's hash", flagless: true},
	)
}

// command is the subcommand of that name, or nil.
func command(name string) *subcommand {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// served reports whether the command hands a call of tool to the resident
// server (Linux; elsewhere every call runs in its own process): every
// tool's subcommand.
func served(tool string) bool {
	c := command(tool)
	return c != nil && c.in != nil
}

// version names this build: the release's version (VERSION, embedded,
// whatever built it), with the VCS revision of a checkout's build after a
// "+" (semantic versioning's build metadata: "0.1.0+1a2b3c4d5e6f", and
// ".dirty" when the tree had changes); the protocol version it speaks;
// and the first bytes of the embedded module's SHA-256, which tells builds
// with different guests apart.
func version() string {
	v := project.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev, dirty string
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision":
				rev = s.Value[:min(12, len(s.Value))]
			case s.Key == "vcs.modified" && s.Value == "true":
				dirty = ".dirty"
			}
		}
		if rev != "" {
			v += "+" + rev + dirty
		}
	}
	sum := sha256.Sum256(host.Module())
	return fmt.Sprintf("rootbound %s (protocol %d, module sha256 %x)", v, protocol.Version, sum[:6])
}

// newFlags returns the flag set of a subcommand: pflag prints nothing of
// its own (parse does).
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.BoolP("version", "V", false, "print the version and exit")
	return fs
}

// wantsVersion reports whether --version was given.
func wantsVersion(fs *flag.FlagSet) bool {
	v, _ := fs.GetBool("version")
	return v
}

// parse parses a subcommand's flags. --help prints usage (its first line)
// and the flags on stdout; a bad flag is one line on stderr that points to
// --help. done reports that the command is over, with its exit status.
func parse(fs *flag.FlagSet, args []string, usage string, stdout, stderr io.Writer) (done bool, code int) {
	if len(args) == 1 && args[0] == describeArg {
		if describer != nil {
			describer(fs, usage)
		}
		return true, 0
	}
	err := fs.Parse(args)
	switch {
	case err == nil && wantsVersion(fs):
		fmt.Fprintln(stdout, version())
		return true, 0
	case err == nil:
		return false, 0
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprintf(stdout, "%s\n%s", usage, flagHelp(fs))
		return true, 0
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		if near := nearest(name, names); near != "" {
			msg += "; did you mean --" + near + "?"
		}
	}
	fmt.Fprintf(stderr, "%s: %s (%s --help lists the flags)\n", fs.Name(), msg, fs.Name())
	return true, 2
}

// nearest is the one of names a typo of s most likely meant: within two
// edits of it (and fewer than half its length), the closest, the first
// of those as close; "" when none is.
func nearest(s string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		if d := edits(s, n); d < bestD && 2*d < len(s) {
			best, bestD = n, d
		}
	}
	return best
}

// edits is the distance between a and b in bytes: insertions, deletions,
// changes and swaps of two neighbours ("gerp" is one from "grep"), each
// one edit (the optimal string alignment distance).
func edits(a, b string) int {
	rows := [3][]int{make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)}
	for j := range rows[1] {
		rows[1][j] = j
	}
	for i := 1; i <= len(a); i++ {
		before, prev, cur := rows[0], rows[1], rows[2]
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], before[j-2]+1)
			}
		}
		rows[0], rows[1], rows[2] = prev, cur, before
	}
	return rows[1][len(b)]
}
