package host_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/internal/testtree"
)

func TestToolsCall(t *testing.T) {
	dir := testtree.New(t, map[string]string{"a.go": "package a // TODO\n"})
	tools := host.NewTools(newRunner(t, host.NewConfig().WithRoot("/workspace", dir)))
	tests := []struct {
		name, tool, args, want, code string
	}{
		{name: "glob", tool: "glob", args: `{"pattern":"*.go"}`, want: "a.go\n"},
		{name: "grep content", tool: "grep", args: `{"pattern":"TODO","output_mode":"content"}`, want: "a.go:1:package a // TODO\n"},
		{name: "unknown tool", tool: "find", args: `{}`, want: `Error (invalid_argument): host: unknown tool "find"`, code: "invalid_argument"},
		{name: "unknown field", tool: "glob", args: `{"pattern":"*","follow":true}`, want: "Error (invalid_argument)", code: "invalid_argument"},
		{name: "wrong type", tool: "grep", args: `{"pattern":1}`, want: "Error (invalid_argument)", code: "invalid_argument"},
		{name: "not JSON", tool: "grep", args: `pattern=x`, want: "Error (invalid_argument)", code: "invalid_argument"},
		{name: "over the tool bound", tool: "glob", args: `{"pattern":"*","max_results":1001}`, want: "max_results: maximum: 1001 is greater than 1000", code: "invalid_argument"},
		{name: "zero is below the bound", tool: "glob", args: `{"pattern":"*","max_results":0}`, want: "max_results: minimum: 0 is less than 1", code: "invalid_argument"},
		{name: "keys are exact", tool: "glob", args: `{"PATTERN":"*.go"}`, want: "Error (invalid_argument)", code: "invalid_argument"},
		{name: "no key twice", tool: "glob", args: `{"pattern":"*.go","pattern":"*"}`, want: `"pattern" given twice`, code: "invalid_argument"},
		{name: "nothing after the object", tool: "glob", args: `{"pattern":"*.go"} {"pattern":"*"}`, want: "data after the JSON object", code: "invalid_argument"},
		{name: "not an object", tool: "glob", args: `["*.go"]`, want: "want a JSON object", code: "invalid_argument"},
		{name: "empty pattern", tool: "grep", args: `{"pattern":""}`, want: "Error (invalid_argument)", code: "invalid_argument"},
		{name: "enum", tool: "grep", args: `{"pattern":"x","output_mode":"lines"}`, want: "Error (invalid_argument)", code: "invalid_argument"},
		{name: "glob as a string", tool: "grep", args: `{"pattern":"TODO","glob":"*.go"}`, want: "a.go\n"},
		{name: "glob as a list", tool: "grep", args: `{"pattern":"TODO","glob":["*.md","*.go"]}`, want: "a.go\n"},
		{name: "glob of the wrong type", tool: "grep", args: `{"pattern":"TODO","glob":3}`, want: "Error (invalid_argument)", code: "invalid_argument"},
		{name: "invalid pattern", tool: "grep", args: `{"pattern":"("}`, want: "Error (invalid_pattern)", code: "invalid_pattern"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, res := tools.Call(context.Background(), tt.tool, json.RawMessage(tt.args))
			if !strings.Contains(text, tt.want) {
				t.Errorf("text %q, want it to contain %q", text, tt.want)
			}
			if got := code(res.Err()); got != tt.code {
				t.Errorf("code %q, want %q", got, tt.code)
			}
		})
	}
	specs := tools.Specs()
	if len(specs) != 2 || specs[0].Name != "glob" || specs[1].Name != "grep" || !json.Valid(specs[1].InputSchema) {
		t.Errorf("specs: %+v", specs)
	}
}
