package host

// The conformance suite: every case under testdata/conformance (a tree, a
// file of request lines, the expected answer lines) runs on every runner, and
// each runner's output must equal the golden file byte for byte. Rewrite the
// golden files from the native runner with -update-conformance.
//
// One field is not compared: the stats of a call that ended at its deadline
// say how far it got, which depends on the machine (normalize zeroes them).
// The error codes a request cannot cause (cancelled, memory, internal: the
// host's doing) are proven by the host's tests and the hostile suite.
//
// Runners: the native build of the core (in process), the wazero host (a
// Runner's instance), Node's node:wasi (examples/node/rootbound.mjs serve),
// the module as a WASI 0.2 component on Node (examples/component), and
// wasmtime (examples/wasmtime, a cgo program built on first use).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootbound/rootbound/host/internal/rootfs"
	"github.com/rootbound/rootbound/internal/server"
	"github.com/rootbound/rootbound/internal/testtree"
)

var updateConformance = flag.Bool("update-conformance", false, "rewrite testdata/conformance/*/expected.jsonl from the native runner")

const conformanceDir = "../testdata/conformance"

type conformanceCase struct {
	name        string
	Description string                               `json:"description"`
	Tree        map[string]testtree.Entry            `json:"tree"`
	Roots       map[string]map[string]testtree.Entry `json:"roots"`
	// InvalidUTF8Names holds names written with \xNN escapes.
	InvalidUTF8Names map[string]string `json:"invalid_utf8_names"`
	requests         []byte
}

// conformanceRunner answers a case's request lines with its answer lines.
type conformanceRunner struct {
	name string
	run  func(t *testing.T, roots []server.Root, requests []byte) ([]byte, error)
	// skip says why the runner cannot run here ("" when it can).
	skip func() string
	// unsupported names the cases the runtime cannot run, and why.
	unsupported map[string]string
	// noMount: the runner does not read through the wazero host's mount
	// (rootfs), so the portable run (rootfs.NoOpenat2Env set: the path
	// macOS and the BSDs take) has nothing of it to prove.
	noMount bool
}

// portable reports whether this is the portable run: the wazero mount
// opens a component at a time, as on macOS and the BSDs (make portable).
func portable() bool { return os.Getenv(rootfs.NoOpenat2Env) != "" }

var conformanceRunners = []conformanceRunner{
	{name: "native", run: runNative, skip: func() string { return "" }, noMount: true},
	{name: "wazero", run: runWazero, skip: func() string { return "" }},
	{name: "node", run: runNode, skip: nodeSkip, noMount: true},
	{name: "component", run: runComponent, skip: componentSkip, noMount: true, unsupported: map[string]string{
		"names-not-utf8": "WASI 0.2 strings are UTF-8: a name that is not arrives with U+FFFD in it",
	}},
	{name: "wasmtime", run: runWasmtime, skip: wasmtimeSkip, noMount: true, unsupported: map[string]string{
		"names-not-utf8": "wasmtime's fd_readdir fails with EILSEQ on a directory holding a name that is not UTF-8",
	}},
	{name: "serve", run: runServe, skip: serveSkip},
	// A grep split across 1, 2, 4 and 8 instances (more than this
	// machine's cores) must answer as one instance does, byte for byte.
	{name: "split-1", run: runSplit(1), skip: func() string { return "" }},
	{name: "split-2", run: runSplit(2), skip: func() string { return "" }},
	{name: "split-4", run: runSplit(4), skip: func() string { return "" }},
	{name: "split-8", run: runSplit(8), skip: func() string { return "" }},
	// Greps answered by the index instance (WithIndex) after its build:
	// its change feed, its walks recorded and replayed (a case's second
	// grep of a walk replays the first's), its routing.
	{name: "index", run: runIndexed, skip: func() string { return "" }},
}

// runIndexed answers a case's requests through Serve on a Runner whose
// index is built, so its greps go to the index instance.
func runIndexed(_ *testing.T, roots []server.Root, requests []byte) ([]byte, error) {
	ctx := context.Background()
	r, err := caseRunner(ctx, roots, NewConfig().WithParallelism(1).WithIndex(true, 0))
	if err != nil {
		return nil, err
	}
	defer r.Close(ctx)
	for i := 0; !r.Indexed(); i++ {
		r.mu.Lock()
		failed := r.ix.inst == nil
		r.mu.Unlock()
		if failed || i == 3000 {
			return nil, errors.New("the index was not built")
		}
		time.Sleep(10 * time.Millisecond)
	}
	var out bytes.Buffer
	if err := r.Serve(ctx, bytes.NewReader(requests), &out); err != nil {
		return out.Bytes(), err
	}
	r.mu.Lock()
	calls := r.ix.calls
	r.mu.Unlock()
	if calls == 0 && slices.ContainsFunc(bytes.Split(requests, []byte("\n")), untimedGrep) {
		return out.Bytes(), errors.New("no grep went to the index instance")
	}
	return out.Bytes(), nil
}

