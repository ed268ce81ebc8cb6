// Package testtree builds directory trees for tests from a compact spec, so
// each test states its tree in its table.
package testtree

import (
	"os"
	"os/exec"
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

// Main runs a package's tests with the user's cache directory
// (XDG_CACHE_HOME, where the host keeps its compilation cache and wasmtime
// its own) moved to a temporary directory removed afterwards, so tests
// write nothing outside their temporary directories. Go's build cache stays
// where it is. `make test` sets ROOTBOUND_TEST_CACHE to share one such
// directory among all packages, so the module is compiled once.
func Main(m *testing.M) int {
	// A command a test runs never hands its call to a resident server of
	// the user's, nor starts one outside the test's directories.
	os.Setenv("ROOTBOUND_SERVER", "off")
	if os.Getenv("ROOTBOUND_TEST_CACHE") == "" {
		if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
			os.Setenv("GOCACHE", strings.TrimSpace(string(out)))
		}
		dir, err := os.MkdirTemp("", "rootbound-test-cache")
		if err != nil {
			panic(err)
		}
		defer os.RemoveAll(dir)
		os.Setenv("XDG_CACHE_HOME", dir)
	}
	return m.Run()
}

// Tool returns the path of the program name, an oracle a test compares
// with. Without it the test is skipped, unless ROOTBOUND_COMPARE or
// ROOTBOUND_ALL_RUNNERS is set (as `make test` sets them, having installed
// every oracle): then it fails.
func Tool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("ROOTBOUND_ALL_RUNNERS") != "" || os.Getenv("ROOTBOUND_COMPARE") != "" {
			t.Fatalf("%s is not installed (make tools installs it)", name)
		}
		t.Skipf("%s is not installed (make tools installs it)", name)
	}
	return p
}
