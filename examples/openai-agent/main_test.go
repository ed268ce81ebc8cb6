package main

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3/responses"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/internal/testtree"
)

// TestDispatch drives the agent's tool step with a recorded response: the
// strict tools as the API takes them, and each function call's output the
// text of host.Tools, by call id, nulls taken as left out.
func TestDispatch(t *testing.T) {
	dir := testtree.New(t, map[string]string{"main.go": "package main\n// TODO: parse flags\nfunc main() {}\n"})
	ctx := context.Background()
	r, err := host.NewRunner(ctx, host.NewConfig().WithRoot("/workspace", dir))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)
	tools := host.NewTools(r)
	params := toolParams(tools.StrictSpecs())
	if len(params) != len(tools.Specs()) || !params[0].OfFunction.Strict.Value {
		t.Fatalf("tools %+v", params)
	}
	raw, err := os.ReadFile("testdata/response.json")
	if err != nil {
		t.Fatal(err)
	}
	var resp responses.Response
	if err := json.Unmarshal(raw, &resp); err != nil {
		t.Fatal(err)
	}
	out := dispatch(ctx, tools, &resp)
	want := map[string]string{
		"call_glob": "1 file matching \"*.go\" in \"/workspace\":\nmain.go\n",
		"call_grep": "1 matching line for \"TODO\" in \"/workspace\":\nmain.go-1-package main\nmain.go:2:// TODO: parse flags\nmain.go-3-func main() {}\n",
		"call_bad":  "[Error (outside_root): path \"../..\" is outside the readable roots (/workspace)]\n",
	}
	if len(out) != len(want) {
		t.Fatalf("%d outputs, want %d", len(out), len(want))
	}
	for _, o := range out {
		id, text := o.OfFunctionCallOutput.CallID.Value, o.OfFunctionCallOutput.Output.OfString.Value
		if text != want[id] {
			t.Errorf("%s: %q, want %q", id, text, want[id])
		}
	}
	b, err := json.Marshal(out)
	if err != nil || !strings.Contains(string(b), `"type":"function_call_output"`) {
		t.Errorf("as the API takes it: %s %v", b, err)
	}
}
