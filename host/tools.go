package host

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/rootbound/rootbound/host/internal/printer"
	"github.com/rootbound/rootbound/internal/match"
	"github.com/rootbound/rootbound/internal/options"
	"github.com/rootbound/rootbound/protocol"
)

// ToolSpec is a tool as a model sees it: a name, what it does, and the JSON
// Schema of its arguments. The schemas are held to wit/rootbound.wit by a
// test (field names, required fields, enum values).
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Tools hands a Runner's tools (glob, grep, read, list, stat) to a model: their
// specs, and Call, which takes a model's JSON arguments and returns the
// text it reads.
type Tools struct{ r *Runner }

// NewTools returns the tools of r.
func NewTools(r *Runner) *Tools { return &Tools{r: r} }

// A tool is one of the tools as Tools hands them to a model: its name,
// what a model reads of it (its schema from the table of options), and how
// its arguments become a call.
type tool struct {
	name        string
	description string // a %s in it: the runner's file size cap
	schema      string
	prepare     func(r *Runner, args json.RawMessage) (*Prepared, string, error)
	// typed prepares a program's call, as Runner.PrepareX: its arguments
	// typed, not checked against the schema a model is held to.
	typed func(r *Runner, c protocol.Call) (*Prepared, error)
	words // how Result.Text words its answer
}

// words are how a tool's answer is worded for a model (render.go).
type words struct {
	// found names n results: "3 files matching", then the patterns and
	// the path (withPatterns) or the path alone.
	found        func(r *Result, n int) string
	withPatterns bool
	// none says that nothing was found (a format with the patterns, if
	// withPatterns, then the path).
	none string
	// text, if set, writes the whole answer (read's numbered lines).
	text func(r *Result, b *strings.Builder)
	// matched names, for a truncated answer's notice, what one result
	// and many are ("line matches", "lines match"); how says how to get
	// fewer.
	matched func(r *Result) (one, many string)
	how     string
}

// tools are the tools, in the order Specs lists them.
var tools = []*tool{
	newTool("glob", options.Glob, globDescription, (*Runner).PrepareGlob, words{
		found:        func(_ *Result, n int) string { return plural(n, "file", "files") + " matching" },
		withPatterns: true, none: "No files match %s in %s.",
		matched: globMatched, how: "narrow the pattern or the path"}),
	newTool("grep", options.Grep, grepDescription, (*Runner).PrepareGrep, words{
		found: grepFound, withPatterns: true, none: "No matches for %s in %s.",
		matched: grepMatched, how: "narrow the pattern, the path or the glob filter"}),
	newTool("read", options.Read, readDescription, (*Runner).PrepareRead, words{
		text: (*Result).readText}),
	newTool("list", options.List, listDescription, (*Runner).PrepareList, words{
		found:   func(_ *Result, n int) string { return plural(n, "entry", "entries") },
		none:    "No entries in %s.",
		matched: func(*Result) (string, string) { return "entry", "entries" },
		how:     "list a directory below it, or with a lower depth"}),
	newTool("stat", options.Stat, statDescription, func(r *Runner, a protocol.StatArgs) (*Prepared, error) {
		return r.preparePath("stat", protocol.Call{Stat: &a}, &a.Path)
	}, words{
		found: func(_ *Result, n int) string { return plural(n, "entry", "entries") },
		none:  "Nothing at %s."}),
}

// toolNamed is the row of the tool of that name.
func toolNamed(name string) *tool {
	i := slices.IndexFunc(tools, func(tl *tool) bool { return tl.name == name })
	if i < 0 {
		return nil
	}
	return tools[i]
}

// newTool makes the row of a tool whose call takes arguments of type A.
func newTool[A any](name string, o options.Tool, description string, prepare func(*Runner, A) (*Prepared, error), w words) *tool {
	schema := string(options.Schema(o))
	validator := mustResolve(schema)
	return &tool{name: name, description: description, schema: schema, words: w,
		prepare: func(r *Runner, args json.RawMessage) (*Prepared, string, error) {
			a, desc, err := decodeArgs[A](name, o, args, validator)
			if err != nil {
				return nil, "", err
			}
			p, err := prepare(r, a)
			return p, desc, err
		},
		typed: func(r *Runner, c protocol.Call) (*Prepared, error) {
			v := reflect.ValueOf(c)
			for i := range v.NumField() {
				if a, ok := v.Field(i).Interface().(*A); ok && a != nil {
					return prepare(r, *a)
				}
			}
			return nil, newError(CodeInvalidArgument, "the call has no arguments for "+name)
		}}
}

