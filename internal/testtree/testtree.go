// Package testtree builds directory trees for tests from a compact spec, so
// each test states its tree in its table.
package testtree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Write creates the entries of spec under dir. A key ending in "/" is a
// directory; a value starting with "->" makes a symbolic link to the rest of
// the value; anything else is a file with that content.
func Write(t testing.TB, dir string, spec map[string]string) {
	t.Helper()
	for name, content := range spec {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch {
		case strings.HasSuffix(name, "/"):
			err = os.MkdirAll(p, 0o755)
		case strings.HasPrefix(content, "->"):
			err = os.Symlink(strings.TrimPrefix(content, "->"), p)
		default:
			err = os.WriteFile(p, []byte(content), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// New makes a temporary directory holding spec and returns its path.
func New(t testing.TB, spec map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	Write(t, dir, spec)
	return dir
}
