// Package mcp_test drives `rootbound mcp` with the official TypeScript
// SDK's client (client.mjs, on Node), over stdio and over streamable HTTP.
// `make mcp-clients` installs the SDK from npm and runs it; elsewhere it
// skips when the SDK is not installed.
package mcp_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/internal/testtree"
)

func TestTypeScriptClient(t *testing.T) {
	if _, err := os.Stat("node_modules/@modelcontextprotocol/sdk"); err != nil {
		if os.Getenv("ROOTBOUND_ALL_RUNNERS") != "" {
			t.Fatal("the TypeScript SDK is not installed (make mcp-clients)")
		}
		t.Skip("the TypeScript SDK is not installed (make mcp-clients)")
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "rootbound")
	if out, err := exec.Command("go", "build", "-o", bin, "../../host/cmd/rootbound").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	work := testtree.New(t, map[string]string{"src/main.go": "package main\n// TODO: one\n", "docs/a.md": "TODO two\n"})
	cmd := exec.Command("node", "client.mjs", bin, filepath.Join(strings.TrimSpace(string(goroot)), "src"), work)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("client.mjs: %v", err)
	}
}
