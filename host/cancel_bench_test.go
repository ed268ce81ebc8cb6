package host

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkInterruption compares the two ways to stop a busy module on
// wazero, on CPU-bound searches of the Go tree: this package's (the
// module reads its clock every millisecond or so; the host reaches it
// there) and wazero's WithCloseOnContextDone (compiled code checks for
// cancellation at every loop header). RATIONALE.md quotes it.
//
//	go test ./host -run '^$' -bench Interruption -benchtime 5x
func BenchmarkInterruption(b *testing.B) {
	src := filepath.Join(goRoot(b), "src")
	searches := map[string]GrepArgs{
		"regex-no-literal":  {Pattern: `[a-z]{20,}`, OutputMode: "count", MaxResults: 1000},
		"regex-alternation": {Pattern: `TODO|FIXME`, OutputMode: "count", MaxResults: 1000},
		"literal":           {Pattern: "errors.New", Literal: true, OutputMode: "count", MaxResults: 1000},
	}
	for _, way := range []string{"clock", "close-on-context-done"} {
		cfg := NewConfig().WithRoot("/go", src).WithBudget(0, 0).(*config)
		cfg.closeOnContextDone = way != "clock"
		r, err := NewRunner(context.Background(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		for name, args := range searches {
			b.Run(way+"/"+name, func(b *testing.B) {
				for b.Loop() {
					if _, err := r.Grep(context.Background(), args); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		r.Close(context.Background())
	}
}

// goRoot is the Go tree every machine has, for benchmarks on a real tree.
func goRoot(b *testing.B) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip(err)
	}
	return strings.TrimSpace(string(out))
}