// Prepare validates the call of the one tool c sets (a program's call,
// its arguments typed: Runner.PrepareGlob's, PrepareGrep's, … for that
// tool) and resolves what it will read. The error is an *Error.
func (r *Runner) Prepare(c protocol.Call) (*Prepared, error) {
	names := c.Tools()
	if len(names) != 1 {
		return nil, newError(CodeInvalidArgument, "a call sets exactly one of "+strings.Join(protocol.ToolNames, ", "))
	}
	return toolNamed(names[0]).typed(r, c)
}

// Specs returns the tool specs, in the order of the tools' table. The
// descriptions with a %s (grep's, read's, stat's) state the runner's file
// size cap.
func (t *Tools) Specs() []ToolSpec {
	size := int64(protocol.DefaultMaxFileSize)
	if t.r != nil {
		size = t.r.cfg.maxFileSize
	}
	specs := make([]ToolSpec, len(tools))
	for i, tl := range tools {
		desc := tl.description
		if strings.Contains(desc, "%s") {
			desc = fmt.Sprintf(desc, printer.Size(size))
		}
		specs[i] = ToolSpec{Name: tl.name, Description: desc, InputSchema: json.RawMessage(tl.schema)}
	}
	return specs
}

// StrictSpecs returns the specs with schemas for strict function calling
// (OpenAI's strict mode, structured outputs): every property required, an
// optional one nullable (Call and Prepare take null as left out), and no
// minLength, which strict modes refuse (Call still checks it).
func (t *Tools) StrictSpecs() []ToolSpec {
	specs := t.Specs()
	for i := range specs {
		var schema map[string]any
		if err := json.Unmarshal(specs[i].InputSchema, &schema); err != nil {
			panic("host: tool schema: " + err.Error())
		}
		props := schema["properties"].(map[string]any)
		required := map[string]bool{}
		for _, r := range schema["required"].([]any) {
			required[r.(string)] = true
		}
		names := make([]string, 0, len(props))
		for name, p := range props {
			names = append(names, name)
			prop := p.(map[string]any)
			strictProperty(prop)
			if !required[name] {
				nullable(prop)
			}
		}
		slices.Sort(names)
		schema["required"] = names
		specs[i].InputSchema, _ = json.Marshal(schema)
	}
	return specs
}

// strictProperty drops what strict modes refuse from a property's schema.
func strictProperty(prop map[string]any) {
	delete(prop, "minLength")
	if items, ok := prop["items"].(map[string]any); ok {
		strictProperty(items)
	}
	if alts, ok := prop["anyOf"].([]any); ok {
		for _, a := range alts {
			strictProperty(a.(map[string]any))
		}
	}
}

// nullable lets a property's schema take null too.
func nullable(prop map[string]any) {
	switch {
	case prop["anyOf"] != nil:
		prop["anyOf"] = append(prop["anyOf"].([]any), map[string]any{"type": "null"})
	case prop["type"] != nil:
		prop["type"] = []any{prop["type"], "null"}
		if enum, ok := prop["enum"].([]any); ok {
			prop["enum"] = append(enum, nil)
		}
	}
}

// Call runs the tool name with a model's JSON arguments and returns the text
// for the model (never empty: a failure is an "[Error (code): ...]" line)
// and the Result, whose Err is the typed error if any: Prepare, then Run.
func (t *Tools) Call(ctx context.Context, name string, args json.RawMessage) (string, *Result) {
	start := time.Now()
	p, err := t.Prepare(name, args)
	if err != nil {
		res := failedResult(name, err.(*Error))
		if audit := t.r.cfg.audit; audit != nil {
			// What the call asked for, as far as it can be read.
			var asked struct{ Pattern, Path any }
			_ = json.Unmarshal(args, &asked)
			pattern, _ := asked.Pattern.(string)
			path, _ := asked.Path.(string)
			audit(AuditRecord{Tool: name, Pattern: pattern, Path: t.r.where(path), Status: StatusFailed, Code: res.Done.Error.Code})
		}
		return res.Text(), res
	}
	p.start = start
	res, _ := p.Run(ctx)
	return res.Text(), res
}

