package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/internal/testtree"
	"github.com/rootbound/rootbound/protocol"
)

func TestToolsCall(t *testing.T) {
	dir := testtree.New(t, map[string]string{"a.go": "package a // TODO\n"})
	tools := host.NewTools(newRunner(t, host.NewConfig().WithRoot("/workspace", dir)))
	tests := []struct {
		name, tool, args, want, code string
	}{
		{name: "glob", tool: "glob", args: `{"pattern":"*.go"}`, want: "a.go\n"},
		{name: "grep content", tool: "grep", args: `{"pattern":"TODO","output_mode":"content"}`, want: "a.go:1:package a // TODO\n"},
		{name: "stat", tool: "stat", args: `{"path":"a.go"}`, want: "1 entry in \"a.go\":\na.go (18 bytes, 1 line)\n"},
		{name: "unknown tool", tool: "find", args: `{}`, want: `Error (invalid_argument): unknown tool "find"`, code: "invalid_argument"},
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
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
		if !json.Valid(s.InputSchema) {
			t.Errorf("%s: the schema is not JSON", s.Name)
		}
	}
	if !slices.Equal(names, protocol.ToolNames) {
		t.Errorf("specs: %v, want the tools a request may call, %v", names, protocol.ToolNames)
	}
}

// TestStrictSpecs: in the strict schemas every property is required and
// an optional one takes null; Call takes a strict model's arguments, nulls
// and all, and answers as for the same call without them.
func TestStrictSpecs(t *testing.T) {
	dir := testtree.New(t, map[string]string{"a.go": "package a // TODO\n"})
	r := newRunner(t, host.NewConfig().WithRoot("/workspace", dir))
	tools := host.NewTools(r)
	plainRequired := map[string][]string{}
	for _, spec := range tools.Specs() {
		var plain struct{ Required []string }
		json.Unmarshal(spec.InputSchema, &plain)
		plainRequired[spec.Name] = plain.Required
	}
	for _, spec := range tools.StrictSpecs() {
		var schema struct {
			Properties map[string]map[string]any `json:"properties"`
			Required   []string                  `json:"required"`
		}
		if err := json.Unmarshal(spec.InputSchema, &schema); err != nil {
			t.Fatal(err)
		}
		if len(schema.Required) != len(schema.Properties) {
			t.Errorf("%s: %d required of %d properties", spec.Name, len(schema.Required), len(schema.Properties))
		}
		optional := len(schema.Properties) > len(plainRequired[spec.Name])
		if optional != strings.Contains(string(spec.InputSchema), `"null"`) || strings.Contains(string(spec.InputSchema), "minLength") {
			t.Errorf("%s: %s", spec.Name, spec.InputSchema)
		}
		// A model under strict mode sends every property: nulls for those
		// it leaves out.
		args := map[string]any{}
		for name := range schema.Properties {
			args[name] = nil
		}
		given := map[string][2]string{"glob": {"pattern", "*.go"}, "grep": {"pattern", "TODO"}, "read": {"path", "a.go"}, "list": {"path", "."}, "stat": {"path", "a.go"}}[spec.Name]
		if given[0] == "" {
			t.Fatalf("%s: no arguments to call it with", spec.Name)
		}
		args[given[0]] = given[1]
		b, _ := json.Marshal(args)
		strict, _ := tools.Call(context.Background(), spec.Name, b)
		plain, _ := tools.Call(context.Background(), spec.Name, json.RawMessage(fmt.Sprintf(`{%q:%q}`, given[0], given[1])))
		if strict != plain || !strings.Contains(strict, "a.go") {
			t.Errorf("%s: with nulls %q, without %q", spec.Name, strict, plain)
		}
	}
}

