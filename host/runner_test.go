package host_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/internal/testtree"
	"github.com/rootbound/rootbound/protocol"
)

// goroot is the Go tree every machine has: a real tree large enough that a
// search of it outlasts the short deadlines and budgets these tests set.
func goroot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("go env GOROOT: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "src")
}

func newRunner(t *testing.T, cfg host.Config) *host.Runner {
	t.Helper()
	r, err := host.NewRunner(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(context.Background()) })
	return r
}

func paths(res *host.Result) []string {
	var out []string
	for _, it := range res.Items {
		out = append(out, string(it.Path))
	}
	return out
}

func code(err error) string {
	var e *host.Error
	if errors.As(err, &e) {
		return e.Code
	}
	if err != nil {
		return "untyped: " + err.Error()
	}
	return ""
}

// TestConfinement plants symbolic links out of the root, absolute and
// relative, to files and directories, and proves that under the wazero host
// nothing outside is listed or read, by any path.
func TestConfinement(t *testing.T) {
	outside := testtree.New(t, map[string]string{"secret.txt": "TOPSECRET\n", "dir/inner.txt": "TOPSECRET\n"})
	root := testtree.New(t, map[string]string{
		"ok.txt":    "fine\n",
		"abs-file":  "->" + filepath.Join(outside, "secret.txt"),
		"abs-dir":   "->" + filepath.Join(outside, "dir"),
		"rel-file":  "->../" + filepath.Base(outside) + "/secret.txt",
		"rel-dir":   "->../../../../../../../../" + outside,
		"sub/up":    "->../..",
		"sub/chain": "->../abs-dir",
		"sub/slash": "->/",
		"inside":    "->sub",
	})
	r := newRunner(t, host.NewConfig().WithRoot("/workspace", root))
	ctx := context.Background()

	res, err := r.Glob(ctx, host.GlobArgs{Pattern: "**", MaxResults: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(res); !reflect.DeepEqual(got, []string{"ok.txt"}) {
		t.Errorf("glob ** = %q, want only ok.txt", got)
	}
	if res.Done.Skipped.Symlink != 8 {
		t.Errorf("symlinks skipped = %d, want 8", res.Done.Skipped.Symlink)
	}
	if res, err := r.Grep(ctx, host.GrepArgs{Pattern: "fine"}); err != nil || len(res.Items) != 1 {
		t.Fatalf("grep inside the root: %q, %v", paths(res), err)
	}
	for _, mode := range []host.OutputMode{protocol.ModeFiles, protocol.ModeContent, protocol.ModeCount} {
		res, err = r.Grep(ctx, host.GrepArgs{Pattern: "TOPSECRET", OutputMode: mode})
		if err != nil || len(res.Items) != 0 {
			t.Errorf("grep %s: %q, %v; want no results", mode, paths(res), err)
		}
	}
	for _, p := range []string{"abs-dir", "rel-dir", "sub/chain", "sub/slash", "abs-dir/", "sub/chain/", "rel-dir/dir", "sub/up/" + filepath.Base(outside), "/workspace/../" + filepath.Base(outside), outside, "../" + filepath.Base(outside)} {
		res, err := r.Grep(ctx, host.GrepArgs{Pattern: "TOPSECRET", Path: p})
		if err == nil || len(res.Items) != 0 {
			t.Errorf("grep in %q: %q, %v; want an error", p, paths(res), err)
		}
		if err != nil && strings.Contains(err.Error(), outside) && !strings.Contains(p, outside) {
			t.Errorf("grep in %q: error names the host path: %v", p, err)
		}
	}
}

func TestDeadline(t *testing.T) {
	src := goroot(t)
	r := newRunner(t, host.NewConfig().WithRoot("/go", src).WithTimeout(150*time.Millisecond))
	start := time.Now()
	res, err := r.Grep(context.Background(), host.GrepArgs{Pattern: `func \w+\(`, MaxResults: protocol.MaxResultsCeiling})
	took := time.Since(start)
	if code(err) != protocol.CodeDeadline || res.Done.Status != protocol.StatusPartial {
		t.Fatalf("err %v status %s, want a deadline error and partial results", err, res.Done.Status)
	}
	if len(res.Items) == 0 {
		t.Error("no partial results")
	}
	if took > 2*time.Second {
		t.Errorf("the deadline error took %v", took)
	}
	res, err = r.Glob(context.Background(), host.GlobArgs{Pattern: "*.go", Path: "unicode/utf8"})
	if err != nil || len(res.Items) == 0 {
		t.Errorf("next call: %v, %d results", err, len(res.Items))
	}
}

// A deadline that passed before the host handed the call over ends the
// call as the module's own first look at its clock would (conformance case
// "deadline": which of the two happens is the machine's load), and a
// cancelled call fails, on one instance and split; NewRunner with such a
// context says the same, typed (it said "context deadline exceeded").
func TestStoppedBeforeItStarted(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("x\n"), 0o644)
	expired, cancelExpired := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancelExpired()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name        string
		ctx         context.Context
		parallelism int
		status      string
		code        string
		message     string
	}{
		{name: "deadline", ctx: expired, parallelism: 1, status: protocol.StatusPartial, code: protocol.CodeDeadline, message: "deadline reached before the search finished"},
		{name: "deadline, split", ctx: expired, parallelism: 2, status: protocol.StatusPartial, code: protocol.CodeDeadline, message: "deadline reached before the search finished"},
		{name: "cancelled", ctx: cancelled, parallelism: 1, status: protocol.StatusFailed, code: protocol.CodeCancelled, message: "the call was cancelled before it started"},
		{name: "cancelled, split", ctx: cancelled, parallelism: 2, status: protocol.StatusFailed, code: protocol.CodeCancelled, message: "the call was cancelled before it started"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRunner(t, host.NewConfig().WithRoot("/w", dir).WithParallelism(tc.parallelism))
			res, err := r.Grep(tc.ctx, host.GrepArgs{Pattern: "x"})
			if res.Done.Status != tc.status || code(err) != tc.code || res.Done.Error == nil || res.Done.Error.Message != tc.message || len(res.Items) != 0 {
				t.Errorf("status %s, error %v, %d items; want %s, %s %q, none", res.Done.Status, err, len(res.Items), tc.status, tc.code, tc.message)
			}
			// A runner made with such a context: the same typed error (the
			// command gives its runner its one call's deadline, which a
			// module compiled for the first time can outlast).
			r, err = host.NewRunner(tc.ctx, host.NewConfig().WithRoot("/w", dir).WithParallelism(tc.parallelism))
			if r != nil || code(err) != tc.code {
				t.Errorf("NewRunner: %v, want %s", err, tc.code)
			}
		})
	}
}

