// Package mcp_test drives `rootbound mcp` with clients no one here wrote:
// the official TypeScript SDK's client (client.mjs, on Node), over stdio
// and over streamable HTTP, and the MCP Inspector's CLI. `make mcp-clients`
// installs them from npm and runs them; elsewhere they skip when they are
// not installed.
package mcp_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/internal/testtree"
	"github.com/rootbound/rootbound/protocol"
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

// TestInspectorCLI drives `rootbound mcp --root DIR` with the MCP
// Inspector's command line (npm @modelcontextprotocol/inspector), as a
// person checks a server: both tools listed, with schemas it finds
// portable (--strict), each called, a bad pattern and a path outside the
// root answered with typed errors (isError), a host path inside the root
// taken.
func TestInspectorCLI(t *testing.T) {
	inspector := "node_modules/.bin/mcp-inspector"
	if _, err := os.Stat(inspector); err != nil {
		if os.Getenv("ROOTBOUND_ALL_RUNNERS") != "" {
			t.Fatal("the MCP Inspector is not installed (make mcp-clients)")
		}
		t.Skip("the MCP Inspector is not installed (make mcp-clients)")
	}
	bin := filepath.Join(t.TempDir(), "rootbound")
	if out, err := exec.Command("go", "build", "-o", bin, "../../host/cmd/rootbound").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	work := testtree.New(t, map[string]string{"src/main.go": "package main\n// TODO: one\n", "docs/a.md": "TODO two\n"})
	home := t.TempDir() // the Inspector keeps a catalog in ~/.mcp-inspector
	inspect := func(args ...string) (map[string]any, string) {
		t.Helper()
		cmd := exec.Command(inspector, append([]string{"--cli", bin, "mcp", "--root", work}, args...)...)
		cmd.Env = append(os.Environ(), "HOME="+home)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		var ee *exec.ExitError
		if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 5) { // 5: the tool said isError
			t.Fatalf("inspector %q: %v\n%s%s", args, err, out, stderr.String())
		}
		var v map[string]any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("inspector %q: %v\n%s", args, err, out)
		}
		return v, stderr.String()
	}
	list, _ := inspect("--method", "tools/list", "--strict")
	var names []string
	for _, tool := range list["tools"].([]any) {
		names = append(names, tool.(map[string]any)["name"].(string))
	}
	if want := slices.Sorted(slices.Values(protocol.ToolNames)); !slices.Equal(names, want) {
		t.Errorf("tools %q, want %q", names, want)
	}
	for _, tc := range []struct {
		tool    string
		args    []string
		want    string
		isError bool
	}{
		{"glob", []string{"pattern=*.go"}, "\nsrc/main.go\n", false},
		{"grep", []string{"pattern=TODO", "output_mode=content"}, "\ndocs/a.md:1:TODO two\nsrc/main.go:2:// TODO: one\n", false},
		{"grep", []string{"pattern=TODO", "path=" + work + "/src"}, "\nsrc/main.go\n", false},
		{"read", []string{"path=src/main.go"}, "     2\t// TODO: one\n", false},
		{"list", []string{"path=src"}, "src/main.go (", false},
		{"read", []string{"path=src"}, "[Error (not_a_file)", true},
		{"grep", []string{"pattern=(TODO"}, "[Error (invalid_pattern): invalid regex", true},
		{"glob", []string{"pattern=*", "path=/etc"}, "[Error (outside_root): path \"/etc\" is outside the readable roots (" + work + ")]", true},
	} {
		res, _ := inspect(append([]string{"--method", "tools/call", "--tool-name", tc.tool, "--tool-arg"}, tc.args...)...)
		content := res["content"].([]any)
		text := content[0].(map[string]any)["text"].(string)
		isError, _ := res["isError"].(bool)
		if !strings.Contains(text, tc.want) || isError != tc.isError {
			t.Errorf("%s %q: isError %v, %q; want isError %v and %q", tc.tool, tc.args, isError, text, tc.isError, tc.want)
		}
	}
}
