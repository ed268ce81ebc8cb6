package host_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/internal/testtree"
)

// The bugs a first contact with the library met, each held by a test.

// TestErrClosed: a call on a closed Runner says so in a way errors.Is sees.
func TestErrClosed(t *testing.T) {
	r, err := host.NewRunner(context.Background(), host.NewConfig().WithRoot("/w", t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.PrepareGlob(host.GlobArgs{Pattern: "*"})
	if err != nil {
		t.Fatal(err)
	}
	r.Close(context.Background())
	_, err = r.Glob(context.Background(), host.GlobArgs{Pattern: "*"})
	if !errors.Is(err, host.ErrClosed) {
		t.Errorf("Glob on a closed runner: %v, want ErrClosed", err)
	}
	if _, err := p.Run(context.Background()); !errors.Is(err, host.ErrClosed) {
		t.Errorf("a prepared call run after Close: %v, want ErrClosed", err)
	}
	var e *host.Error
	if !errors.As(err, &e) {
		t.Errorf("%v is not a *host.Error", err)
	}
}

// TestZeroPrepared: a Prepared that no Prepare made fails closed, with a
// typed error, and reads nothing.
func TestZeroPrepared(t *testing.T) {
	for name, p := range map[string]*host.Prepared{"zero": {}, "nil": nil} {
		res, err := p.Run(context.Background())
		var e *host.Error
		if !errors.As(err, &e) || e.Code != host.CodeInvalidArgument || res == nil || res.Done.Status != host.StatusFailed {
			t.Errorf("%s Prepared: %v, %+v", name, err, res)
		}
		if _, err := p.RunEach(context.Background(), func(host.Item) error { return nil }); err == nil {
			t.Errorf("%s Prepared: RunEach ran", name)
		}
	}
}

// TestAuditOfRefusedCalls: a call Tools.Call refuses before it runs is
// audited with the pattern and path it asked for.
func TestAuditOfRefusedCalls(t *testing.T) {
	var got []host.AuditRecord
	r := newRunner(t, host.NewConfig().WithRoot("/w", t.TempDir()).WithAudit(func(a host.AuditRecord) { got = append(got, a) }))
	tools := host.NewTools(r)
	tools.Call(context.Background(), "grep", []byte(`{"pattern":"TODO(","path":"src"}`))
	tools.Call(context.Background(), "glob", []byte(`{"pattern":"*.go","path":"src","max_results":0}`))
	if len(got) != 2 {
		t.Fatalf("%d audit records, want 2", len(got))
	}
	for _, a := range got {
		if a.Status != host.StatusFailed || a.Path != "src" || a.Pattern == "" || a.Code == "" {
			t.Errorf("audit record %s (%+v), want the pattern, the path and the code", a, a)
		}
	}
}

// TestEachReturnsEverything: GlobEach and GrepEach hold nothing, so they
// hand over every result unless the call sets a cap (Glob and Grep keep
// the default 100).
func TestEachReturnsEverything(t *testing.T) {
	files := map[string]string{}
	for i := range 250 {
		files[fmt.Sprintf("f%03d.txt", i)] = "x\n"
	}
	r := newRunner(t, host.NewConfig().WithRoot("/w", testtree.New(t, files)))
	ctx := context.Background()
	count := func(n *int) func(host.Item) error { return func(host.Item) error { *n++; return nil } }
	var globbed, grepped, capped int
	if _, err := r.GlobEach(ctx, host.GlobArgs{Pattern: "*.txt"}, count(&globbed)); err != nil {
		t.Fatal(err)
	}
	if _, err := r.GrepEach(ctx, host.GrepArgs{Pattern: "x"}, count(&grepped)); err != nil {
		t.Fatal(err)
	}
	res, err := r.GrepEach(ctx, host.GrepArgs{Pattern: "x", MaxResults: 7}, count(&capped))
	if err != nil {
		t.Fatal(err)
	}
	if globbed != 250 || grepped != 250 || capped != 7 || !res.Done.Truncated {
		t.Errorf("GlobEach %d, GrepEach %d, GrepEach with a cap of 7: %d (truncated %v); want 250, 250, 7 (true)", globbed, grepped, capped, res.Done.Truncated)
	}
	if res, _ := r.Glob(ctx, host.GlobArgs{Pattern: "*.txt"}); len(res.Items) != 100 {
		t.Errorf("Glob kept %d results, want the default 100", len(res.Items))
	}
}

// TestNoBinariesTracked: the repository tracks no compiled test binary or
// other executable (the committed module, host/rootbound.wasm, aside).
func TestNoBinariesTracked(t *testing.T) {
	out, err := exec.Command("git", "-C", "..", "ls-files", "-z").Output()
	if err != nil {
		t.Skip("not a git checkout:", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if strings.HasSuffix(name, ".test") {
			t.Errorf("%s is tracked: a compiled test binary", name)
			continue
		}
		f, err := os.Open("../" + name)
		if err != nil {
			continue // deleted in the work tree
		}
		head := make([]byte, 4)
		n, _ := f.Read(head)
		f.Close()
		if bytes.Equal(head[:n], []byte("\x7fELF")) {
			t.Errorf("%s is tracked: an executable", name)
		}
	}
}
