// Package wit holds the normative contract, wit/rootbound.wit. This test
// keeps the Go protocol types in agreement with it: every record is a struct
// with the same fields (kebab-case in WIT, snake_case in JSON), an option is
// exactly an omitempty field, every enum has the same cases in the same
// order, and no Go field exists that the WIT does not name.
package wit_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.bytecodealliance.org/wit"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/internal/options"
	"github.com/rootbound/rootbound/protocol"
)

var records = map[string]reflect.Type{
	"request":      reflect.TypeFor[protocol.Request](),
	"limits":       reflect.TypeFor[protocol.Limits](),
	"item":         reflect.TypeFor[protocol.Item](),
	"span":         reflect.TypeFor[protocol.Span](),
	"progress":     reflect.TypeFor[protocol.Progress](),
	"shard":        reflect.TypeFor[protocol.Shard](),
	"shard-end":    reflect.TypeFor[protocol.ShardEnd](),
	"sample":       reflect.TypeFor[protocol.Sample](),
	"index-args":   reflect.TypeFor[protocol.IndexArgs](),
	"root-changes": reflect.TypeFor[protocol.RootChanges](),
	"chunk":        reflect.TypeFor[protocol.Chunk](),
	"problem":      reflect.TypeFor[protocol.Problem](),
	"call-error":   reflect.TypeFor[protocol.Error](),
	"skipped":      reflect.TypeFor[protocol.Skipped](),
	"stats":        reflect.TypeFor[protocol.Stats](),
	"done":         reflect.TypeFor[protocol.Done](),
	"line":         reflect.TypeFor[protocol.Line](),
	"root-policy":  reflect.TypeFor[protocol.RootPolicy](),
	"ignore-rules": reflect.TypeFor[protocol.IgnoreRules](),
}

// Each tool's arguments are the record of its name and "-args", in Go the
// type of its field of protocol.Call.
func init() {
	c := reflect.TypeFor[protocol.Call]()
	for _, t := range options.All {
		f, ok := c.FieldByName(options.GoName(options.Names[t]))
		if !ok {
			panic("protocol.Call has no field for " + options.Names[t])
		}
		records[argsRecord(t)] = f.Type.Elem()
	}
}

// argsRecord is the WIT record of a tool's arguments.
func argsRecord(t options.Tool) string { return options.Names[t] + "-args" }

var enums = map[string][]string{
	"case-mode":    {string(protocol.CaseSensitive), string(protocol.CaseInsensitive), string(protocol.CaseSmart)},
	"output-mode":  {string(protocol.ModeFiles), string(protocol.ModeContent), string(protocol.ModeCount), string(protocol.ModeCountMatches), string(protocol.ModeFilesWithout)},
	"problem-code": {protocol.SkippedUnreadable, protocol.SkippedBinary},
	"status":       {protocol.StatusComplete, protocol.StatusPartial, protocol.StatusFailed},
	"error-code":   protocol.Codes,
	"ignore-kind":  protocol.IgnoreKinds,
	"sort-order":   {string(protocol.SortPath), string(protocol.SortMTime)},
	"entry-kind":   {protocol.KindFile, protocol.KindDir, protocol.KindSymlink},
}

var dataType = reflect.TypeFor[protocol.Data]()

func load(t *testing.T) map[string]*wit.TypeDef {
	t.Helper()
	res, err := wit.LoadWIT("rootbound.wit")
	if err != nil {
		t.Fatalf("LoadWIT: %v", err)
	}
	defs := map[string]*wit.TypeDef{}
	for _, td := range res.TypeDefs {
		if td.Name != nil {
			defs[*td.Name] = td
		}
	}
	return defs
}

func snake(s string) string { return strings.ReplaceAll(s, "-", "_") }