// FuzzPrepare: whatever a model sends, Prepare never panics; it refuses
// with a typed code, or prepares a call whose reads are inside a root,
// never into .git. The oracle for the reads is path.Clean of the path
// under its root's name.
func FuzzPrepare(f *testing.F) {
	for _, s := range []string{`{"pattern":"*.go"}`, `{"pattern":"x","path":"../a"}`, `{"pattern":"a(","path":"/w/src"}`,
		`{"pattern":"x","path":"/w/.git/x"}`, `{"pattern":"x","glob":null,"context":3}`, `[]`, `{"pattern":"x","pattern":"y"}`} {
		f.Add("grep", s)
		f.Add("glob", s)
	}
	for _, s := range []string{`{"path":"src/a.go","offset":3,"limit":10}`, `{"path":"../x"}`, `{"path":"/w/.git/config"}`, `{"path":""}`,
		`{"path":"/v/a","max_bytes":0}`, `{"depth":2,"path":"/w/src"}`, `{}`} {
		f.Add("read", s)
		f.Add("list", s)
	}
	dir := f.TempDir()
	r, err := host.NewRunner(context.Background(), host.NewConfig().WithRoot("/w", dir).WithRoot("/v", f.TempDir()))
	if err != nil {
		f.Fatal(err)
	}
	defer r.Close(context.Background())
	tools := host.NewTools(r)
	codes := map[string]bool{host.CodeInvalidArgument: true, host.CodeInvalidPattern: true, host.CodeOutsideRoot: true}
	f.Fuzz(func(t *testing.T, name, args string) {
		p, err := tools.Prepare(name, json.RawMessage(args))
		if err != nil {
			if e, ok := err.(*host.Error); !ok || !codes[e.Code] {
				t.Fatalf("%q %q: %v", name, args, err)
			}
			return
		}
		for _, rd := range p.Reads() {
			full := path.Clean(rd.String())
			if full != rd.String() || !(full == "/w" || full == "/v" || strings.HasPrefix(full, "/w/") || strings.HasPrefix(full, "/v/")) ||
				strings.Contains("/"+rd.Path+"/", "/.git/") {
				t.Fatalf("%q %q: reads %q", name, args, rd)
			}
		}
	})
}

// TestRunnerPrepare holds Runner.Prepare, a program's call of any tool, to
// the tool's own Prepare method: the same reads and the same items, and a
// call that sets no tool or two is refused.
func TestRunnerPrepare(t *testing.T) {
	dir := testtree.New(t, map[string]string{"a.go": "package a // TODO\n", "sub/b.txt": "b\n"})
	r := newRunner(t, host.NewConfig().WithRoot("/workspace", dir))
	tests := []struct {
		name string
		call protocol.Call
		own  func() (*host.Prepared, error)
		code string
	}{
		{name: "glob", call: protocol.Call{Glob: &host.GlobArgs{Pattern: "*.go"}},
			own: func() (*host.Prepared, error) { return r.PrepareGlob(host.GlobArgs{Pattern: "*.go"}) }},
		{name: "grep", call: protocol.Call{Grep: &host.GrepArgs{Pattern: "TODO"}},
			own: func() (*host.Prepared, error) { return r.PrepareGrep(host.GrepArgs{Pattern: "TODO"}) }},
		{name: "read", call: protocol.Call{Read: &host.ReadArgs{Path: "a.go"}},
			own: func() (*host.Prepared, error) { return r.PrepareRead(host.ReadArgs{Path: "a.go"}) }},
		{name: "list", call: protocol.Call{List: &host.ListArgs{Path: "sub"}},
			own: func() (*host.Prepared, error) { return r.PrepareList(host.ListArgs{Path: "sub"}) }},
		{name: "no tool", code: host.CodeInvalidArgument},
		{name: "two tools", call: protocol.Call{Glob: &host.GlobArgs{Pattern: "*"}, List: &host.ListArgs{}}, code: host.CodeInvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := r.Prepare(tt.call)
			if code(err) != tt.code {
				t.Fatalf("error %v, want code %q", err, tt.code)
			}
			if tt.code != "" {
				return
			}
			want, err := tt.own()
			if err != nil {
				t.Fatal(err)
			}
			if p.Tool() != want.Tool() || !slices.Equal(p.Reads(), want.Reads()) {
				t.Errorf("prepared %s reading %v, the tool's own %s reading %v", p.Tool(), p.Reads(), want.Tool(), want.Reads())
			}
			got, _ := p.Run(context.Background())
			own, _ := want.Run(context.Background())
			if g, w := fmt.Sprint(paths(got), got.Done.Results), fmt.Sprint(paths(own), own.Done.Results); g != w || len(got.Items) == 0 {
				t.Errorf("items %s, the tool's own %s", g, w)
			}
		})
	}
}
