package host

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/rootbound/rootbound/guest/protocol"
)

// ToolSpec is a tool as a model sees it: a name, what it does, and the JSON
// Schema of its arguments. The schemas are held to wit/rootbound.wit by a
// test (field names, required fields, enum values).
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Tools hands a Runner's glob and grep to a model: their specs, and Call,
// which takes a model's JSON arguments and returns the text it reads.
type Tools struct{ r *Runner }

// NewTools returns the tools of r.
func NewTools(r *Runner) *Tools { return &Tools{r: r} }

// Specs returns the tool specs, glob first.
func (t *Tools) Specs() []ToolSpec {
	return []ToolSpec{
		{Name: "glob", Description: globDescription, InputSchema: json.RawMessage(globSchema)},
		{Name: "grep", Description: grepDescription, InputSchema: json.RawMessage(grepSchema)},
	}
}

// Call runs the tool name with a model's JSON arguments and returns the text
// for the model (never empty: a failure is an "Error (code): ..." line) and
// the Result, whose Err is the typed error if any. Arguments are checked as
// strictly as the schema states: unknown fields, wrong types and
// max_results over 1000 are invalid_argument.
func (t *Tools) Call(ctx context.Context, name string, args json.RawMessage) (string, *Result) {
	var res *Result
	switch name {
	case "glob":
		res = callTool(ctx, name, args, t.r.Glob, func(a *GlobArgs) int { return a.MaxResults })
	case "grep":
		res = callTool(ctx, name, args, t.r.Grep, func(a *GrepArgs) int { return a.MaxResults })
	default:
		res = failedResult(name, protocol.NewError(protocol.CodeInvalidArgument, fmt.Sprintf("host: unknown tool %q, want glob or grep", name)))
	}
	return res.Text(), res
}

// callTool decodes a model's arguments as strictly as the schema states
// (unknown fields, wrong types and max_results over the tool bound are
// invalid_argument) and runs the tool.
func callTool[A any](ctx context.Context, name string, args json.RawMessage,
	run func(context.Context, A) (*Result, error), maxResults func(*A) int) *Result {
	var a A
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return failedResult(name, protocol.NewError(protocol.CodeInvalidArgument, "host: bad arguments: "+err.Error()))
	}
	if n := maxResults(&a); n < 0 || n > protocol.MaxResultsTool {
		return failedResult(name, protocol.NewError(protocol.CodeInvalidArgument,
			fmt.Sprintf("host: max_results %d, want 1 to %d", n, protocol.MaxResultsTool)))
	}
	res, _ := run(ctx, a)
	return res
}

func failedResult(tool string, err *Error) *Result {
	return &Result{Tool: tool, Done: Done{Status: protocol.StatusFailed, Error: err}}
}

const globDescription = `Find files by name or path pattern, fast, without reading them. ` +
	`A pattern without "/" matches file names at any depth ("*.go", "Makefile"); with "/" it matches the path below the search directory ("src/**/*_test.go"). ` +
	`Syntax: * and ? (not crossing /), ** (any directories), [a-z], {a,b}. ` +
	`Hidden files are included; .git never is; symbolic links are not followed. ` +
	`Results are in directory order, at most max_results (default 100); a notice says when there were more.`

const grepDescription = `Search file contents with a regular expression (RE2 syntax) or a literal string, line by line. ` +
	`output_mode "files_with_matches" (default) lists files, "content" shows path:line:text, "count" shows matches per file. ` +
	`Narrow with path (a directory) and glob (a file name or path pattern). ` +
	`Binary files and files over 8 MiB are skipped and counted; long lines are cut around the match. ` +
	`"No matches" is stated explicitly; an invalid pattern is an error, never an empty result.`

const globSchema = `{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "minLength": 1, "description": "Glob pattern: without / it matches file names at any depth; with / the path below the search directory."},
    "path": {"type": "string", "description": "Directory to search, relative to the workspace or a root's name. Default: the workspace."},
    "max_results": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "At most this many results (default 100)."}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`

const grepSchema = `{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "minLength": 1, "description": "RE2 regular expression, or a literal string with literal: true."},
    "literal": {"type": "boolean", "description": "Take the pattern as a literal string."},
    "path": {"type": "string", "description": "Directory to search, relative to the workspace or a root's name. Default: the workspace."},
    "glob": {"type": "string", "description": "Search only files whose name (or path, with /) matches this glob."},
    "case": {"type": "string", "enum": ["sensitive", "insensitive", "smart"], "description": "Letter case: sensitive (default), insensitive, or smart (insensitive unless the pattern has an upper-case letter)."},
    "output_mode": {"type": "string", "enum": ["files_with_matches", "content", "count"], "description": "What to return (default files_with_matches)."},
    "max_results": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "At most this many files (or lines, for content); default 100."}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`