func TestProtocolMatchesWIT(t *testing.T) {
	defs := load(t)
	for name := range records {
		if defs[name] == nil {
			t.Errorf("Go has %s, the WIT has no such record", name)
		}
	}
	for name := range enums {
		if defs[name] == nil {
			t.Errorf("Go has enum %s, the WIT does not", name)
		}
	}
	for name, td := range defs {
		switch kind := td.Kind.(type) {
		case *wit.Record:
			gt, ok := records[name]
			if !ok {
				t.Errorf("WIT record %s has no Go type", name)
				continue
			}
			checkRecord(t, name, kind, gt)
		case *wit.Enum:
			want, ok := enums[name]
			if !ok {
				t.Errorf("WIT enum %s has no Go list", name)
				continue
			}
			var got []string
			for _, c := range kind.Cases {
				got = append(got, snake(c.Name))
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("enum %s: WIT %v, Go %v", name, got, want)
			}
		case *wit.Variant:
			if name != "data" {
				t.Errorf("WIT variant %s has no Go type", name)
				continue
			}
			var got []string
			for _, c := range kind.Cases {
				got = append(got, c.Name)
			}
			if !reflect.DeepEqual(got, []string{"text", "bytes"}) {
				t.Errorf("variant data: cases %v, want text, bytes (protocol.Data)", got)
			}
		}
	}
}

func checkRecord(t *testing.T, name string, rec *wit.Record, gt reflect.Type) {
	goFields := map[string]reflect.StructField{}
	for _, f := range reflect.VisibleFields(gt) { // an embedded struct's fields too (Request's Call)
		tag := f.Tag.Get("json")
		if tag == "" || tag == "-" {
			continue
		}
		goFields[strings.Split(tag, ",")[0]] = f
	}
	for _, wf := range rec.Fields {
		key := snake(wf.Name)
		f, ok := goFields[key]
		if !ok {
			t.Errorf("%s.%s: in the WIT, not in %s", name, wf.Name, gt.Name())
			continue
		}
		delete(goFields, key)
		wt, optional := wf.Type, false
		if td, ok := wt.(*wit.TypeDef); ok {
			if o, ok := td.Kind.(*wit.Option); ok {
				wt, optional = o.Type, true
			}
		}
		omitempty := strings.Contains(f.Tag.Get("json"), ",omitempty")
		if optional != omitempty {
			t.Errorf("%s.%s: WIT optional=%v, Go omitempty=%v", name, wf.Name, optional, omitempty)
		}
		if msg := typeAgrees(wt, f.Type); msg != "" {
			t.Errorf("%s.%s: %s", name, wf.Name, msg)
		}
	}
	for key := range goFields {
		t.Errorf("%s.%s: in %s, not in the WIT", name, key, gt.Name())
	}
}

// typeAgrees compares a WIT type with the Go type of its field.
func typeAgrees(wt wit.Type, gt reflect.Type) string {
	for gt.Kind() == reflect.Pointer {
		gt = gt.Elem()
	}
	switch wt := wt.(type) {
	case wit.String:
		if gt.Kind() == reflect.String {
			return ""
		}
	case wit.Bool:
		if gt.Kind() == reflect.Bool {
			return ""
		}
	case wit.U8:
		if gt.Kind() == reflect.Uint8 {
			return ""
		}
	case wit.U32, wit.U64:
		if k := gt.Kind(); k == reflect.Int || k == reflect.Int64 {
			return ""
		}
	case *wit.TypeDef:
		if l, ok := wt.Kind.(*wit.List); ok {
			if gt.Kind() != reflect.Slice {
				return "WIT list, Go " + gt.String()
			}
			return typeAgrees(l.Type, gt.Elem())
		}
		name := ""
		if wt.Name != nil {
			name = *wt.Name
		}
		if rt, ok := records[name]; ok && rt == gt {
			return ""
		}
		if _, ok := enums[name]; ok && gt.Kind() == reflect.String {
			return ""
		}
		if name == "data" && gt == dataType {
			return ""
		}
		return "WIT " + name + ", Go " + gt.String()
	}
	return fmt.Sprintf("WIT %T, Go %s", wt, gt)
}