// Prepare validates a model's JSON arguments for the tool name and prepares
// the call (Runner.PrepareGlob, PrepareGrep, PrepareRead, PrepareList). It takes exactly what the
// tool's JSON Schema allows: one JSON object, keys spelled as the schema
// spells them (case counts), none twice, nothing after it, each value of
// its type and within its range, null for a property left out (as strict
// schemas send it, StrictSpecs); and the names other agents' tools give
// the same arguments ("-i", "head_limit", "dir_path": options.Aliases),
// with "description" kept for the audit record. Anything else is
// CodeInvalidArgument, saying what was wrong (an unknown name: which names
// the tool takes). The error is an *Error.
func (t *Tools) Prepare(name string, args json.RawMessage) (*Prepared, error) {
	tl := toolNamed(name)
	if tl == nil {
		return nil, newError(CodeInvalidArgument, fmt.Sprintf("unknown tool %q, want %s", name, strings.Join(protocol.ToolNames, ", ")))
	}
	p, desc, err := tl.prepare(t.r, args)
	if err != nil {
		return nil, err
	}
	p.description = desc
	return p, nil
}

// decodeArgs decodes a model's arguments strictly (see Prepare), and
// returns the description the model gave, if any.
func decodeArgs[A any](name string, tool options.Tool, args json.RawMessage, schema *jsonschema.Resolved) (A, string, error) {
	var a A
	bad := func(err error) (A, string, error) {
		return a, "", newError(CodeInvalidArgument, "bad arguments for "+name+": "+err.Error())
	}
	if err := oneObject(args); err != nil {
		return bad(err)
	}
	var instance map[string]any
	if err := json.Unmarshal(args, &instance); err != nil {
		return bad(err)
	}
	for k, v := range instance {
		if v == nil {
			delete(instance, k) // null: left out
		}
	}
	desc, given, err := unalias(tool, instance)
	if err != nil {
		return bad(err)
	}
	if err := schema.Validate(instance); err != nil {
		err = schemaError(err)
		if o, ok := options.Lookup(tool, "offset"); ok && o.Min == 1 && instance["offset"] == 0.0 {
			// gemini-cli's read_file counts lines from 0.
			err = errors.New("offset: lines are numbered from 1 here (offset 1 is the first line; a tool that counts from 0 calls it offset 0)")
		}
		for opt, alias := range given {
			if strings.HasPrefix(err.Error(), opt+":") {
				err = fmt.Errorf("%v (given as %q)", err, alias)
			}
		}
		return bad(err)
	}
	canonical, err := json.Marshal(instance)
	if err == nil {
		err = json.Unmarshal(canonical, &a)
	}
	if err != nil {
		return bad(err)
	}
	return a, desc, nil
}

