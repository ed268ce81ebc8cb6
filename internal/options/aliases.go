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
}

// Aliases are the names taken besides the options'.
var Aliases = []Alias{
	{Tools: Grep, Name: "-i", Option: "case", Values: map[string]any{"true": "insensitive", "false": nil}, From: "Claude Code"},
	{Tools: Grep, Name: "-n", From: "Claude Code (content lines always carry their numbers)"},
	{Tools: Grep, Name: "-A", Option: "after_context", From: "Claude Code"},
	{Tools: Grep, Name: "-B", Option: "before_context", From: "Claude Code"},
	{Tools: Grep, Name: "-C", Option: "context", From: "Claude Code"},
	{Tools: Both, Name: "head_limit", Option: "max_results", Values: map[string]any{"0": nil}, From: "Claude Code (0: no limit of its own)"},
	{Tools: Grep, Name: "include", Option: "glob", From: "gemini-cli"},
	{Tools: Both, Name: "dir_path", Option: "path", From: "gemini-cli"},
	{Tools: Grep, Name: "case_sensitive", Option: "case", Values: map[string]any{"true": "sensitive", "false": "insensitive"}, From: "gemini-cli"},
	{Tools: Glob, Name: "case_sensitive", Option: "case_insensitive", Values: map[string]any{"true": false, "false": true}, From: "gemini-cli"},
	{Tools: Both, Name: "respect_git_ignore", Option: "no_ignore", Values: map[string]any{"true": false, "false": true}, From: "gemini-cli"},
	{Tools: Both, Name: "description", From: "DeerFlow (what the call is for: it goes into the audit record)"},
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