// TestToolSchemasMatchWIT holds the JSON Schemas handed to models to the
// WIT: the properties are the record's fields, the required ones are those
// that are not options, and enums list the WIT enum's cases.
func TestToolSchemasMatchWIT(t *testing.T) {
	defs := load(t)
	for _, spec := range host.NewTools(nil).Specs() {
		var schema struct {
			Properties map[string]struct {
				Enum []string `json:"enum"`
			} `json:"properties"`
			Required             []string `json:"required"`
			AdditionalProperties *bool    `json:"additionalProperties"`
		}
		if err := json.Unmarshal(spec.InputSchema, &schema); err != nil {
			t.Fatalf("%s: schema is not JSON: %v", spec.Name, err)
		}
		if schema.AdditionalProperties == nil || *schema.AdditionalProperties {
			t.Errorf("%s: the schema must refuse unknown properties", spec.Name)
		}
		rec := defs[spec.Name+"-args"].Kind.(*wit.Record)
		var required []string
		seen := map[string]bool{}
		for _, f := range rec.Fields {
			key := snake(f.Name)
			seen[key] = true
			prop, ok := schema.Properties[key]
			if !ok {
				t.Errorf("%s: the schema lacks %s", spec.Name, key)
				continue
			}
			wt := f.Type
			if td, ok := wt.(*wit.TypeDef); ok {
				if o, ok := td.Kind.(*wit.Option); ok {
					wt = o.Type
				} else {
					required = append(required, key)
				}
			} else {
				required = append(required, key)
			}
			if td, ok := wt.(*wit.TypeDef); ok {
				if e, ok := td.Kind.(*wit.Enum); ok {
					var cases []string
					for _, c := range e.Cases {
						cases = append(cases, snake(c.Name))
					}
					if !reflect.DeepEqual(cases, prop.Enum) {
						t.Errorf("%s.%s: schema enum %v, WIT %v", spec.Name, key, prop.Enum, cases)
					}
				}
			}
		}
		for key := range schema.Properties {
			if !seen[key] {
				t.Errorf("%s: the schema has %s, the WIT does not", spec.Name, key)
			}
		}
		if !slices.Equal(required, schema.Required) {
			t.Errorf("%s: required %v, WIT %v", spec.Name, schema.Required, required)
		}
	}
}

// TestOptionsMatchWIT holds the table of options (internal/options), from
// which the schemas, the command's flags and the docs come, to the WIT:
// each option of a tool is a field of its record, optional unless
// required, of its kind, an enum with the enum's cases.
func TestOptionsMatchWIT(t *testing.T) {
	defs := load(t)
	for _, tool := range options.All {
		record := argsRecord(tool)
		rec := defs[record].Kind.(*wit.Record)
		fields := map[string]wit.Type{}
		for _, f := range rec.Fields {
			fields[snake(f.Name)] = f.Type
		}
		for _, o := range options.For(tool) {
			wt, ok := fields[o.Name]
			if !ok {
				t.Errorf("%s: option %s is not a field of the WIT's %s", options.Names[tool], o.Name, record)
				continue
			}
			delete(fields, o.Name)
			optional := false
			if td, ok := wt.(*wit.TypeDef); ok {
				if opt, ok := td.Kind.(*wit.Option); ok {
					wt, optional = opt.Type, true
				}
			}
			if optional == o.Required {
				t.Errorf("%s.%s: WIT optional=%v, table required=%v", options.Names[tool], o.Name, optional, o.Required)
			}
			if msg := optionKindAgrees(wt, o); msg != "" {
				t.Errorf("%s.%s: %s", options.Names[tool], o.Name, msg)
			}
		}
		for name := range fields {
			t.Errorf("%s: the WIT's %s has %s, the table does not", options.Names[tool], record, name)
		}
	}
}

func optionKindAgrees(wt wit.Type, o options.Option) string {
	switch wt := wt.(type) {
	case wit.String:
		if o.Kind == options.String {
			return ""
		}
	case wit.Bool:
		if o.Kind == options.Bool {
			return ""
		}
	case wit.U32, wit.S32, wit.U64:
		if o.Kind == options.Int {
			return ""
		}
	case *wit.TypeDef:
		switch k := wt.Kind.(type) {
		case *wit.List:
			if _, ok := k.Type.(wit.String); ok && (o.Kind == options.Strings || o.Kind == options.Array) {
				return ""
			}
		case *wit.Enum:
			var cases []string
			for _, c := range k.Cases {
				cases = append(cases, snake(c.Name))
			}
			if o.Kind == options.Enum && reflect.DeepEqual(cases, o.Values) {
				return ""
			}
			return fmt.Sprintf("WIT enum %v, table %v", cases, o.Values)
		}
	}
	return fmt.Sprintf("WIT %T, table kind %v", wt, o.Kind)
}
