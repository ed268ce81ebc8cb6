package main

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/internal/testtree"
)

// TestDispatch drives the agent's tool step with a recorded message: the
// tools as the API takes them, and a tool_result for each tool_use, its
// text host.Tools', is_error for the call that did not run.
func TestDispatch(t *testing.T) {
	dir := testtree.New(t, map[string]string{"main.go": "package main\n// TODO: parse flags\nfunc main() {}\n"})
	ctx := context.Background()
	r, err := host.NewRunner(ctx, host.NewConfig().WithRoot("/workspace", dir))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)
	tools := host.NewTools(r)
	params := toolParams(tools.Specs())
	if b, _ := json.Marshal(params); len(params) != len(tools.Specs()) || !strings.Contains(string(b), `"additionalProperties":false}`) || !strings.Contains(string(b), `"required":["pattern"]`) {
		t.Fatalf("tools %s", b)
	}
	raw, err := os.ReadFile("testdata/message.json")
	if err != nil {
		t.Fatal(err)
	}
	var msg anthropic.Message
	if err := json.Unmarshal(raw, &msg); err != nil {
		t.Fatal(err)
	}
	out := dispatch(ctx, tools, &msg)
	want := map[string]struct {
		text    string
		isError bool
	}{
		"toolu_glob": {"1 file matching \"*.go\" in \"/workspace\":\nmain.go\n", false},
		"toolu_grep": {"1 matching line for \"TODO\" in \"/workspace\":\nmain.go-1-package main\nmain.go:2:// TODO: parse flags\nmain.go-3-func main() {}\n", false},
		"toolu_bad":  {"[Error (outside_root): path \"../..\" is outside the readable roots (/workspace)]\n", true},
	}
	if len(out) != len(want) {
		t.Fatalf("%d results, want %d", len(out), len(want))
	}
	for _, o := range out {
		tr := o.OfToolResult
		w := want[tr.ToolUseID]
		if text := tr.Content[0].OfText.Text; text != w.text || tr.IsError.Value != w.isError {
			t.Errorf("%s: %q (is_error %v), want %q (%v)", tr.ToolUseID, text, tr.IsError.Value, w.text, w.isError)
		}
	}
}