func TestBudget(t *testing.T) {
	src := goroot(t)
	r := newRunner(t, host.NewConfig().WithRoot("/go", src).WithBudget(300, 0))
	res, err := r.Glob(context.Background(), host.GlobArgs{Pattern: "*.go", MaxResults: 1000})
	if code(err) != protocol.CodeBudget || res.Done.Status != protocol.StatusPartial || len(res.Items) == 0 {
		t.Fatalf("err %v status %s with %d results, want a budget error and partial results", err, res.Done.Status, len(res.Items))
	}
	res, err = r.Glob(context.Background(), host.GlobArgs{Pattern: "*.go", Path: "unicode/utf8"})
	if err != nil || len(res.Items) == 0 {
		t.Errorf("next call: %v, %d results", err, len(res.Items))
	}
	r = newRunner(t, host.NewConfig().WithRoot("/go", src).WithBudget(0, 1<<20))
	res, err = r.Grep(context.Background(), host.GrepArgs{Pattern: "package"})
	if code(err) != protocol.CodeBudget || len(res.Items) == 0 {
		t.Errorf("byte budget: err %v, %d results", err, len(res.Items))
	}
}

func TestMemoryCap(t *testing.T) {
	dir := testtree.New(t, map[string]string{"a.txt": "needle\n"})
	f, err := os.Create(filepath.Join(dir, "big.txt"))
	if err != nil {
		t.Fatal(err)
	}
	line := []byte(strings.Repeat("x", 1<<20))
	for i := 0; i < 48; i++ {
		f.Write(line)
	}
	f.Close()
	// One instance, and a grep split across two (the host's merge).
	for _, parallelism := range []int{1, 2} {
		r := newRunner(t, host.NewConfig().WithRoot("/w", dir).WithMemoryLimit(32<<20).WithMaxFileSize(1<<30).WithParallelism(parallelism))
		res, err := r.Grep(context.Background(), host.GrepArgs{Pattern: "needle"})
		if code(err) != protocol.CodeMemory || res.Done.Status != protocol.StatusPartial {
			t.Fatalf("parallelism %d: err %v status %s, want a memory error", parallelism, err, res.Done.Status)
		}
		if got := paths(res); !reflect.DeepEqual(got, []string{"a.txt"}) {
			t.Errorf("parallelism %d: partial results %q, want a.txt (found before the big file)", parallelism, got)
		}
		if res.Done.Results != 1 {
			t.Errorf("parallelism %d: the answer counts %d results, want the 1 handed on before the module died", parallelism, res.Done.Results)
		}
		res, err = r.Glob(context.Background(), host.GlobArgs{Pattern: "*.txt"})
		if err != nil || len(res.Items) != 2 {
			t.Errorf("parallelism %d: next call: %v, %q", parallelism, err, paths(res))
		}
	}
}

