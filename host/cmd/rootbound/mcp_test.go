package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootbound/rootbound/internal/testtree"
)

// TestMCPOverPipe runs `rootbound mcp` on stdio, as an agent spawns it,
// and drives it with the Go SDK's client over a pipe: both tools listed
// and called, a bad argument answered with isError.
func TestMCPOverPipe(t *testing.T) {
	dir := testtree.New(t, map[string]string{"src/a.go": "package a // TODO\n"})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int)
	go func() {
		code := run([]string{"mcp", "--root", "/workspace=" + dir, "--audit"}, inR, outW, &stderr)
		outW.Close()
		done <- code
	}()
	ctx := context.Background()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	lt, err := cs.ListTools(ctx, nil)
	if err != nil || len(lt.Tools) != 2 || lt.Tools[0].Name != "glob" || lt.Tools[1].Name != "grep" {
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
	cs.Close()
	inW.Close()
	if code := <-done; code != 0 {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
	if n := strings.Count(stderr.String(), "rootbound: audit: "); n != 3 {
		t.Errorf("%d audit lines, want 3:\n%s", n, stderr.String())
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
