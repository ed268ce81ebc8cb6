package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/internal/testtree"
)

// TestProtocolPageClient runs the Python client of PROTOCOL.md against
// `rootbound serve` over a small tree: it prints the TODO lines, the
// status, and the binary file it was told of.
func TestProtocolPageClient(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	page, err := os.ReadFile("../../../PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```python\n(.*?)```").FindSubmatch(page)
	if m == nil {
		t.Fatal("PROTOCOL.md has no Python client")
	}
	if n := strings.Count(string(m[1]), "\n"); n > 40 {
		t.Errorf("the client has %d lines: keep it short", n)
	}
	tmp := t.TempDir()
	client := filepath.Join(tmp, "client.py")
	if err := os.WriteFile(client, m[1], 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(tmp, "rootbound")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	dir := testtree.New(t, map[string]string{"src/main.go": "package main\n\n// TODO: flags\n", "notes.txt": "TODO: write\n", "blob.bin": "bin\x00TODO\n"})
	out, err := exec.Command(python, client, bin, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	want := "notes.txt:1:TODO: write\nsrc/main.go:3:// TODO: flags\ncomplete 2 results; 1 binary skipped\n"
	if string(out) != want {
		t.Errorf("the client printed\n%s\nwant\n%s", out, want)
	}
}
