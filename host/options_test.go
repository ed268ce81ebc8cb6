package host

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/rootbound/rootbound/internal/options"
	"github.com/rootbound/rootbound/internal/testtree"
)

// TestEveryOptionReachesTheWire sends each option of the table, set to a
// value other than its default, through Tools.Prepare, and finds it in the
// request the module would get, under its name, with that value: a JSON
// name that drifted between the schema, the host's types and the
// protocol's would drop a model's argument silently.
func TestEveryOptionReachesTheWire(t *testing.T) {
	dir := testtree.New(t, map[string]string{"a.go": "x\n"})
	r, err := NewRunner(t.Context(), NewConfig().WithRoot("/workspace", dir))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(t.Context())
	tools := NewTools(r)
	for _, tool := range []options.Tool{options.Glob, options.Grep} {
		for _, o := range options.For(tool) {
			if o.Name == "pattern" {
				continue
			}
			v := sample(o)
			args, _ := json.Marshal(map[string]any{"pattern": "x", o.Name: v})
			p, err := tools.Prepare(options.Names[tool], args)
			if err != nil {
				t.Errorf("%s %s=%v: %v", options.Names[tool], o.Name, v, err)
				continue
			}
			wire, _ := json.Marshal(p.call)
			var call map[string]map[string]any
			json.Unmarshal(wire, &call)
			got := call[options.Names[tool]]
			want, _ := json.Marshal(v)
			if have, _ := json.Marshal(got[o.Name]); string(have) != string(want) {
				t.Errorf("%s %s: sent %s, the module would get %s (%s)", options.Names[tool], o.Name, want, have, wire)
			}
		}
	}
}

// sample is a valid value of o that is not its default.
func sample(o options.Option) any {
	switch o.Kind {
	case options.Bool:
		if o.Name == "hidden" {
			return false
		}
		return true
	case options.Int:
		return max(o.Min, 2)
	case options.Strings, options.Array:
		return []string{"go"}
	case options.Enum:
		return o.Values[len(o.Values)-1]
	case options.String:
		return "a.go"
	}
	panic(fmt.Sprint("sample: kind ", o.Kind))
}