// unalias renames in args the names other agents' tools use to the
// options they set (options.Aliases), takes out "description", and refuses
// a name that is neither an option nor an alias, listing the options. It
// returns the description and, by option, the alias that set it.
func unalias(tool options.Tool, args map[string]any) (desc string, given map[string]string, err error) {
	aliases := options.AliasesFor(tool)
	given = map[string]string{}
	var unknown []string
	type endAlias struct {
		al options.Alias
		v  any
	}
	var ends []endAlias // set last: they need where their range starts
	var implied []options.Alias
	for _, k := range slices.Sorted(maps.Keys(args)) {
		if _, ok := options.Lookup(tool, k); ok {
			continue
		}
		al, ok := aliases[k]
		if !ok {
			unknown = append(unknown, k)
			continue
		}
		v := args[k]
		delete(args, k)
		if k == "description" {
			s, ok := v.(string)
			if !ok {
				return "", nil, errors.New(`"description" must be a string`)
			}
			desc = s
			continue
		}
		if al.Option == "" {
			continue
		}
		if al.EndOf != "" {
			ends = append(ends, endAlias{al, v})
			continue
		}
		if text, err := json.Marshal(v); err == nil {
			if mapped, ok := al.Values[string(text)]; ok {
				if mapped == nil {
					continue
				}
				v = mapped
			}
		}
		if _, ok := args[al.Option]; ok {
			by := al.Option
			if other, ok := given[al.Option]; ok {
				by = other
			}
			return "", nil, fmt.Errorf("%q and %q both set %s: give one", k, by, al.Option)
		}
		args[al.Option] = v
		given[al.Option] = k
		implied = append(implied, al)
	}
	for _, al := range implied {
		for opt, v := range al.Implies {
			if _, ok := args[opt]; !ok {
				args[opt] = v
				given[opt] = al.Name
			}
		}
	}
	for _, e := range ends {
		if _, ok := args[e.al.Option]; ok {
			return "", nil, fmt.Errorf("%q and %q both set %s: give one", e.al.Name, cmp.Or(given[e.al.Option], e.al.Option), e.al.Option)
		}
		end, ok := e.v.(float64)
		start, startOK := args[e.al.EndOf].(float64)
		if _, given := args[e.al.EndOf]; !given {
			start, startOK = 1, true
		}
		if !ok || !startOK || end != math.Trunc(end) || end < start {
			return "", nil, fmt.Errorf("%q: want a line number at or after the first line read (%s)", e.al.Name, e.al.EndOf)
		}
		args[e.al.Option] = end - start + 1
		given[e.al.Option] = e.al.Name
	}
	if len(unknown) > 0 {
		var names []string
		for _, o := range options.For(tool) {
			names = append(names, o.Name)
		}
		return "", nil, fmt.Errorf("unknown %s %s; the arguments are %s", plural(len(unknown), "argument", "arguments"), quoteAll(unknown), strings.Join(names, ", "))
	}
	return desc, given, nil
}

// quoteAll quotes names for a message: "a", "b".
func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = match.Quote(n)
	}
	return strings.Join(q, ", ")
}

// oneObject checks what a JSON Schema cannot see once the JSON is decoded:
// that args is one object, with no key twice, and nothing after it.
func oneObject(args []byte) error {
	dec := json.NewDecoder(bytes.NewReader(args))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		return errors.New("want a JSON object")
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key := tok.(string)
		if seen[key] {
			return fmt.Errorf("%q given twice", key)
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the JSON object")
	}
	return nil
}

// schemaError reads a validation error as a model would want it: where,
// and what was wrong, with numbers written as numbers.
func schemaError(err error) error {
	msg := strings.ReplaceAll(err.Error(), "validating root: ", "")
	msg = strings.ReplaceAll(msg, "validating /properties/", "")
	msg = rationals.ReplaceAllString(msg, "$1")
	msg = wrongType.ReplaceAllStringFunc(msg, func(m string) string {
		sub := wrongType.FindStringSubmatch(m)
		return sub[1] + "want " + jsonTypes[sub[3]] + ", not " + jsonTypes[sub[2]]
	})
	return errors.New(msg)
}

// wrongType matches the validator's words for a value of the wrong type,
// `type: 5 has type "string", want "integer"`.
var wrongType = regexp.MustCompile(`(^|: )type: .* has type "(\w+)", want "(\w+)"`)

// jsonTypes are the JSON types as a message says them.
var jsonTypes = map[string]string{"integer": "an integer", "number": "a number", "boolean": "true or false", "string": "a string",
	"array": "a list", "object": "an object", "null": "null"}

// rationals match the numbers the validator writes as fractions or with
// six decimals: 1001/1, 1000.000000.
var rationals = regexp.MustCompile(`\b(-?\d+)(?:/1|\.0+)\b`)

func failedResult(tool string, err *Error) *Result {
	return &Result{Tool: tool, Done: Done{Status: StatusFailed, Error: err}}
}

// mustResolve compiles a schema of this file; a schema that does not
// compile is a bug caught by every test.
func mustResolve(schema string) *jsonschema.Resolved {
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(schema), &s); err != nil {
		panic("host: tool schema: " + err.Error())
	}
	r, err := s.Resolve(nil)
	if err != nil {
		panic("host: tool schema: " + err.Error())
	}
	return r
}

