package host

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"

	"github.com/rootbound/rootbound/internal/options"
	"github.com/rootbound/rootbound/protocol"
)

// unaliasLine rewrites a request line whose tool's arguments use names
// other agents' tools give them ("-i", "head_limit", "dir_path":
// options.Aliases), as Prepare takes them from a model, so that a program
// speaking the protocol for a model (serve) is understood as the MCP
// server understands it: the line the module gets names only options.
// "description" is dropped. A line with no alias, or that is not one JSON
// object, or that holds a key twice anywhere, goes on as it is, for the
// module to answer as ever; so does one whose aliases conflict, with the
// reason (unalias's).
func unaliasLine(line []byte) ([]byte, error) {
	var req map[string]json.RawMessage
	if json.Unmarshal(line, &req) != nil {
		return line, nil
	}
	for t, name := range options.Names {
		raw, ok := req[name]
		if !ok {
			continue
		}
		var args map[string]any
		if json.Unmarshal(raw, &args) != nil || !hasAlias(t, args) || twice(line) {
			return line, nil
		}
		for k, v := range args {
			if v == nil {
				delete(args, k) // null: left out, as Prepare takes it
			}
		}
		if _, _, err := unalias(t, args); err != nil {
			return line, err
		}
		b, err := json.Marshal(args)
		if err != nil {
			return line, nil
		}
		req[name] = b
		out, err := json.Marshal(req)
		if err != nil {
			return line, nil
		}
		return out, nil
	}
	return line, nil
}

// hasAlias reports whether args holds a name tool takes as an alias and
// not as an option.
func hasAlias(t options.Tool, args map[string]any) bool {
	aliases := options.AliasesFor(t)
	for k := range maps.Keys(args) {
		if _, opt := options.Lookup(t, k); !opt {
			if _, ok := aliases[k]; ok {
				return true
			}
		}
	}
	return false
}

// twice reports whether a JSON text holds an object with a key twice (or
// is not JSON): decoded into a map, the last would win where the module
// refuses the line.
func twice(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	var walk func() bool
	walk = func() bool {
		tok, err := dec.Token()
		if err != nil {
			return true
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				k, err := dec.Token()
				key, ok := k.(string)
				if err != nil || !ok || seen[key] {
					return true
				}
				seen[key] = true
				if walk() {
					return true
				}
			}
		case json.Delim('['):
			for dec.More() {
				if walk() {
					return true
				}
			}
		default:
			return false
		}
		_, err = dec.Token() // the closing delimiter
		return err != nil
	}
	if walk() {
		return true
	}
	_, err := dec.Token()
	return !errors.Is(err, io.EOF)
}

// errAliases is the answer to a line whose aliases conflict.
func errAliases(err error) *protocol.Error {
	return protocol.NewError(protocol.CodeInvalidArgument, "bad arguments: "+err.Error())
}