// untimedGrep reports whether a request line is a grep with time to reach
// an instance: one whose deadline is a millisecond (case deadline) may
// pass before the call is routed, on a busy machine, and then no instance
// answers it.
func untimedGrep(line []byte) bool {
	var req struct {
		Grep   json.RawMessage
		Limits struct {
			DeadlineMS int64 `json:"deadline_ms"`
		}
	}
	return json.Unmarshal(line, &req) == nil && req.Grep != nil && (req.Limits.DeadlineMS == 0 || req.Limits.DeadlineMS >= 100)
}

// runSplit answers through Runner.Serve with WithParallelism(n).
func runSplit(n int) func(t *testing.T, roots []server.Root, requests []byte) ([]byte, error) {
	return func(_ *testing.T, roots []server.Root, requests []byte) ([]byte, error) {
		ctx := context.Background()
		r, err := caseRunner(ctx, roots, NewConfig().WithParallelism(n))
		if err != nil {
			return nil, err
		}
		defer r.Close(ctx)
		r.splitMin = 0 // split every grep, however small its tree
		waitWarm(r)
		var out bytes.Buffer
		if err := r.Serve(ctx, bytes.NewReader(requests), &out); err != nil {
			return out.Bytes(), err
		}
		if n > 1 && bytes.Contains(requests, []byte(`"grep":`)) && r.split.Load() == 0 {
			return out.Bytes(), fmt.Errorf("no grep was split across %d instances", n)
		}
		return out.Bytes(), nil
	}
}

