package host

import (
	"context"
	"strings"
	"testing"
)

// TestReadDropsCutLine: a module that dies while it writes a line (its
// memory cap) leaves the line without its '\n'; the call must end with
// why it died, so the cut line is never handed on as a line.
func TestReadDropsCutLine(t *testing.T) {
	for _, tc := range []struct {
		name, out, want string
	}{
		{name: "whole lines", out: "{\"id\":\"1\"}\n{\"id\":\"1\"}\n", want: "{\"id\":\"1\"}\n{\"id\":\"1\"}\n"},
		{name: "cut last line", out: "{\"id\":\"1\"}\n{\"id\":\"1\",\"item\":{\"pa", want: "{\"id\":\"1\"}\n"},
		{name: "only a cut line", out: "{\"id\":", want: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inst := &instance{abandoned: make(chan struct{})}
			ch := make(chan []byte, 64)
			inst.read(strings.NewReader(tc.out), ch)
			var got strings.Builder
			for c := range ch {
				got.Write(c)
			}
			if got.String() != tc.want {
				t.Errorf("handed on %q, want %q", got.String(), tc.want)
			}
		})
	}
}

// TestInstanceMemory: the index instance may hold an index sized from the
// tree, so its cap is the others' and twice the index's; every other
// instance keeps WithMemoryLimit, though the runtime's limit is the
// largest, because each instance's memory grows no further than its own.
func TestInstanceMemory(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name       string
		indexBytes int64
		wantIndex  uint64
	}{
		{name: "sized from the tree", indexBytes: 0, wantIndex: 64<<20 + 2*IndexCeiling},
		{name: "a cap given", indexBytes: 100 << 20, wantIndex: 264 << 20},
		{name: "the ceiling", indexBytes: IndexCeiling, wantIndex: 64<<20 + 2*IndexCeiling},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := NewRunner(ctx, NewConfig().WithRoot("/w", t.TempDir()).WithMemoryLimit(64<<20).WithIndex(true, tc.indexBytes))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close(ctx)
			r.mu.Lock()
			defer r.mu.Unlock()
			if r.ix.inst == nil || r.ix.inst.memory != tc.wantIndex {
				t.Errorf("the index instance's cap: %v, want %d", r.ix.inst, tc.wantIndex)
			}
			for _, inst := range r.idle {
				if inst.memory != 64<<20 {
					t.Errorf("a search instance's cap: %d, want 64 MiB", inst.memory)
				}
			}
		})
	}
	if _, err := NewRunner(ctx, NewConfig().WithRoot("/w", t.TempDir()).WithIndex(true, IndexCeiling+1)); err == nil {
		t.Error("an index cap past IndexCeiling was taken")
	}
}

// TestWithMemory: an instance's linear memory grows to its own cap and no
// further, whatever the runtime's limit (max).
func TestWithMemory(t *testing.T) {
	m := memoryOf(1<<20).Allocate(64<<10, 4<<20)
	defer m.Free()
	if b := m.Reallocate(1 << 20); len(b) != 1<<20 {
		t.Errorf("grown to its cap: %d bytes", len(b))
	}
	if b := m.Reallocate(1<<20 + 64<<10); b != nil {
		t.Errorf("grown past its cap to %d bytes", len(b))
	}
}
