// Command bench times rootbound against ripgrep, fd and a native build of
// the same core, on the Go tree at $(go env GOROOT), and prints medians and
// ratios from one run. It is `make bench`; BENCHMARKS.md keeps a table.
//
// Four ways of running each search:
//   - ref:     rg or fd, a whole process each time;
//   - native:  the core (guest/server) compiled natively, in process, warm;
//   - library: host.Runner with a warm wazero instance (what an agent pays);
//   - cli:     the rootbound command, a whole process (module load included).
//
// Every case runs once to warm the page cache, then Runs times; the median is
// reported. Machines are noisy: read the ratios, not the milliseconds.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rootbound/rootbound/guest/protocol"
	"github.com/rootbound/rootbound/guest/server"
	"github.com/rootbound/rootbound/host"
)

// Runs per measurement; the median of these is reported.
const Runs = 5

type benchCase struct {
	name string
	ref  []string // argv of rg or fd, run in the tree
	cli  []string // rootbound arguments (the tree is appended)
	glob *protocol.GlobArgs
	grep *protocol.GrepArgs
}

func cases() []benchCase {
	rg := func(args ...string) []string {
		return append([]string{"rg", "-uu", "--max-filesize", "8M", "--no-messages"}, args...)
	}
	grep := func(pattern string, literal bool, mode string) *protocol.GrepArgs {
		return &protocol.GrepArgs{Pattern: pattern, Literal: literal, OutputMode: mode, MaxResults: protocol.MaxResultsCeiling}
	}
	return []benchCase{
		{name: "glob *.go", ref: []string{"fdfind", "-u", "-t", "f", "-g", "*.go"}, cli: []string{"glob", "*.go"},
			glob: &protocol.GlobArgs{Pattern: "*.go", MaxResults: protocol.MaxResultsCeiling}},
		{name: "grep -l rare literal", ref: rg("-l", "-F", "CanonicalMIMEHeaderKey"), cli: []string{"grep", "-l", "-F", "CanonicalMIMEHeaderKey"},
			grep: grep("CanonicalMIMEHeaderKey", true, protocol.ModeFiles)},
		{name: "grep -l common literal", ref: rg("-l", "-F", "errors.New"), cli: []string{"grep", "-l", "-F", "errors.New"},
			grep: grep("errors.New", true, protocol.ModeFiles)},
		{name: `grep -l regex \w+_init\(`, ref: rg("-l", `\w+_init\(`), cli: []string{"grep", "-l", `\w+_init\(`},
			grep: grep(`\w+_init\(`, false, protocol.ModeFiles)},
		{name: "grep -n rare literal", ref: rg("-n", "-F", "CanonicalMIMEHeaderKey"), cli: []string{"grep", "-F", "CanonicalMIMEHeaderKey"},
			grep: grep("CanonicalMIMEHeaderKey", true, protocol.ModeContent)},
		{name: "grep -n common literal", ref: rg("-n", "-F", "errors.New"), cli: []string{"grep", "-F", "errors.New"},
			grep: grep("errors.New", true, protocol.ModeContent)},
		{name: `grep -n regex \w+_init\(`, ref: rg("-n", `\w+_init\(`), cli: []string{"grep", `\w+_init\(`},
			grep: grep(`\w+_init\(`, false, protocol.ModeContent)},
	}
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run() error {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return err
	}
	tree := strings.TrimSpace(string(out))
	tmp, err := os.MkdirTemp("", "rootbound-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cli := filepath.Join(tmp, "rootbound")
	if out, err := exec.Command("go", "build", "-o", cli, "./host/cmd/rootbound").CombinedOutput(); err != nil {
		return fmt.Errorf("build: %v\n%s", err, out)
	}
	ctx := context.Background()
	runner, err := host.NewRunner(ctx, host.NewConfig().WithRoot("/go", tree).WithTimeout(time.Minute).WithBudget(0, 0))
	if err != nil {
		return err
	}
	defer runner.Close(ctx)
	native, err := server.New([]server.Root{{Name: "/go", Dir: tree}})
	if err != nil {
		return err
	}

	fmt.Printf("tree: $(go env GOROOT), %d runs each, median; ratios are to rg/fd (lower is better)\n\n", Runs)
	fmt.Println("| case | rg/fd | native core | library (warm) | CLI (process) | library ÷ ref | CLI ÷ ref | library ÷ native |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, c := range cases() {
		ref := median(func() error {
			cmd := exec.Command(c.ref[0], c.ref[1:]...)
			cmd.Dir = tree
			cmd.Stdout = io.Discard
			err := cmd.Run()
			if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
				return nil // no match is not a failure
			}
			return err
		})
		nat := median(func() error {
			req := protocol.Request{V: protocol.Version, ID: "1", Glob: c.glob, Grep: c.grep}
			line, _ := json.Marshal(req)
			return native.Serve(bytes.NewReader(append(line, '\n')), io.Discard)
		})
		lib := median(func() error {
			var err error
			if c.glob != nil {
				_, err = runner.Glob(ctx, host.GlobArgs(*c.glob))
			} else {
				_, err = runner.Grep(ctx, host.GrepArgs(*c.grep))
			}
			return err
		})
		proc := median(func() error {
			cmd := exec.Command(cli, append(c.cli, tree)...)
			cmd.Stdout = io.Discard
			err := cmd.Run()
			if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
				return nil
			}
			return err
		})
		fmt.Printf("| %s | %s | %s | %s | %s | %.1f× | %.1f× | %.1f× |\n", c.name,
			ms(ref), ms(nat), ms(lib), ms(proc), ratio(lib, ref), ratio(proc, ref), ratio(lib, nat))
	}
	return nil
}

type timing struct {
	d   time.Duration
	err error
}

func median(f func() error) timing {
	if err := f(); err != nil { // warm the page cache and any instance
		return timing{err: err}
	}
	ds := make([]time.Duration, Runs)
	for i := range ds {
		start := time.Now()
		if err := f(); err != nil {
			return timing{err: err}
		}
		ds[i] = time.Since(start)
	}
	slices.Sort(ds)
	return timing{d: ds[Runs/2]}
}

func ms(t timing) string {
	if t.err != nil {
		return "error: " + t.err.Error()
	}
	return fmt.Sprintf("%.0f ms", float64(t.d.Microseconds())/1000)
}

func ratio(a, b timing) float64 {
	if a.err != nil || b.err != nil || b.d == 0 {
		return 0
	}
	return float64(a.d) / float64(b.d)
}