// waitWarm waits until the runner's idle instances have started, so a
// split call finds its shards.
func waitWarm(r *Runner) {
	for range 1000 {
		r.mu.Lock()
		warm := true
		for _, inst := range r.idle {
			warm = warm && inst.warm()
		}
		r.mu.Unlock()
		if warm {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// The serve runner is `rootbound serve`: the wazero host as a process that
// speaks the protocol, for programs in any language. It is built once.
var (
	serveOnce sync.Once
	serveDir  string // removed by TestMain
	serveBin  string
	serveErr  error
)

func serveSkip() string {
	serveOnce.Do(func() {
		if serveDir, serveErr = os.MkdirTemp("", "rootbound-serve"); serveErr != nil {
			return
		}
		serveBin = filepath.Join(serveDir, "rootbound")
		if out, err := exec.Command("go", "build", "-o", serveBin, "./cmd/rootbound").CombinedOutput(); err != nil {
			serveErr = fmt.Errorf("build the command: %v\n%s", err, out)
		}
	})
	if serveErr != nil {
		return serveErr.Error()
	}
	return ""
}

func runServe(_ *testing.T, roots []server.Root, requests []byte) ([]byte, error) {
	args := []string{serveBin, "serve"}
	for _, r := range roots {
		args = append(args, "--root", r.Name+"="+r.Dir)
	}
	return pipe(args, requests)
}

// The component runner is examples/component: the module as a WASI 0.2
// command component (jco's preview1 adapter), transpiled by jco, run on
// Node with preview2-shim. `make component` builds it.
func componentSkip() string {
	if _, err := os.Stat("../examples/component/out/rootbound.component.js"); err != nil {
		return "not built: run make component"
	}
	return nodeSkip()
}

func runComponent(_ *testing.T, roots []server.Root, requests []byte) ([]byte, error) {
	args := []string{"node", "../examples/component/run.mjs"}
	for _, r := range roots {
		args = append(args, r.Name+"="+r.Dir)
	}
	return pipe(args, requests)
}

// pipe runs argv with stdin and returns its stdout; stderr goes into the
// error. A host that hangs is killed after pipeTimeout.
func pipe(argv []string, stdin []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), pipeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.Bytes(), fmt.Errorf("%v: %s", err, errb.String())
	}
	return out.Bytes(), nil
}

// The wasmtime runner is examples/wasmtime, a cgo program, built once.
var (
	wasmtimeOnce sync.Once
	wasmtimeDir  string // removed by TestMain
	wasmtimeBin  string
	wasmtimeErr  error
)

func wasmtimeSkip() string {
	if out, err := exec.Command("go", "env", "CGO_ENABLED").Output(); err != nil || strings.TrimSpace(string(out)) != "1" {
		return "cgo is off"
	}
	wasmtimeOnce.Do(func() {
		dir, err := os.MkdirTemp("", "rootbound-wasmtime")
		if err != nil {
			wasmtimeErr = err
			return
		}
		wasmtimeDir = dir
		wasmtimeBin = filepath.Join(dir, "wasmtime")
		if out, err := exec.Command("go", "build", "-o", wasmtimeBin, "../examples/wasmtime").CombinedOutput(); err != nil {
			wasmtimeErr = fmt.Errorf("build examples/wasmtime: %v\n%s", err, out)
		}
	})
	if wasmtimeErr != nil {
		return wasmtimeErr.Error()
	}
	return ""
}

func runWasmtime(_ *testing.T, roots []server.Root, requests []byte) ([]byte, error) {
	var args []string
	for _, r := range roots {
		args = append(args, "--root", r.Name+"="+r.Dir)
	}
	return pipe(append([]string{wasmtimeBin}, args...), requests)
}

func loadCases(t *testing.T) []*conformanceCase {
	t.Helper()
	dirs, err := os.ReadDir(conformanceDir)
	if err != nil {
		t.Fatal(err)
	}
	var cases []*conformanceCase
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		c := &conformanceCase{name: d.Name()}
		raw, err := os.ReadFile(filepath.Join(conformanceDir, d.Name(), "tree.json"))
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(c); err != nil {
			t.Fatalf("%s/tree.json: %v", d.Name(), err)
		}
		if c.requests, err = os.ReadFile(filepath.Join(conformanceDir, d.Name(), "requests.jsonl")); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	return cases
}

// build makes the case's roots under dir; the first is /workspace.
func (c *conformanceCase) build(t *testing.T, dir string) []server.Root {
	t.Helper()
	roots := []server.Root{{Name: "/workspace", Dir: filepath.Join(dir, "workspace")}}
	testtree.WriteEntries(t, roots[0].Dir, c.Tree)
	for name, raw := range c.InvalidUTF8Names {
		unq, err := strconv.Unquote(`"` + name + `"`)
		if err != nil {
			t.Fatalf("name %q: %v", name, err)
		}
		p := filepath.Join(roots[0].Dir, unq)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(raw), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	names := make([]string, 0, len(c.Roots))
	for name := range c.Roots {
		names = append(names, name)
	}
	sort.Strings(names)
	for i, name := range names {
		d := filepath.Join(dir, fmt.Sprintf("root%d", i+1))
		testtree.WriteEntries(t, d, c.Roots[name])
		roots = append(roots, server.Root{Name: name, Dir: d})
	}
	return roots
}

func runNative(_ *testing.T, roots []server.Root, requests []byte) ([]byte, error) {
	s, err := server.New(roots)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	err = s.Serve(bytes.NewReader(requests), &out)
	return out.Bytes(), err
}

// caseRunner is a Runner of cfg with a case's roots.
func caseRunner(ctx context.Context, roots []server.Root, cfg Config) (*Runner, error) {
	// The module's answers, as every host's: the default skips are the
	// library's policy (TestDefaultSkips).
	cfg = cfg.WithDefaultSkips(false)
	for _, r := range roots {
		cfg = cfg.WithRoot(r.Name, r.Dir)
	}
	return NewRunner(ctx, cfg)
}

// runWazero sends each request line to a Runner's warm instance and collects
// the raw answer lines.
func runWazero(_ *testing.T, roots []server.Root, requests []byte) ([]byte, error) {
	ctx := context.Background()
	r, err := caseRunner(ctx, roots, NewConfig())
	if err != nil {
		return nil, err
	}
	defer r.Close(ctx)
	inst, err := r.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer r.release(inst)
	var out bytes.Buffer
	for _, line := range bytes.SplitAfter(requests, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if _, err := inst.stdin.Write(line); err != nil {
			return out.Bytes(), err
		}
		for {
			l, ok := inst.out.wait()
			if !ok {
				return out.Bytes(), fmt.Errorf("the module exited: %s", exitText(inst))
			}
			out.Write(l)
			if bytes.Contains(l, []byte(`,"done":{`)) {
				break
			}
		}
	}
	return out.Bytes(), nil
}

func nodeSkip() string {
	if _, err := exec.LookPath("node"); err != nil {
		return "node is not installed"
	}
	return ""
}

// runNode runs the Node host in serve mode: the module's stdio is the
// process's.
func runNode(_ *testing.T, roots []server.Root, requests []byte) ([]byte, error) {
	args := []string{"../examples/node/rootbound.mjs", "serve"}
	for _, r := range roots {
		args = append(args, "--root", r.Name+"="+r.Dir)
	}
	return pipe(append([]string{"node"}, args...), requests)
}

const pipeTimeout = 2 * time.Minute

func TestConformance(t *testing.T) {
	cases := loadCases(t)
	type cell struct{ ok, skipped, unsupported, noMount bool }
	results := map[string]map[string]cell{}
	rgAgrees, fdAgrees := map[string]string{}, map[string]string{}
	_, fdErr := exec.LookPath("fdfind")
	_, rgErr := exec.LookPath("rg")
	if (rgErr != nil || fdErr != nil) && (os.Getenv("ROOTBOUND_ALL_RUNNERS") != "" || os.Getenv("ROOTBOUND_COMPARE") != "") {
		t.Errorf("rg or fd is not installed (make tools): the answers cannot be checked")
	}
	for _, c := range cases {
		results[c.name] = map[string]cell{}
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			roots := c.build(t, dir)
			golden := filepath.Join(conformanceDir, c.name, "expected.jsonl")
			if *updateConformance {
				out, err := runNative(t, roots, c.requests)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, normalize(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update-conformance)", err)
			}
			if rgErr == nil {
				rgAgrees[c.name] = oracleSummary(t, "rg", oracleCheck(c.requests, want, roots))
			}
			if fdErr == nil {
				fdAgrees[c.name] = oracleSummary(t, "fd", fdCheck(c.requests, want, roots))
			}
			for _, r := range conformanceRunners {
				if r.noMount && portable() {
					results[c.name][r.name] = cell{noMount: true}
					continue
				}
				if why := r.skip(); why != "" {
					results[c.name][r.name] = cell{skipped: true}
					if os.Getenv("ROOTBOUND_ALL_RUNNERS") != "" {
						t.Errorf("%s: %s", r.name, why)
					}
					continue
				}
				if why, ok := r.unsupported[c.name]; ok {
					results[c.name][r.name] = cell{unsupported: true}
					t.Logf("%s: not supported: %s", r.name, why)
					continue
				}
				got, err := r.run(t, roots, c.requests)
				got = normalize(got)
				ok := err == nil && bytes.Equal(got, want)
				results[c.name][r.name] = cell{ok: ok}
				if err != nil {
					t.Errorf("%s: %v", r.name, err)
				} else if !ok {
					t.Errorf("%s differs from %s:\n%s", r.name, golden, firstDiff(got, want))
				}
			}
		})
	}
	// The summary: runners × cases, and whether rg and fd agree.
	fmt.Printf("\n| case | %s | rg agrees | fd agrees |\n|---|", strings.Join(runnerNames(), " | "))
	for range conformanceRunners {
		fmt.Print("---|")
	}
	fmt.Println("---|---|")
	for _, c := range cases {
		if len(results[c.name]) == 0 { // filtered out by -run
			continue
		}
		fmt.Printf("| %s (%d requests) |", c.name, bytes.Count(c.requests, []byte("\n")))
		for _, r := range conformanceRunners {
			switch cl := results[c.name][r.name]; {
			case cl.skipped:
				fmt.Print(" skipped |")
			case cl.unsupported:
				fmt.Print(" unsupported |")
			case cl.noMount:
				fmt.Print(" n/a (no mount) |")
			case cl.ok:
				fmt.Print(" equal |")
			default:
				fmt.Print(" DIFFERS |")
			}
		}
		for _, agrees := range []string{rgAgrees[c.name], fdAgrees[c.name]} {
			if agrees == "" {
				agrees = "not run"
			}
			fmt.Printf(" %s |", agrees)
		}
		fmt.Println()
	}
}

