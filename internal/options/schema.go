package options

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Schema returns the JSON Schema of a tool's arguments: every option of
// the tool with its type, bounds and description, in table order.
func Schema(tool Tool) []byte {
	var b bytes.Buffer
	b.WriteString("{\n  \"type\": \"object\",\n  \"properties\": {")
	required := []string{}
	for i, o := range For(tool) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		b.Write(quote(o.Name))
		b.WriteString(": ")
		b.Write(property(o, AliasNames(tool, o.Name)))
		if o.Required {
			required = append(required, o.Name)
		}
	}
	b.WriteString("\n  },\n  \"required\": ")
	b.Write(mustJSON(required))
	b.WriteString(",\n  \"additionalProperties\": false\n}")
	return b.Bytes()
}

// property is the schema of one option; aliases are the names other
// agents' tools give it, which its description names.
func property(o Option, aliases []string) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	field := func(key string, v any) {
		if b.Len() > 1 {
			b.WriteString(", ")
		}
		b.Write(quote(key))
		b.WriteString(": ")
		b.Write(mustJSON(v))
	}
	switch o.Kind {
	case String:
		field("type", "string")
		if o.Required {
			field("minLength", 1)
		}
	case Bool:
		field("type", "boolean")
	case Int:
		field("type", "integer")
		field("minimum", o.Min)
		if o.Max > 0 {
			field("maximum", o.Max)
		}
	case Strings:
		field("anyOf", []any{map[string]any{"type": "string"},
			map[string]any{"type": "array", "items": map[string]any{"type": "string"}}})
	case Array:
		field("type", "array")
		field("items", map[string]any{"type": "string", "minLength": 1})
	case Enum:
		field("type", "string")
		field("enum", o.Values)
	}
	doc := o.Doc
	if len(aliases) > 0 {
		doc += " (Also taken as " + strings.Join(aliases, ", ") + ".)"
	}
	field("description", doc)
	b.WriteByte('}')
	return b.Bytes()
}

func quote(s string) []byte { return mustJSON(s) }

// mustJSON marshals what this package builds, which always marshals; HTML
// characters stay as they are.
func mustJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("options: " + err.Error())
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
