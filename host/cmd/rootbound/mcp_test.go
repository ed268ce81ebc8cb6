package main

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootbound/rootbound/internal/testtree"
	"github.com/rootbound/rootbound/protocol"
)

// TestMCPOverPipe runs `rootbound mcp` on stdio, as an agent spawns it,
// and drives it with the Go SDK's client over a pipe: every tool listed
// and called, a bad argument answered with isError.
func TestMCPOverPipe(t *testing.T) {
	dir := testtree.New(t, map[string]string{"src/a.go": "package a // TODO\n"})
	ctx := context.Background()
	cs, end := mcpSession(t, "mcp", "--root", "/workspace="+dir, "--audit")
	lt, err := cs.ListTools(ctx, nil)
	var names []string
	if err == nil {
		for _, tool := range lt.Tools {
			names = append(names, tool.Name)
		}
	}
	if err != nil || !slices.Equal(names, slices.Sorted(slices.Values(protocol.ToolNames))) {
		t.Fatalf("tools: %v %+v", err, lt)
	}
	for _, call := range []struct {
		name    string
		args    map[string]any
		want    string
		isError bool
	}{
		{"glob", map[string]any{"pattern": "*.go"}, "src/a.go", false},
		{"grep", map[string]any{"pattern": "TODO", "output_mode": "content"}, "src/a.go:1:package a // TODO", false},
		{"grep", map[string]any{"pattern": "TODO", "context": -1}, "[Error (invalid_argument)", true},
		{"read", map[string]any{"path": "src/a.go"}, "     1\tpackage a // TODO", false},
		{"list", map[string]any{"path": "src"}, "src/a.go (18 bytes)", false},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: call.name, Arguments: call.args})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if res.IsError != call.isError || !strings.Contains(text, call.want) {
			t.Errorf("%s %v: isError %v, %q", call.name, call.args, res.IsError, text)
		}
	}
	stderr := end()
	if n := strings.Count(stderr, "rootbound: audit: "); n != 5 {
		t.Errorf("%d audit lines, want 5:\n%s", n, stderr)
	}
}

// mcpSession runs the command with args (an mcp subcommand) on a pipe and
// connects the Go SDK's client to it. end closes the session, wants exit
// status 0 and returns what the command wrote on stderr.
func mcpSession(t *testing.T, args ...string) (cs *mcp.ClientSession, end func() string) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int)
	go func() {
		code := run(args, inR, outW, &stderr)
		outW.Close()
		done <- code
	}()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs, func() string {
		t.Helper()
		cs.Close()
		inW.Close()
		if code := <-done; code != 0 {
			t.Errorf("exit %d: %s", code, stderr.String())
		}
		return stderr.String()
	}
}

// TestMCPHostPaths: agents pass the absolute paths they see on the host. A
// root given as a directory is named by its absolute path, so they work as
// they are; with NAME=DIR they are still taken. A path outside every root
// is refused with outside_root, naming the roots.
func TestMCPHostPaths(t *testing.T) {
	dir := testtree.New(t, map[string]string{"src/a.go": "package a // TODO\n"})
	ctx := context.Background()
	for _, root := range []string{dir, "/workspace=" + dir} {
		cs, end := mcpSession(t, "mcp", "--root", root)
		for _, call := range []struct {
			name    string
			args    map[string]any
			want    string
			isError bool
		}{
			{"grep", map[string]any{"pattern": "TODO", "path": dir + "/src", "output_mode": "content"}, "src/a.go:1:package a // TODO", false},
			{"grep", map[string]any{"pattern": "TODO", "path": dir}, "\nsrc/a.go\n", false},
			{"glob", map[string]any{"pattern": dir + "/src/*.go"}, "\nsrc/a.go\n", false},
			{"glob", map[string]any{"pattern": "*.go", "path": "/etc"}, "[Error (outside_root)", true},
		} {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: call.name, Arguments: call.args})
			if err != nil {
				t.Fatal(err)
			}
			text := res.Content[0].(*mcp.TextContent).Text
			if res.IsError != call.isError || !strings.Contains(text, call.want) {
				t.Errorf("--root %s: %s %v: isError %v, %q", root, call.name, call.args, res.IsError, text)
			}
			name, _, _ := strings.Cut(root, "=")
			if call.isError && !strings.Contains(text, name) {
				t.Errorf("--root %s: %q does not name the root", root, text)
			}
		}
		end()
	}
}

// TestMCPFlags: a non-loopback HTTP address needs a token; roots are required.
func TestMCPFlags(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("ROOTBOUND_MCP_TOKEN", "")
	for _, args := range [][]string{
		{"mcp"},
		{"mcp", "--root", "/w=" + dir, "--http", "0.0.0.0:0"},
		{"mcp", "--root", "/w=" + dir, "--http", "nonsense"},
	} {
		if _, errb, code := rootbound(t, args...); code != 2 || errb == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb)
		}
	}
}