// oracleSummary reports the verdicts of rg on a case's requests: the
// requests it disagrees on fail the test; those it cannot express are
// listed with why.
func oracleSummary(t *testing.T, oracle string, vs []oracleVerdict) string {
	agree, na := 0, 0
	for _, v := range vs {
		switch {
		case v.na != "":
			na++
			t.Logf("%s: %s: not comparable: %s", oracle, v.id, v.na)
		case v.diff != "":
			t.Errorf("%s disagrees on %s: %s", oracle, v.id, v.diff)
		default:
			agree++
		}
	}
	if agree+na < len(vs) {
		return fmt.Sprintf("DIFFERS (%d of %d)", len(vs)-agree-na, len(vs))
	}
	return fmt.Sprintf("%d of %d (%d not comparable)", agree, len(vs), na)
}

// deadlineStats matches the stats of a final line that ends at its deadline.
var deadlineStats = regexp.MustCompile(`("error":\{"code":"deadline".*"stats":)\{[^}]*\}`)

// normalize zeroes the stats of calls that ended at their deadline.
func normalize(out []byte) []byte {
	return deadlineStats.ReplaceAll(out, []byte(`${1}{"dirs":0,"files":0,"files_read":0,"bytes_read":0}`))
}

func runnerNames() []string {
	var names []string
	for _, r := range conformanceRunners {
		names = append(names, r.name)
	}
	return names
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl []byte
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if !bytes.Equal(gl, wl) {
			return fmt.Sprintf("line %d\n got: %s\nwant: %s", i+1, gl, wl)
		}
	}
	return "(equal)"
}
