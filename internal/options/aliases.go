package options

// Alias is a name another agent's tool gives an argument: a model that
// learned Claude Code's Grep or gemini-cli's search_file_content writes
// "-i", "head_limit" or "dir_path", and is understood. The schemas name
// only the options; Tools.Call takes these too, and audits them as what
// they set.
type Alias struct {
	Tools  Tool
	Name   string // as the model writes it: "-i"
	Option string // the option it sets; "" for one that sets none
	// Values maps the alias's value, as JSON text ("true", "0"), to the
	// option's (nil: the option is left out); any other value passes as
	// it is, for the schema to check.
	Values map[string]any
	From   string // whose tools name it so
	// EndOf, when set, makes the alias the last of a range that starts at
	// the option EndOf names (1 when left out): it sets Option to the
	// range's length (gemini-cli's end_line: limit = end_line - offset + 1).
	EndOf string
	// Implies sets options the call leaves out, as the other agent's tool
	// does with the alias (gemini-cli's after and before answer lines:
	// output_mode content).
	Implies map[string]any
}

// Aliases are the names taken besides the options'.
var Aliases = []Alias{
	{Tools: Grep, Name: "-i", Option: "case", Values: map[string]any{"true": "insensitive", "false": nil}, From: "Claude Code"},
	{Tools: Grep, Name: "-n", From: "Claude Code (content lines always carry their numbers)"},
	{Tools: Grep, Name: "-A", Option: "after_context", From: "Claude Code"},
	{Tools: Grep, Name: "-B", Option: "before_context", From: "Claude Code"},
	{Tools: Grep, Name: "-C", Option: "context", From: "Claude Code"},
	{Tools: Both, Name: "head_limit", Option: "max_results", Values: map[string]any{"0": nil}, From: "Claude Code (0: no limit of its own)"},
	{Tools: Read, Name: "file_path", Option: "path", From: "Claude Code, gemini-cli"},
	{Tools: Grep, Name: "include", Option: "glob", From: "gemini-cli"},
	{Tools: Grep, Name: "include_pattern", Option: "glob", From: "gemini-cli"},
	{Tools: Grep, Name: "names_only", Option: "output_mode", Values: map[string]any{"true": "files_with_matches", "false": "content"}, From: "gemini-cli"},
	{Tools: Grep, Name: "total_max_matches", Option: "max_results", From: "gemini-cli"},
	{Tools: Grep, Name: "max_matches_per_file", Option: "max_count", From: "gemini-cli"},
	{Tools: Grep, Name: "fixed_strings", Option: "literal", From: "gemini-cli"},
	{Tools: Grep, Name: "after", Option: "after_context", Implies: map[string]any{"output_mode": "content"}, From: "gemini-cli (lines, with the context)"},
	{Tools: Grep, Name: "before", Option: "before_context", Implies: map[string]any{"output_mode": "content"}, From: "gemini-cli (lines, with the context)"},
	{Tools: Glob | Grep | List, Name: "dir_path", Option: "path", From: "gemini-cli"},
	{Tools: Read, Name: "absolute_path", Option: "path", From: "gemini-cli"},
	{Tools: Read, Name: "start_line", Option: "offset", From: "gemini-cli"},
	{Tools: Read, Name: "end_line", Option: "limit", EndOf: "offset", From: "gemini-cli (the last line to read)"},
	{Tools: List, Name: "ignore", Option: "exclude", From: "gemini-cli"},
	{Tools: Grep, Name: "case_sensitive", Option: "case", Values: map[string]any{"true": "sensitive", "false": "insensitive"}, From: "gemini-cli"},
	{Tools: Glob, Name: "case_sensitive", Option: "case_insensitive", Values: map[string]any{"true": false, "false": true}, From: "gemini-cli"},
	{Tools: Glob | Grep | List, Name: "respect_git_ignore", Option: "no_ignore", Values: map[string]any{"true": false, "false": true}, From: "gemini-cli"},
	{Tools: Every, Name: "description", From: "DeerFlow (what the call is for: it goes into the audit record)"},
}

// AliasNames returns the names other agents give tool's option, in the
// table's order, for the option's description in the tool's schema.
func AliasNames(tool Tool, option string) []string {
	var out []string
	for _, a := range Aliases {
		if a.Tools&tool != 0 && a.Option == option {
			out = append(out, a.Name)
		}
	}
	return out
}

// AliasesFor returns the aliases a tool takes, by name.
func AliasesFor(tool Tool) map[string]Alias {
	out := map[string]Alias{}
	for _, a := range Aliases {
		if a.Tools&tool != 0 {
			out[a.Name] = a
		}
	}
	return out
}