const globDescription = `Find files by name or path pattern, fast, without reading them. Use this tool, not find, ls -R or fd in a shell; then grep to find lines in them, and read to read them. ` +
	`A pattern without "/" matches file names at any depth ("*.go", "Makefile"); with "/" it matches the path below the search path, or the path as results show it ("src/**/*_test.go", "src/" for everything in src). ` +
	`Syntax: * and ? (not crossing /), ** (any directories), [a-z], [!a-z], {a,b}. ` +
	`Files that .gitignore, .ignore or .rgignore rules ignore are left out and counted (no_ignore: true includes them); hidden files are included (hidden: false leaves them out); .git never is; symbolic links are not followed. ` +
	`Narrow with exclude, type (ripgrep's type names: go, py, js, ts, rust, java, md...), max_depth; include_dirs lists directories too; sort "mtime" lists the newest first. ` +
	`Results are in directory order, at most max_results (default 100); a notice says when there were more and gives the offset of the next page (offset: 100). ` +
	`Paths are as results show them, or the absolute paths of the workspace.`

const grepDescription = `Search file contents with a regular expression (RE2 syntax; \w \d \s \b are Unicode-aware as in ripgrep) or a literal string, line by line. Use this tool, not grep or rg in a shell; then read to see a found line's surroundings (offset: its line number minus a few). ` +
	`output_mode "files_with_matches" (default) lists files, "content" shows path:line:text, "count" the number of matching lines per file, "count_matches" the number of matches per file, "files_without_match" the files searched that hold none. ` +
	`In content mode, context: 2 adds two lines around each match (before_context, after_context for one side), shown as path-N-text with -- between groups; only_matching: true shows just the matched text. ` +
	`multiline: true lets a match span lines ("func \w+\([^)]*\n[^)]*\)"); word: true matches whole words only; patterns: ["TODO", "FIXME"] adds patterns; invert: true takes the lines that do not match; max_count: 1 takes the first matching line of each file; crlf: true lets $ match before \r. ` +
	`A truncated answer gives the offset of the next page: the same call with offset: N continues where it stopped. ` +
	`Narrow with path (a directory or a file), glob (file name or path patterns; "!" excludes: ["*.go", "!*_test.go"]) and type (ripgrep's type names: go, py, js, ts, rust, java, md...). ` +
	`Files that .gitignore, .ignore or .rgignore rules ignore are left out and counted (no_ignore: true includes them); hidden files are searched (hidden: false leaves them out). ` +
	`Binary files and files over %s are skipped and counted; long lines are cut around the match. ` +
	`"No matches" is stated explicitly; an invalid pattern is an error, never an empty result.`

const readDescription = `Read lines of one file, numbered as cat -n numbers them (the number, a tab, the line). Use this tool, not cat, head, tail or sed in a shell; find the file first with glob or grep. ` +
	`offset is the first line (1-based, default 1), limit how many lines (default and at most 2000), max_bytes a cap of the answer's size (default 100000). ` +
	`The answer says which lines of how many it holds; when there are more, a notice gives the offset to read on from. Long lines are cut, with "…" where they were. ` +
	`A file with a UTF-16 byte order mark is decoded. Binary files, files over %s, directories (use list) and devices are refused with a typed error; symbolic links are not followed; .git is never read.`

const listDescription = `List one directory's entries: files with their sizes, directories with a trailing /, symbolic links (never followed). Use this tool, not ls in a shell; glob finds files by pattern at any depth. ` +
	`depth: 2 or 3 shows a small tree (default 1: the directory's own entries). ` +
	`Entries are in directory order (a directory's entries right after it), at most max_results (default 100); a notice says when there were more and gives the offset of the next page. ` +
	`What .gitignore, .ignore or .rgignore rules ignore is left out and counted (no_ignore: true includes it); hidden entries are listed (hidden: false leaves them out); .git never is.`

const statDescription = `Say what one path is: a directory (its path ends in /), or a file with its size in bytes and its number of lines, as read numbers them (read path:A-B then reads a range of them). Use this tool, not stat or wc -l in a shell. ` +
	`A binary file, or one over the size cap of %s, is shown with its size and no lines, and counted in a notice. Symbolic links are never followed, .git is never read.`
