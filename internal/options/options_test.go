package options_test

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/internal/options"
	"github.com/rootbound/rootbound/protocol"
)

// TestTable: each option once per tool, each flag once per tool, what each
// kind needs.
func TestTable(t *testing.T) {
	for _, tool := range []options.Tool{options.Glob, options.Grep} {
		names, flags := map[string]bool{}, map[string]bool{}
		for _, o := range options.For(tool) {
			if names[o.Name] {
				t.Errorf("%s: %s declared twice", options.Names[tool], o.Name)
			}
			names[o.Name] = true
			if o.Doc == "" {
				t.Errorf("%s: %s has no description", options.Names[tool], o.Name)
			}
			switch {
			case o.Kind == options.Enum && len(o.Values) == 0:
				t.Errorf("%s: enum %s has no values", options.Names[tool], o.Name)
			case o.Kind == options.Int && o.Max > 0 && o.Max < o.Min:
				t.Errorf("%s: %s: max under min", options.Names[tool], o.Name)
			}
			if o.CLIDefault != "" && !json.Valid([]byte(o.CLIDefault)) {
				t.Errorf("%s: %s: default %q is not JSON", options.Names[tool], o.Name, o.CLIDefault)
			}
			for _, f := range o.Flags {
				if !f.For(tool, o) {
					continue
				}
				for _, k := range []string{"--" + f.Long, "-" + f.Short} {
					if k == "-" {
						continue
					}
					if flags[k] {
						t.Errorf("%s: flag %s twice", options.Names[tool], k)
					}
					flags[k] = true
				}
				if f.Value != "" && o.Kind == options.Enum && !slices.Contains(o.Values, f.Value) {
					t.Errorf("%s: %s sets %s to %q, not one of its values", options.Names[tool], f.Long, o.Name, f.Value)
				}
				if f.TakesArg(o) && f.Arg == "" {
					t.Errorf("%s: %s takes an argument and names none", options.Names[tool], f.Long)
				}
			}
		}
	}
}

// TestGenerated: the copies go generate writes are current.
func TestGenerated(t *testing.T) {
	node, err := os.ReadFile("../../examples/node/flags.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(node, options.NodeFlags()) {
		t.Error("examples/node/flags.json is not what the table gives: run go generate ./internal/options")
	}
	if ts, err := os.ReadFile("../../examples/node/args.d.ts"); err != nil || !bytes.Equal(ts, options.TSArgs()) {
		t.Errorf("examples/node/args.d.ts is not what the table gives (%v): run go generate ./internal/options", err)
	}
	for _, doc := range []string{"README.md", "PROTOCOL.md"} {
		text, err := os.ReadFile("../../" + doc)
		if err != nil {
			t.Fatal(err)
		}
		want, err := options.ReplaceMarkdown(text)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(text, want) {
			t.Errorf("%s's option lists are not what the table gives: run go generate ./internal/options", doc)
		}
	}
	for path, want := range map[string][]byte{"../../protocol/args.go": options.GoArgs("protocol"), "../../internal/server/dispatch.go": options.GoDispatch()} {
		have, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(have, want) {
			t.Errorf("%s is not what the table gives: run go generate ./internal/options", path)
		}
	}
}

// TestStructs holds the Go types of a call to the table: the protocol's
// GlobArgs and GrepArgs (which the host's are) have a field for each option
// of the tool, under its name, of its kind, and no other.
func TestStructs(t *testing.T) {
	if reflect.TypeFor[host.GlobArgs]() != reflect.TypeFor[protocol.GlobArgs]() || reflect.TypeFor[host.GrepArgs]() != reflect.TypeFor[protocol.GrepArgs]() {
		t.Error("the host's arguments are not the protocol's")
	}
	for _, c := range []struct {
		tool options.Tool
		typ  reflect.Type
	}{
		{options.Glob, reflect.TypeFor[protocol.GlobArgs]()},
		{options.Grep, reflect.TypeFor[protocol.GrepArgs]()},
	} {
		typ := c.typ
		seen := map[string]bool{}
		for f := range typ.Fields() {
			name := jsonName(f)
			seen[name] = true
			o, ok := options.Lookup(c.tool, name)
			if !ok {
				t.Errorf("%s.%s (%q) is in no option of the table", typ, f.Name, name)
				continue
			}
			if !kindFits(o.Kind, f.Type) {
				t.Errorf("%s.%s is %s, the table says %v", typ, f.Name, f.Type, o.Kind)
			}
		}
		for _, o := range options.For(c.tool) {
			if !seen[o.Name] {
				t.Errorf("%s has no field for option %s", typ, o.Name)
			}
		}
	}
}

func jsonName(f reflect.StructField) string {
	name, _, _ := bytes.Cut([]byte(f.Tag.Get("json")), []byte(","))
	return string(name)
}

func kindFits(k options.Kind, t reflect.Type) bool {
	switch k {
	case options.String, options.Enum:
		return t.Kind() == reflect.String
	case options.Bool:
		return t.Kind() == reflect.Bool || t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Bool
	case options.Int:
		return t.Kind() == reflect.Int
	case options.Strings, options.Array:
		return t == reflect.TypeFor[protocol.Strings]()
	}
	return false
}

// TestListsChecked: every list option of every tool is bounded, in items
// and in bytes, by its call's CheckLists (generated from this table), and
// a list at the bounds is taken.
func TestListsChecked(t *testing.T) {
	for _, tool := range options.All {
		for _, o := range options.For(tool) {
			if o.Kind != options.Strings && o.Kind != options.Array {
				continue
			}
			item := "x"
			big := string(bytes.Repeat([]byte("y"), protocol.MaxListBytes/protocol.MaxListItems))
			for _, c := range []struct {
				name  string
				items []string
				want  string // in the error; "" for none
			}{
				{name: "at the bound of items", items: slices.Repeat([]string{item}, protocol.MaxListItems)},
				{name: "an item more", items: slices.Repeat([]string{item}, protocol.MaxListItems+1), want: o.Name + " has 257 items"},
				{name: "at the bound of bytes", items: slices.Repeat([]string{big}, protocol.MaxListItems)},
				{name: "a byte more", items: append(slices.Repeat([]string{big}, protocol.MaxListItems-1), big+"y"), want: o.Name + " holds 65537 bytes"},
			} {
				raw, _ := json.Marshal(map[string]map[string]any{options.Names[tool]: {o.Name: c.items}})
				var call protocol.Call
				if err := json.Unmarshal(raw, &call); err != nil {
					t.Fatal(err)
				}
				err := call.CheckLists()
				if c.want == "" && err != nil || c.want != "" && (err == nil || err.Code != protocol.CodeInvalidArgument || !bytes.Contains([]byte(err.Message), []byte(c.want))) {
					t.Errorf("%s %s, %s: %v, want %q", options.Names[tool], o.Name, c.name, err, c.want)
				}
			}
		}
	}
}
