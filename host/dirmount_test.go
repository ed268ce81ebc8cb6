//go:build unix

package host

import (
	"path/filepath"
	"strings"
	"testing"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/experimental/sysfs"

	"github.com/rootbound/rootbound/host/internal/rootfs"
	"github.com/rootbound/rootbound/internal/testtree"
)

// TestWazeroDirMountEscapes shows why rootbound has a mount of its own
// (RATIONALE.md, "Why not wazero's WithDirMount?"): the file system behind
// wazero's read-only dir mount opens a file outside the root through a
// symbolic link in the middle of a path, where rootbound's mount refuses
// it. (The module itself no longer sends such a path whole: it opens a
// component at a time; the mount is the line that holds for any guest.) If
// this test fails, wazero has closed the gap and the rationale needs
// another look.
func TestWazeroDirMountEscapes(t *testing.T) {
	base := t.TempDir()
	testtree.Write(t, base, map[string]string{
		"outside/secret.txt": outsideMarker + "\n",
		"root/ok.txt":        "fine\n",
		"root/up":            "->..",
	})
	const escape = "up/outside/secret.txt"
	wazeroFS := sysfs.ReadFS{FS: sysfs.DirFS(filepath.Join(base, "root"))}
	f, errno := wazeroFS.OpenFile(escape, experimentalsys.O_RDONLY, 0)
	if errno != 0 {
		t.Fatalf("wazero's dir mount no longer opens %s: %v", escape, errno)
	}
	buf := make([]byte, 64)
	n, _ := f.Read(buf)
	f.Close()
	if !strings.Contains(string(buf[:n]), outsideMarker) {
		t.Errorf("wazero's dir mount opened %s but read %q", escape, buf[:n])
	}

	dir, err := rootfs.OpenDir(filepath.Join(base, "root"))
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	if _, errno := rootfs.New(dir, nil).OpenFile(escape, experimentalsys.O_RDONLY, 0); errno != experimentalsys.ELOOP {
		t.Errorf("rootbound's mount: %v, want ELOOP", errno)
	}
}
