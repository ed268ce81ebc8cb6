package host

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/rootbound/rootbound/internal/testtree"
)

// TestWazeroDirMountEscapes shows why rootbound has a mount of its own
// (RATIONALE.md, "Why not wazero's WithDirMount?"): under wazero's
// read-only dir mount, the same module reads a file outside the root through
// a symbolic link in the middle of a path. If this test fails, wazero has
// closed the gap and the rationale needs another look.
func TestWazeroDirMountEscapes(t *testing.T) {
	base := t.TempDir()
	testtree.Write(t, base, map[string]string{
		"outside/secret.txt": outsideMarker + "\n",
		"root/ok.txt":        "fine\n",
		"root/up":            "->..",
	})
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	var out bytes.Buffer
	req := `{"v":1,"id":"1","grep":{"pattern":"ROOTBOUND","path":"up/outside","output_mode":"content"}}` + "\n"
	cfg := wazero.NewModuleConfig().WithArgs("rootbound", "--root", "/workspace").
		WithStdin(strings.NewReader(req)).WithStdout(&out).
		WithFSConfig(wazero.NewFSConfig().WithReadOnlyDirMount(filepath.Join(base, "root"), "/workspace"))
	if _, err := rt.InstantiateWithConfig(ctx, moduleWasm, cfg); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), outsideMarker) {
		t.Errorf("wazero's dir mount no longer lets the module read outside the root:\n%s", out.String())
	}
}
