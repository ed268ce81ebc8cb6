// Command bench times rootbound against ripgrep, fd and a native build of
// the same core, on the Go tree at $(go env GOROOT) and on a C-like tree it
// generates (ctree.go), and prints medians and ratios from one run, each
// row beside its goal. It is `make bench`; BENCHMARKS.md keeps a table.
//
// Four ways of running each search:
//   - ref:     rg or fd, a whole process each time;
//   - native:  the core (internal/server) compiled natively, in process, warm;
//   - library: host.Runner with a warm wazero instance (what an agent pays);
//   - cli:     the rootbound command, a whole process (module load included).
//
// Every case runs once to warm the page cache, then Runs times; the median is
// reported. Machines are noisy: read the ratios, not the milliseconds. The
// last row is the time from starting the command to its first line of
// output, on a search with many hits.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/internal/server"
	"github.com/rootbound/rootbound/protocol"
)

// Runs per measurement; the median of these is reported.
const Runs = 5

type benchCase struct {
	name string
	tree string  // "go", "c" or "node"
	goal float64 // the goal for library ÷ ref (0: none)
	ref  []string
	cli  []string // rootbound arguments (the tree is appended)
	glob *protocol.GlobArgs
	grep *protocol.GrepArgs
}

// rg is rg's command line for a case: ignore files as ours (read, in a
// repository or not), hidden files searched, our size cap.
func rg(args ...string) []string {
	return append([]string{"rg", "--hidden", "--no-require-git", "--max-filesize", "8M", "--no-messages"}, args...)
}

