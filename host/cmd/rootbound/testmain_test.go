package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/internal/testtree"
)

// TestMain runs the tests with a home and a configuration directory of
// their own: the command reads the user's global git excludes, as rg does,
// and a developer's must not change what the tests see.
func TestMain(m *testing.M) {
	// Go's build cache stays where it is (it is found from HOME).
	if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		os.Setenv("GOCACHE", strings.TrimSpace(string(out)))
	}
	home, err := os.MkdirTemp("", "rootbound-home")
	if err != nil {
		panic(err)
	}
	os.Setenv("HOME", home)
	os.Setenv("XDG_CONFIG_HOME", home)
	code := testtree.Main(m)
	os.RemoveAll(home)
	os.Exit(code)
}
