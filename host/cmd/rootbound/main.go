// Command rootbound finds files and searches their contents inside a
// WebAssembly sandbox that can read nothing but the directory it is given.
//
//	rootbound glob [flags] PATTERN [PATH]   like fd -g PATTERN PATH
//	rootbound grep [flags] PATTERN [PATH]   like rg PATTERN PATH
//	rootbound read [flags] PATH[:A[-B]]     like cat -n PATH (lines A to B)
//	rootbound list [flags] [PATH]           like ls -A PATH, with sizes
//	rootbound serve --root DIR ...           the JSON-lines protocol on stdin and stdout
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

	flag "github.com/spf13/pflag"

	"github.com/rootbound/rootbound/host"
)

const usage = `usage:
  rootbound glob [flags] PATTERN [PATH]   find files by name or path (* ? ** [a-z] {a,b})
  rootbound grep [flags] PATTERN [PATH]   search file contents (RE2, or -F for a literal)
  rootbound read [flags] PATH[:A[-B]]     print a file's lines, numbered as cat -n numbers them
  rootbound list [flags] [PATH]           list a directory's entries with their sizes (-d N: N levels)
  rootbound serve --root DIR ...          answer protocol requests on stdin, one JSON line each
  rootbound mcp --root DIR ...            serve glob, grep, read and list over MCP (stdio, or --http 127.0.0.1:PORT)
  rootbound server [--stop]               the resident server the four tools hand their calls to (started by their first)
  rootbound version                       print the version and the module's hash

PATH is a directory or a file (default: the current directory).
Run 'rootbound COMMAND --help' for its flags.
`

func main() {
	if code, ok := viaServer(os.Args[1:], os.Stdout, os.Stderr); ok {
		os.Exit(code)
	}
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
	case "read", "list":
		return readOrList(args[0], args[1:], stdout, stderr)
	case "serve":
		return serve(args[1:], stdin, stdout, stderr)
	case "mcp":
		return mcpServe(args[1:], stdin, stdout, stderr)
	case "server":
		return serverCommand(args[1:], stdout, stderr)
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

// served reports whether the command hands a call of tool to the resident
// server (Linux; elsewhere every call runs in its own process).
func served(tool string) bool {
	return tool == "glob" || tool == "grep" || tool == "read" || tool == "list"
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

// newFlags returns the flag set of a subcommand: pflag prints nothing of
// its own (parse does).
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parse parses a subcommand's flags. --help prints usage (its first line)
// and the flags on stdout; a bad flag is one line on stderr that points to
// --help. done reports that the command is over, with its exit status.
func parse(fs *flag.FlagSet, args []string, usage string, stdout, stderr io.Writer) (done bool, code int) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return false, 0
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprintf(stdout, "%s\n%s", usage, flagHelp(fs))
		return true, 0
	}
	fmt.Fprintf(stderr, "%s: %v (%s --help lists the flags)\n", fs.Name(), err, fs.Name())
	return true, 2
}