func cases() []benchCase {
	grep := func(pattern string, literal bool, mode protocol.OutputMode, caseMode protocol.Case) *protocol.GrepArgs {
		return &protocol.GrepArgs{Pattern: pattern, Literal: literal, OutputMode: mode, Case: caseMode, MaxResults: protocol.MaxResultsCeiling}
	}
	glob := func(pattern string) *protocol.GlobArgs {
		return &protocol.GlobArgs{Pattern: pattern, MaxResults: protocol.MaxResultsCeiling}
	}
	const files, content, count, fold = protocol.ModeFiles, protocol.ModeContent, protocol.ModeCount, protocol.CaseInsensitive
	newest := glob("*.go")
	newest.Sort = protocol.SortMTime
	noIgnoreGlob := glob("*.js")
	noIgnoreGlob.NoIgnore = true
	noIgnoreGrep := grep("needleInSource", true, files, "")
	noIgnoreGrep.NoIgnore = true
	// Grep's options (issue 11): context, words, several patterns, lines
	// that do not match, a match across lines.
	withContext := grep("errors.New", true, content, "")
	withContext.Context = 2
	word := grep("err", false, content, "")
	word.Word = true
	several := grep("TODO", false, content, "")
	several.Patterns = protocol.Strings{"FIXME"}
	invert := grep("e", false, count, "")
	invert.Invert = true
	multiline := grep(`\) Read\([^)]*\) \(n int, err error\) \{\n\s+if`, false, content, "")
	multiline.Multiline = true
	return []benchCase{
		{name: "glob *.go (11,000 results)", tree: "go", goal: 1.5, ref: []string{"fdfind", "-H", "-t", "f", "-g", "*.go"}, cli: []string{"glob", "*.go"}, glob: glob("*.go")},
		{name: "glob *.c", tree: "c", goal: 1.5, ref: []string{"fdfind", "-H", "-t", "f", "-g", "*.c"}, cli: []string{"glob", "*.c"}, glob: glob("*.c")},
		{name: "glob *.go --sort mtime", tree: "go", goal: 1.5 * 2, ref: []string{"fdfind", "-H", "-t", "f", "-g", "*.go"}, cli: []string{"glob", "--sort", "mtime", "*.go"}, glob: newest},
		{name: "glob that matches nothing", tree: "go", goal: 1.5, ref: []string{"fdfind", "-H", "-t", "f", "-g", "*.nothing"}, cli: []string{"glob", "*.nothing"}, glob: glob("*.nothing")},
		{name: "grep -l rare literal", tree: "go", goal: 1.3, ref: rg("-l", "-F", "CanonicalMIMEHeaderKey"), cli: []string{"grep", "-l", "-F", "CanonicalMIMEHeaderKey"}, grep: grep("CanonicalMIMEHeaderKey", true, files, "")},
		{name: "grep -l rare literal", tree: "c", goal: 1.3, ref: rg("-l", "-F", "flash_probe_gpio_init"), cli: []string{"grep", "-l", "-F", "flash_probe_gpio_init"}, grep: grep("flash_probe_gpio_init", true, files, "")},
		{name: "grep -l common literal", tree: "go", ref: rg("-l", "-F", "errors.New"), cli: []string{"grep", "-l", "-F", "errors.New"}, grep: grep("errors.New", true, files, "")},
		{name: "grep -n rare literal", tree: "go", ref: rg("-n", "-F", "CanonicalMIMEHeaderKey"), cli: []string{"grep", "-F", "CanonicalMIMEHeaderKey"}, grep: grep("CanonicalMIMEHeaderKey", true, content, "")},
		{name: "grep -n common literal", tree: "go", ref: rg("-n", "-F", "errors.New"), cli: []string{"grep", "-F", "errors.New"}, grep: grep("errors.New", true, content, "")},
		{name: "grep -n return (165,000 lines)", tree: "go", goal: 2, ref: rg("-n", "return"), cli: []string{"grep", "return"}, grep: grep("return", false, content, "")},
		{name: `grep -l regex \w+_init\(`, tree: "go", goal: 1.5, ref: rg("-l", `\w+_init\(`), cli: []string{"grep", "-l", `\w+_init\(`}, grep: grep(`\w+_init\(`, false, files, "")},
		{name: `grep -n regex \w+_init\(`, tree: "c", goal: 1.5, ref: rg("-n", `\w+_init\(`), cli: []string{"grep", `\w+_init\(`}, grep: grep(`\w+_init\(`, false, content, "")},
		{name: "grep -n TODO|FIXME", tree: "go", goal: 2, ref: rg("-n", "TODO|FIXME"), cli: []string{"grep", "TODO|FIXME"}, grep: grep("TODO|FIXME", false, content, "")},
		{name: "grep -n TODO|FIXME", tree: "c", goal: 2, ref: rg("-n", "TODO|FIXME"), cli: []string{"grep", "TODO|FIXME"}, grep: grep("TODO|FIXME", false, content, "")},
		{name: "grep -l -i ΣΊΣΥΦΟΣ", tree: "go", goal: 2, ref: rg("-l", "-i", "ΣΊΣΥΦΟΣ"), cli: []string{"grep", "-l", "-i", "ΣΊΣΥΦΟΣ"}, grep: grep("ΣΊΣΥΦΟΣ", false, files, fold)},
		{name: "grep -l (?i)error", tree: "go", goal: 2, ref: rg("-l", "(?i)error"), cli: []string{"grep", "-l", "(?i)error"}, grep: grep("(?i)error", false, files, "")},
		{name: `grep -c [a-z]{20,}`, tree: "go", goal: 2, ref: rg("-c", "[a-z]{20,}"), cli: []string{"grep", "-c", "[a-z]{20,}"}, grep: grep("[a-z]{20,}", false, count, "")},
		{name: `grep -l \bfoo\w*`, tree: "go", goal: 2, ref: rg("-l", `\bfoo\w*`), cli: []string{"grep", "-l", `\bfoo\w*`}, grep: grep(`\bfoo\w*`, false, files, "")},
		{name: "grep -n -C 2 common literal", tree: "go", ref: rg("-n", "-C", "2", "-F", "errors.New"), cli: []string{"grep", "-C", "2", "-F", "errors.New"}, grep: withContext},
		{name: "grep -n -w err", tree: "go", ref: rg("-n", "-w", "err"), cli: []string{"grep", "-w", "err"}, grep: word},
		{name: "grep -n -e TODO -e FIXME", tree: "go", ref: rg("-n", "-e", "TODO", "-e", "FIXME"), cli: []string{"grep", "-e", "TODO", "-e", "FIXME"}, grep: several},
		{name: "grep -c -v e", tree: "go", ref: rg("-c", "-v", "e"), cli: []string{"grep", "-c", "-v", "e"}, grep: invert},
		{name: "grep -n -U across lines", tree: "go", ref: rg("-n", "-U", "--multiline-dotall", multiline.Pattern), cli: []string{"grep", "-U", multiline.Pattern}, grep: multiline},
		// A project whose node_modules/ is ignored: the same calls with and
		// without ignore files. Ignoring must make them faster.
		{name: "glob *.js, node_modules/ ignored", tree: "node", goal: 1.5, ref: []string{"fdfind", "-H", "-t", "f", "-g", "*.js"}, cli: []string{"glob", "*.js"}, glob: glob("*.js")},
		{name: "glob *.js --no-ignore", tree: "node", ref: []string{"fdfind", "-H", "-I", "-t", "f", "-g", "*.js"}, cli: []string{"glob", "--no-ignore", "*.js"}, glob: noIgnoreGlob},
		{name: "grep -l literal, node_modules/ ignored", tree: "node", goal: 1.3, ref: rg("-l", "-F", "needleInSource"), cli: []string{"grep", "-l", "-F", "needleInSource"}, grep: grep("needleInSource", true, files, "")},
		{name: "grep -l literal --no-ignore", tree: "node", ref: rg("--no-ignore", "-l", "-F", "needleInSource"), cli: []string{"grep", "--no-ignore", "-l", "-F", "needleInSource"}, grep: noIgnoreGrep},
	}
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// only, when set (-run), keeps the cases whose name or tree it matches.
var only = flag.String("run", "", "run only the cases whose name or tree matches this regular expression")

func run() error {
	flag.Parse()
	keep, err := regexp.Compile(*only)
	if err != nil {
		return err
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "rootbound-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	trees := map[string]string{"go": strings.TrimSpace(string(out)), "c": filepath.Join(tmp, "ctree"), "node": filepath.Join(tmp, "nodetree")}
	if err := writeCTree(trees["c"]); err != nil {
		return err
	}
	if err := writeNodeTree(trees["node"]); err != nil {
		return err
	}
	cli := filepath.Join(tmp, "rootbound")
	if out, err := exec.Command("go", "build", "-o", cli, "./host/cmd/rootbound").CombinedOutput(); err != nil {
		return fmt.Errorf("build: %v\n%s", err, out)
	}
	// The command's rows run in its own process; the resident server has
	// rows of its own (serverTable).
	os.Setenv("ROOTBOUND_SERVER", "off")
	trees["tiny"] = filepath.Join(tmp, "tiny")
	if err := writeTinyTree(trees["tiny"]); err != nil {
		return err
	}
	ctx := context.Background()
	// runners: one instance a call; split: a grep split across two.
	runners, split := map[string]*host.Runner{}, map[string]*host.Runner{}
	natives := map[string]*server.Server{}
	for name, tree := range trees {
		for n, m := range map[int]map[string]*host.Runner{1: runners, 2: split} {
			r, err := host.NewRunner(ctx, host.NewConfig().WithRoot("/tree", tree).WithTimeout(time.Minute).WithBudget(0, 0).WithMaxResultBytes(1<<30).
				WithParallelism(n))
			if err != nil {
				return err
			}
			defer r.Close(ctx)
			m[name] = r
		}
		var err error
		if natives[name], err = server.New([]server.Root{{Name: "/tree", Dir: tree}}); err != nil {
			return err
		}
	}

	fmt.Printf("trees: go = $(go env GOROOT), c = a generated C-like tree (ctree.go), node = a generated JavaScript project with an ignored node_modules/ (nodetree.go); %d runs each, median; ratios to rg/fd (lower is better)\n\n", Runs)
	fmt.Println("| case | tree | rg/fd | native core | library (warm) | CLI (process) | library ÷ ref | goal | CLI ÷ ref | library ÷ native |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	libTimes := map[string]timing{}
	for _, c := range cases() {
		if !keep.MatchString(c.name) && !keep.MatchString(c.tree) {
			continue
		}
		tree := trees[c.tree]
		ref := median(func() error { return refRun(c.ref, tree) })
		nat := median(func() error {
			req := protocol.Request{V: protocol.Version, ID: "1", Call: protocol.Call{Glob: c.glob, Grep: c.grep}}
			line, _ := json.Marshal(req)
			return natives[c.tree].Serve(bytes.NewReader(append(line, '\n')), io.Discard)
		})
		lib := median(func() error {
			var err error
			if c.glob != nil {
				_, err = runners[c.tree].Glob(ctx, host.GlobArgs(*c.glob))
			} else {
				_, err = runners[c.tree].Grep(ctx, *c.grep)
			}
			return err
		})
		proc := median(func() error { return runDiscard(exec.Command(cli, append(c.cli, tree)...)) })
		libTimes[c.name] = lib
		goal := "–"
		if c.goal > 0 {
			verdict := "met"
			if r := ratio(lib, ref); r > c.goal || r == 0 {
				verdict = "missed"
			}
			goal = fmt.Sprintf("≤ %.1f× (%s)", c.goal, verdict)
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %.1f× | %s | %.1f× | %.1f× |\n", c.name, c.tree,
			ms(ref), ms(nat), ms(lib), ms(proc), ratio(lib, ref), goal, ratio(proc, ref), ratio(lib, nat))
	}
	for _, pair := range [][2]string{{"glob *.js, node_modules/ ignored", "glob *.js --no-ignore"},
		{"grep -l literal, node_modules/ ignored", "grep -l literal --no-ignore"}} {
		with, without := libTimes[pair[0]], libTimes[pair[1]]
		if with.d == 0 && with.err == nil {
			continue // not run
		}
		verdict := "met"
		if r := ratio(with, without); r >= 1 || r == 0 {
			verdict = "missed"
		}
		fmt.Printf("\n| ignoring node_modules/: %s | %s, %s without ignore files | %.1f× faster | goal: faster (%s) |", pair[0], ms(with), ms(without), ratio(without, with), verdict)
	}
	fmt.Println()
	if *realDir != "" {
		trees["real"] = *realDir
	}
	unitsTable(keep, trees)
	if err := gramsTable(keep, tmp, trees); err != nil {
		return err
	}
	// internal/index's benchmarks as test binaries, each built when first
	// run.
	ib, err := newIndexBench(ctx, tmp, trees["go"])
	if err != nil {
		return err
	}
	defer ib.rt.Close(ctx)
	if err := hostFnTable(ctx, keep, ib); err != nil {
		return err
	}
	if err := dfaTable(ctx, keep, ib); err != nil {
		return err
	}
	if err := splitBuildTable(ctx, keep, tmp, ib); err != nil {
		return err
	}
	if err := splitTable(ctx, keep, trees, runners, split); err != nil {
		return err
	}
	if err := indexTable(ctx, keep, trees, runners); err != nil {
		return err
	}
	if err := everyTable(ctx, keep, trees, split); err != nil {
		return err
	}
	if err := walkTable(ctx, keep, ib, trees, runners, split); err != nil {
		return err
	}
	first := median(func() error { return firstLine([]string{cli, "grep", "return", trees["go"]}) })
	rgFirst := median(func() error {
		return firstLine([]string{"rg", "-n", "--hidden", "--no-require-git", "return", trees["go"]})
	})
	verdict := "met"
	if first.err != nil || first.d > 150*time.Millisecond {
		verdict = "missed"
	}
	fmt.Printf("\n| CLI: time to the first line of grep -n return on the go tree | rootbound %s | rg %s | goal ≤ 150 ms (%s) |\n", ms(first), ms(rgFirst), verdict)
	if err := buildingTable(ctx, keep, trees, split); err != nil {
		return err
	}
	if err := restartTable(ctx, keep, tmp, trees); err != nil {
		return err
	}
	if err := startTable(keep, cli, tmp, trees); err != nil {
		return err
	}
	if err := serverTable(keep, cli, tmp, trees); err != nil {
		return err
	}
	if err := bigTable(ctx, keep, tmp); err != nil {
		return err
	}
	return realTable(ctx, keep)
}

func refRun(argv []string, dir string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	return runDiscard(cmd)
}

// runDiscard runs cmd with its output discarded (through a pipe: rg behaves
// otherwise when its stdout is /dev/null). Exit status 1, nothing found,
// is not a failure.
func runDiscard(cmd *exec.Cmd) error {
	cmd.Stdout = io.Discard
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		return nil
	}
	return err
}

// firstLine runs argv until it prints its first line, then stops it.
func firstLine(argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	_, err = bufio.NewReader(out).ReadString('\n')
	cmd.Process.Kill()
	cmd.Wait()
	return err
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
	return timing{d: mid(ds)}
}

// verdict words whether a row met its goal.
func verdict(met bool) string {
	if met {
		return "met"
	}
	return "missed"
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