func TestCancel(t *testing.T) {
	src := goroot(t)
	r := newRunner(t, host.NewConfig().WithRoot("/go", src))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	res, err := r.Grep(ctx, host.GrepArgs{Pattern: `\w+_test\(`, MaxResults: 1000})
	if code(err) != protocol.CodeCancelled || res.Done.Status != protocol.StatusPartial {
		t.Fatalf("err %v status %s, want cancelled", err, res.Done.Status)
	}
	res, err = r.Grep(ctx, host.GrepArgs{Pattern: "x"})
	if code(err) != protocol.CodeCancelled || res.Done.Status != protocol.StatusFailed {
		t.Errorf("call on a done context: %v %s", err, res.Done.Status)
	}
	res, err = r.Glob(context.Background(), host.GlobArgs{Pattern: "utf8.go", Path: "unicode"})
	if err != nil || len(res.Items) != 1 {
		t.Errorf("next call: %v, %q", err, paths(res))
	}
}

func TestConcurrentCalls(t *testing.T) {
	dir := testtree.New(t, map[string]string{"a/x.go": "hello\n", "b/y.go": "hello\n", "c/z.txt": "hello\n"})
	r := newRunner(t, host.NewConfig().WithRoot("/w", dir).WithInstances(3))
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 5; j++ {
				var res *host.Result
				var err error
				want := []string{"a/x.go", "b/y.go"}
				if i%2 == 0 {
					res, err = r.Glob(context.Background(), host.GlobArgs{Pattern: "*.go"})
				} else {
					res, err = r.Grep(context.Background(), host.GrepArgs{Pattern: "hello", Glob: host.Strings{"*.go"}})
				}
				if got := paths(res); err != nil || !reflect.DeepEqual(got, want) {
					errs <- strings.Join(got, ",")
				}
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("concurrent call got %q", e)
	}
}

func TestConfigErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		cfg  host.Config
	}{
		{name: "no roots", cfg: host.NewConfig()},
		{name: "relative name", cfg: host.NewConfig().WithRoot("workspace", dir)},
		{name: "unclean name", cfg: host.NewConfig().WithRoot("/a/../b", dir)},
		{name: "root slash", cfg: host.NewConfig().WithRoot("/", dir)},
		{name: "twice", cfg: host.NewConfig().WithRoot("/a", dir).WithRoot("/a", dir)},
		{name: "nested names", cfg: host.NewConfig().WithRoot("/workspace", dir).WithRoot("/workspace/src", dir)},
		{name: ".git as a name", cfg: host.NewConfig().WithRoot("/repo/.git", dir)},
		{name: "tiny result cap", cfg: host.NewConfig().WithRoot("/a", dir).WithMaxResultBytes(10)},
		{name: "missing dir", cfg: host.NewConfig().WithRoot("/a", filepath.Join(dir, "nope"))},
		{name: "zero timeout", cfg: host.NewConfig().WithRoot("/a", dir).WithTimeout(0)},
		{name: "tiny memory", cfg: host.NewConfig().WithRoot("/a", dir).WithMemoryLimit(1 << 20)},
		{name: "no instances", cfg: host.NewConfig().WithRoot("/a", dir).WithInstances(0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if r, err := host.NewRunner(context.Background(), tt.cfg); err == nil {
				r.Close(context.Background())
				t.Fatal("NewRunner succeeded, want an error")
			}
		})
	}
	base := host.NewConfig()
	_ = base.WithRoot("/a", dir)
	if _, err := host.NewRunner(context.Background(), base); err == nil {
		t.Error("With changed the Config it was called on")
	}
}

// TestLazyStart: a Runner that starts in the background (WithLazyStart)
// answers its first calls as one started before, whether they come before
// or after its module is compiled (each waits), or not at all when its
// caller gave up; it closes cleanly while it starts.
func TestLazyStart(t *testing.T) {
	dir := testtree.New(t, map[string]string{"a.go": "package a\n// alpha\n", "b/c.txt": "alpha beta\n"})
	ctx := context.Background()
	cfg := host.NewConfig().WithRoot("/w", dir)
	eager, err := host.NewRunner(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer eager.Close(ctx)
	want, err := eager.Grep(ctx, host.GrepArgs{Pattern: "alpha", OutputMode: protocol.ModeContent})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		calls int
		given bool // the first call's context ended before it
		close bool // closed as soon as made
	}{
		{name: "calls at once", calls: 3},
		{name: "a call given up", calls: 1, given: true},
		{name: "closed while it starts", close: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := host.NewRunner(ctx, cfg.WithLazyStart(true))
			if err != nil {
				t.Fatal(err)
			}
			if tc.close {
				if err := r.Close(ctx); err != nil {
					t.Fatal(err)
				}
				if _, err := r.Grep(ctx, host.GrepArgs{Pattern: "alpha"}); err == nil {
					t.Fatal("a call on a closed Runner answered")
				}
				return
			}
			defer r.Close(ctx)
			if tc.given {
				cancelled, cancel := context.WithCancel(ctx)
				cancel()
				if res, err := r.Grep(cancelled, host.GrepArgs{Pattern: "alpha"}); err == nil {
					t.Fatalf("a call whose caller gave up answered: %+v", res.Done)
				}
			}
			var wg sync.WaitGroup
			got := make([]*host.Result, tc.calls)
			errs := make([]error, tc.calls)
			for i := range tc.calls {
				wg.Go(func() {
					got[i], errs[i] = r.Grep(ctx, host.GrepArgs{Pattern: "alpha", OutputMode: protocol.ModeContent})
				})
			}
			wg.Wait()
			for i := range tc.calls {
				if errs[i] != nil {
					t.Fatal(errs[i])
				}
				if !reflect.DeepEqual(got[i].Items, want.Items) || got[i].Done.Stats != want.Done.Stats {
					t.Fatalf("call %d: %+v, %+v; want %+v, %+v", i, got[i].Items, got[i].Done, want.Items, want.Done)
				}
			}
		})
	}
}
