// Package options declares every option of a glob, grep, read or list call once: its
// wire name, type and bounds, the command-line flags that set it with
// their one-line help, and the description a model reads. As ripgrep's
// flag definitions do, one declaration feeds every place an option shows:
//
//   - the JSON Schemas of the tools handed to models (Schema);
//   - the rootbound command's flags and help (Bind, in package main);
//   - the Node host's command-line table, examples/node/flags.json
//     (NodeFlags, written by `go generate ./internal/options`);
//   - the option lists of README.md (Markdown, between markers);
//
// and tests hold the rest to it: the protocol's fields and JSON names, the
// host's, the WIT's records, and every generated copy. What is written by
// hand per option is its behaviour, in the module, and its printer line.
package options

import (
	"fmt"

	"github.com/rootbound/rootbound/protocol"
)

//go:generate go run ./gen

// Tool says which tools take an option.
type Tool uint8

const (
	Glob Tool = 1 << iota
	Grep
	Read
	List
	Stat
	Both  = Glob | Grep
	Every = Glob | Grep | Read | List | Stat
)

// All is every tool, in their order.
var All = []Tool{Glob, Grep, Read, List, Stat}

// Names is the tools' names.
var Names = map[Tool]string{Glob: "glob", Grep: "grep", Read: "read", List: "list", Stat: "stat"}

// Docs document each tool's type of arguments in Go (protocol.GlobArgs, …).
var Docs = map[Tool]string{
	Glob: "finds regular files (and, with IncludeDirs, directories) by name or path. Contents are never read.",
	Grep: "searches file contents, line by line: a match never spans lines unless Multiline is set.",
	Read: "reads lines of one file, numbered, as grep's items.",
	List: "lists one directory's entries, or a small tree of them, with their kinds and sizes, as glob picks them.",
	Stat: "describes one path: its kind, and a file's size and how many lines it has, as read numbers them.",
}

// Commands are the tools as the rootbound command's subcommands: what
// follows the name in its usage, and a line of what it does.
var Commands = map[Tool]struct{ Synopsis, Summary string }{
	Glob: {"[flags] PATTERN [PATH]", "find files by name or path (* ? ** [a-z] {a,b})"},
	Grep: {"[flags] PATTERN [PATH]", "search file contents (RE2, or -F for a literal)"},
	Read: {"[flags] PATH[:A[-B]]", "print a file's lines, numbered as cat -n numbers them"},
	List: {"[flags] [PATH]", "list a directory's entries with their sizes (-d N: N levels)"},
	Stat: {"[flags] PATH", "say what a path is: a directory, or a file with its size and lines"},
}

// Kind is an option's JSON type.
type Kind uint8

const (
	String  Kind = iota // a string
	Bool                // true or false
	Int                 // an integer, within Min and Max
	Strings             // a string or a list of strings
	Array               // a list of strings, each not empty
	Enum                // one of Values
)

// Flag is a command-line spelling of an option.
type Flag struct {
	Long  string // without "--"
	Short string // one letter, or ""
	// Value is what the flag sets, for a flag that takes no argument: an
	// Enum's value ("-i": "insensitive"), or "false" for a Bool it turns
	// off. Empty: a Bool set to true, or a flag that takes an argument.
	Value string
	Help  string // one line
	// Arg names the flag's argument in help ("GLOB", "N"), when it takes one.
	Arg string
	// Tools are the tools whose command has the flag; 0: every tool of
	// the option (fd's -t is glob's, rg's -t grep's).
	Tools Tool
	// Map, if set, maps the flag's argument to the option's value (fd's
	// -t: "f" is "file"); an argument it lacks is refused.
	Map map[string]string
	// Duration: the argument is a length of time (fd's "10min", "2h",
	// "3d", "1w", or Go's "1h30m"), and the option takes it in seconds.
	Duration bool
}

// TakesArg reports whether the flag takes an argument.
func (f Flag) TakesArg(o Option) bool {
	return f.Value == "" && o.Kind != Bool
}

// For reports whether tool's command has the flag of option o.
func (f Flag) For(tool Tool, o Option) bool {
	if f.Tools == 0 {
		return o.Tools&tool != 0
	}
	return f.Tools&tool != 0
}

// Option is one argument of a call.
type Option struct {
	Name     string // on the wire: "max_results"
	Tools    Tool
	Kind     Kind
	Values   []string // an Enum's values
	Min, Max int      // an Int's bounds (Max 0: none)
	Required bool
	// Doc is what a model reads in the tool's schema.
	Doc string
	// GoDoc documents the Go field of the option (protocol.GlobArgs,
	// host.GrepArgs, …), which go generate writes; Go and GoType name it
	// and its type where the wire name and the kind do not.
	GoDoc, Go, GoType string
	// Flags are the command-line spellings, if any.
	Flags []Flag
	// Spelling is how the command takes the option when no flag of its
	// own sets it ("PATTERN", the first argument).
	Spelling string
	// CLIDefault, when set, is the command's default (a JSON value) where
	// it differs from the protocol's: the command prints lines and lists
	// everything, as rg does.
	CLIDefault string
}

// For returns the options a tool takes, in their order.
func For(tool Tool) []Option {
	var out []Option
	for _, o := range Table {
		if o.Tools&tool != 0 {
			out = append(out, o)
		}
	}
	return out
}

// Lookup returns the option name of tool.
func Lookup(tool Tool, name string) (Option, bool) {
	for _, o := range For(tool) {
		if o.Name == name {
			return o, true
		}
	}
	return Option{}, false
}

// ripgrep's type names, as a schema says them.
const typeNames = "go, py, js, ts, rust, java, c, cpp, md, json, yaml, sh..."

// Table is every option, in the order schemas and help list them.
var Table = []Option{
	{Name: "pattern", Tools: Glob, Kind: String, Required: true, Spelling: "PATTERN",
		GoDoc: `Pattern is the glob. Without "/" it matches base names at any depth ("*.go"); with "/" it matches the path below the search root ("src/**/*_test.go"; a leading "/" only anchors) or the path as results show it: "./src/*.go", "/workspace/src/*.go" and "src/" (all below src) work. Syntax: * and ? (never crossing /), ** (any number of directories), [a-z], [!a-z], [[:digit:]], {a,b} (nested too), \ escapes. A pattern that can never match (a ".." component, a host path) is CodeInvalidPattern.`,
		Doc:   "Glob pattern: without / it matches file names at any depth; with / the path below the search path."},
	{Name: "pattern", Tools: Grep, Kind: String, Required: true, Spelling: "PATTERN, or the first -e PATTERN",
		GoDoc: `Pattern is an RE2 regular expression, or a literal string when Literal is set. As in ripgrep, \w \d \s and \b are Unicode-aware ("(?-u)" makes them ASCII), and a file that starts with a UTF-16 byte order mark is searched as its text.`,
		Doc:   "RE2 regular expression, or a literal string with literal: true."},
	{Name: "literal", Tools: Grep, Kind: Bool,
		GoDoc: `Literal takes Pattern as a literal string.`,
		Doc:   "Take the pattern as a literal string.",
		Flags: []Flag{{Long: "fixed-strings", Short: "F", Help: "the pattern is a literal string, not a regular expression"}}},
	{Name: "path", Tools: Read, Kind: String, Required: true, Spelling: "PATH[:LINE[-[LINE]]]",
		GoDoc: `Path is the file to read, relative to the default root or under a root's name ("/docs/README.md"), as results show paths. ".." that leaves a root, and any path into .git, is CodeOutsideRoot; a symbolic link at any component of it is CodeSymlink; a directory, FIFO, socket or device is CodeNotAFile.`,
		Doc:   "File to read, relative to the workspace or under a root's name, as glob and grep results show paths."},
	{Name: "offset", Tools: Read, Kind: Int, Min: 1, Max: protocol.MaxResultsCeiling,
		GoDoc: `Offset is the first line to read, 1-based; 0 means 1. A truncated answer gives the next one (NextOffset).`,
		Doc:   "First line to read, 1-based (default 1); a notice at the end gives the next offset when there is more.",
		Flags: []Flag{{Long: "offset", Arg: "LINE", Help: "the first line to read (1-based; PATH:LINE says the same)"}}},
	{Name: "limit", Tools: Read, Kind: Int, Min: 1, Max: protocol.MaxReadLines,
		GoDoc: `Limit is how many lines to read; 0 means the default and cap, 2,000.`,
		Doc:   "How many lines to read (default and at most 2000).",
		Flags: []Flag{{Long: "limit", Short: "n", Arg: "N", Help: "read at most N lines (PATH:A-B reads lines A to B)"}}},
	{Name: "max_bytes", Tools: Read, Kind: Int, Min: 1, Max: protocol.MaxReadBytes,
		GoDoc: `MaxBytes caps the bytes of the lines one call returns; 0 means DefaultReadBytes. The lines that fit are returned, and the notice gives the offset to read on.`,
		Doc:   "At most this many bytes of lines in one answer (default 100000); the notice gives the offset to read on."},
	{Name: "path", Tools: Both | List, Kind: String, Spelling: "PATH",
		GoDoc: `Path is the search root: a directory or a single file, relative to the default root or under a root's name ("/docs/api"). Empty means the default root. ".." that leaves a root, and any path into .git, is CodeOutsideRoot; a symbolic link at any component of it is CodeSymlink.`,
		Doc:   "Directory (or file) to search, relative to the workspace or under a root's name, as results show paths. Default: the workspace."},
	{Name: "path", Tools: Stat, Kind: String, Required: true, Spelling: "PATH",
		GoDoc: `Path is the file or directory to describe, as Read's Path: relative to the default root or under a root's name, as results show paths; ".." out of a root and any path into .git are CodeOutsideRoot, a symbolic link at any component CodeSymlink, a FIFO, socket or device CodeNotAFile.`,
		Doc:   "File or directory to describe, relative to the workspace or under a root's name, as glob and grep results show paths."},
	{Name: "depth", Tools: List, Kind: Int, Min: 1, Max: protocol.MaxListDepth,
		GoDoc: `Depth is how deep to list: 1 (the default) is the directory's own entries, 2 theirs too, as a small tree.`,
		Doc:   "How deep to list: 1 (default) the directory's own entries, 2 or 3 a small tree.",
		Flags: []Flag{{Long: "depth", Short: "d", Arg: "N", Help: "list N levels deep (1: the directory's own entries)"}}},
	{Name: "glob", Tools: Grep, Kind: Strings,
		GoDoc: `Glob picks the files searched, as ripgrep's -g: "*.go" only Go files, "!*_test.go" all but Go tests; the last glob that matches a file decides, and a file none matches is searched unless some glob is an inclusion.`,
		Doc:   "Search only files matching these globs (a name pattern, or a path pattern with /); a glob starting with ! excludes; the last glob that matches a file decides.",
		Flags: []Flag{{Long: "glob", Short: "g", Arg: "GLOB", Help: "search only files matching this glob; !GLOB excludes; repeat it, the last match decides"}}},
	{Name: "iglob", Tools: Grep, Kind: Strings,
		GoDoc: `Iglob are more globs, as Glob's, matched without regard to case (rg --iglob); they come after Glob's in deciding.`,
		Doc:   "As glob, matched without regard to case.",
		Flags: []Flag{{Long: "iglob", Arg: "GLOB", Help: "as -g, without regard to case; repeat it"}}},
	{Name: "glob", Tools: Glob, Kind: Strings,
		GoDoc: `Glob keeps, of what Pattern finds, the files these globs take, as grep's Glob (rg -g): "!" excludes, the last glob that matches decides.`,
		Doc:   "Keep only found files these globs take too, as grep's glob (! excludes)."},
	{Name: "case", Tools: Grep, Kind: Enum, Values: []string{string(protocol.CaseSensitive), string(protocol.CaseInsensitive), string(protocol.CaseSmart)}, GoType: "Case",
		GoDoc: `Case is CaseSensitive (the default), CaseInsensitive or CaseSmart.`,
		Doc:   "Letter case: sensitive (default), insensitive, or smart (insensitive when the pattern has letters and none is upper case).",
		Flags: []Flag{
			{Long: "case-sensitive", Short: "s", Value: string(protocol.CaseSensitive), Help: "letter case counts (the default)"},
			{Long: "ignore-case", Short: "i", Value: string(protocol.CaseInsensitive), Help: "ignore case"},
			{Long: "smart-case", Short: "S", Value: string(protocol.CaseSmart), Help: "ignore case when the pattern has letters and none is upper case"},
		}},
	{Name: "output_mode", Tools: Grep, Kind: Enum, Values: []string{string(protocol.ModeFiles), string(protocol.ModeContent), string(protocol.ModeCount), string(protocol.ModeCountMatches), string(protocol.ModeFilesWithout)}, GoType: "OutputMode",
		GoDoc:      `OutputMode is ModeFiles (the default), ModeContent, ModeCount, ModeCountMatches or ModeFilesWithout.`,
		Doc:        "What to return: files_with_matches (default), content (matching lines), count (matching lines per file), count_matches (matches per file) or files_without_match (files searched that hold no match).",
		CLIDefault: `"content"`,
		Flags: []Flag{
			{Long: "files-with-matches", Short: "l", Value: string(protocol.ModeFiles), Help: "print only the paths of files with matches"},
			{Long: "count", Short: "c", Value: string(protocol.ModeCount), Help: "print the number of matching lines per file"},
			{Long: "count-matches", Value: string(protocol.ModeCountMatches), Help: "print the number of matches per file"},
			{Long: "files-without-match", Value: string(protocol.ModeFilesWithout), Help: "print only the paths of files searched that hold no match"},
		}},
	{Name: "max_results", Tools: Glob | List, Kind: Int, Min: 1, Max: protocol.MaxResultsTool,
		GoDoc:      `MaxResults caps the results; 0 means the default, 100. Tools handed to models take 1 to 1000; the module takes up to 1,000,000.`,
		Doc:        "At most this many results (default 100).",
		CLIDefault: fmt.Sprint(protocol.MaxResultsCeiling),
		Flags: []Flag{{Long: "max-results", Arg: "N", Help: "stop after this many results (at least 1; the default is everything)"},
			{Long: "first", Short: "1", Value: "1", Tools: Glob, Help: "stop after the first result (fd -1)"}}},
	{Name: "max_results", Tools: Grep, Kind: Int, Min: 1, Max: protocol.MaxResultsTool,
		GoDoc:      `MaxResults caps the files (ModeFiles, ModeCount) or lines (ModeContent; matches with OnlyMatching); 0 means the default, 100. Tools handed to models take 1 to 1000; the module takes up to 1,000,000.`,
		Doc:        "At most this many files (or lines, for content; matches with only_matching); default 100.",
		CLIDefault: fmt.Sprint(protocol.MaxResultsCeiling),
		Flags:      []Flag{{Long: "max-results", Arg: "N", Help: "stop after this many results (at least 1; the default is everything)"}}},
	{Name: "exclude", Tools: Glob | List, Kind: Strings,
		GoDoc: `Exclude leaves out what these globs match, a directory with all it holds (fd's --exclude).`,
		Doc:   "Leave out what these globs match (a directory with all it holds).",
		Flags: []Flag{{Long: "exclude", Short: "E", Arg: "GLOB", Help: "leave out what this glob matches, a directory with all it holds; repeat it"}}},
	{Name: "case_insensitive", Tools: Glob, Kind: Bool,
		GoDoc: `CaseInsensitive matches Pattern and Exclude without regard to case.`,
		Doc:   "Match pattern and exclude without regard to case.",
		Flags: []Flag{{Long: "ignore-case", Short: "i", Help: "match the pattern without regard to case"}}},
	{Name: "include_dirs", Tools: Glob, Kind: Bool,
		GoDoc: `IncludeDirs lists matching directories too, with a trailing "/".`,
		Doc:   "List matching directories too (with a trailing /).",
		Flags: []Flag{{Long: "include-dirs", Help: "list matching directories too (with a trailing /)"}}},
	{Name: "entry_type", Tools: Glob, Kind: Strings, Go: "EntryType",
		GoDoc: `EntryType lists what kinds of entries are found: "file" (the default), "directory" (with a trailing "/", as IncludeDirs) and "symlink" (a symbolic link, listed, never followed).`,
		Doc:   `Kinds of entries to find: "file" (default), "directory" (shown with a trailing /), "symlink" (links are listed, never followed).`,
		Flags: []Flag{{Long: "type", Short: "t", Arg: "TYPE", Map: map[string]string{"f": "file", "file": "file", "d": "directory", "directory": "directory", "dir": "directory", "l": "symlink", "symlink": "symlink", "x": "executable", "executable": "executable"},
			Help: "f (files), d (directories), l (symbolic links) or x (executable files), as fd -t; repeat it"}}},
	{Name: "changed_within", Tools: Glob, Kind: Int, Min: 1,
		GoDoc: `ChangedWithin, if positive, keeps entries modified at most this many seconds before the call (fd --changed-within).`,
		Doc:   "Only entries modified within this many seconds, e.g. 86400 for the last day.",
		Flags: []Flag{{Long: "changed-within", Arg: "DURATION", Duration: true, Help: "only entries modified within this long (10min, 2h, 3d, 1w), as fd"}}},
	{Name: "patterns", Tools: Grep, Kind: Array, Spelling: "-e PATTERN after the first",
		GoDoc: `Patterns are more patterns, as rg's -e: a line matches when any of Pattern and Patterns does.`,
		Doc:   `More patterns: a line matches when any of them or pattern matches (rg -e), e.g. ["FIXME", "XXX"] beside pattern "TODO".`},
	{Name: "context", Tools: Grep, Kind: Int, Min: 0, Max: protocol.MaxContext,
		GoDoc: `Context adds this many lines before and after each matching line in ModeContent (rg -C), unless BeforeContext or AfterContext says otherwise for its side; they come as items with Context set. At most 1000.`,
		Doc:   "Content mode: this many lines before and after each matching line (rg -C), e.g. 2.",
		Flags: []Flag{{Long: "context", Short: "C", Arg: "N", Help: "show N lines before and after each match"}}},
	{Name: "before_context", Tools: Grep, Kind: Int, Min: 0, Max: protocol.MaxContext,
		GoDoc: `BeforeContext adds this many lines before each matching line in ModeContent (rg -B). At most 1000.`,
		Doc:   "Content mode: this many lines before each matching line (rg -B), e.g. 3.",
		Flags: []Flag{{Long: "before-context", Short: "B", Arg: "N", Help: "show N lines before each match"}}},
	{Name: "after_context", Tools: Grep, Kind: Int, Min: 0, Max: protocol.MaxContext,
		GoDoc: `AfterContext adds this many lines after each matching line in ModeContent (rg -A). At most 1000.`,
		Doc:   "Content mode: this many lines after each matching line (rg -A), e.g. 5.",
		Flags: []Flag{{Long: "after-context", Short: "A", Arg: "N", Help: "show N lines after each match"}}},
	{Name: "multiline", Tools: Grep, Kind: Bool,
		GoDoc: `Multiline lets a match span lines (rg -U): "." matches "\n" too, and each line of a match is a matching line. Files stay bounded by the size cap.`,
		Doc:   `Let a match span lines; . matches a newline too (rg -U), e.g. "type \w+ struct \{[^}]*Name".`,
		Flags: []Flag{{Long: "multiline", Short: "U", Help: "let matches span lines; . matches a newline too (rg -U --multiline-dotall)"}}},
	{Name: "max_count", Tools: Grep, Kind: Int, Min: 1,
		GoDoc: `MaxCount, if positive, takes at most this many matching lines from each file (rg -m).`,
		Doc:   "At most this many matching lines from each file (rg -m), e.g. 1 for the first in each.",
		Flags: []Flag{{Long: "max-count", Short: "m", Arg: "N", Help: "take at most N matching lines from each file"}}},
	{Name: "word", Tools: Grep, Kind: Bool,
		GoDoc: `Word keeps matches that are whole words: a non-word character or the line's edge on each side (rg -w).`,
		Doc:   `Match whole words only (rg -w): "err" then misses "errors".`,
		Flags: []Flag{{Long: "word-regexp", Short: "w", Help: "only matches that are whole words"}}},
	{Name: "invert", Tools: Grep, Kind: Bool,
		GoDoc: `Invert takes the lines that do not match (rg -v).`,
		Doc:   `Take the lines that do not match (rg -v), e.g. pattern "^\s*//" with invert: true for lines that are not comments.`,
		Flags: []Flag{{Long: "invert-match", Short: "v", Help: "print the lines that do not match"}}},
	{Name: "exclude_pattern", Tools: Grep, Kind: String,
		GoDoc: `ExcludePattern, if set, is a regular expression, read as Pattern is (case, literal, word): a line that matches it too is not taken (gemini-cli's grep_search exclude_pattern). Not with Invert or Multiline.`,
		Doc:   `Leave out the lines that also match this regular expression (same case and literal rules as pattern), e.g. pattern "TODO" with exclude_pattern "TODO\(\w+\)" for unowned TODOs.`},
	{Name: "only_matching", Tools: Grep, Kind: Bool,
		GoDoc: `OnlyMatching makes each match an item of its own, its text the match alone (rg -o).`,
		Doc:   `Content mode: each match on its own line, the matched text only (rg -o), e.g. pattern "https?://\S+" lists the URLs.`,
		Flags: []Flag{{Long: "only-matching", Short: "o", Help: "print each match on its own line, the matched text only"}}},
	{Name: "crlf", Tools: Grep, Kind: Bool, Go: "CRLF",
		GoDoc: `CRLF reads "\r\n" as a line end: "$" matches before the "\r" (rg --crlf). A "\r" that ends a line is never part of an item's text.`,
		Doc:   `Read \r\n as a line end, so $ matches before \r (rg --crlf), e.g. pattern ";$" in Windows files; a final \r is never shown.`,
		Flags: []Flag{{Long: "crlf", Help: `read \r\n as a line end: $ matches before \r`}}},
	{Name: "text", Tools: Grep, Kind: Bool,
		GoDoc: `Text searches binary files as text (rg -a): a NUL byte no longer makes a file binary; printers escape it.`,
		Doc:   "Search binary files (a NUL byte) as text too (rg -a).",
		Flags: []Flag{{Long: "text", Short: "a", Help: "search binary files as if they were text"}}},
	{Name: "max_columns", Tools: Grep, Kind: Int, Min: 1,
		GoDoc: `MaxColumns, if positive, leaves out the text of a line longer than this many bytes (rg -M): its item has a LineNumber and no Text, and printers write ripgrep's "[Omitted long matching line]" (or "context line").`,
		Doc:   "Content mode: a line longer than this many bytes is not shown (rg -M), only [Omitted long matching line] with its number, e.g. 500 keeps minified files out of the answer.",
		Flags: []Flag{{Long: "max-columns", Short: "M", Arg: "N", Help: "do not print lines longer than N bytes; print [Omitted long matching line] instead"}}},
	{Name: "max_columns_preview", Tools: Grep, Kind: Bool,
		GoDoc: `MaxColumnsPreview, with MaxColumns, keeps a long line's text: printers write its first MaxColumns characters (grapheme clusters; of the window an item carries, when the line is over Limits.MaxTextBytes) and ripgrep's " [... omitted end of long line]" (rg --max-columns-preview).`,
		Doc:   "Content mode, with max_columns: a long line shows its first max_columns characters, then [... omitted end of long line] (rg --max-columns-preview).",
		Flags: []Flag{{Long: "max-columns-preview", Help: "with -M, print the first N characters of a long line, not [Omitted long matching line]"}}},
	{Name: "type", Tools: Both, Kind: Strings,
		GoDoc: `Type keeps only files of these types, ripgrep's names ("go", "py", "ts", "md"; TypeNames lists them).`,
		Doc:   "Only files of these types, ripgrep's names: " + typeNames,
		Flags: []Flag{
			{Long: "type", Short: "t", Arg: "TYPE", Tools: Grep, Help: "only files of this type, ripgrep's names (go, py, md; --type-list lists them); repeat it"},
			{Long: "rg-type", Arg: "TYPE", Tools: Glob, Help: "only files of this type, ripgrep's names (go, py, md; --type-list lists them); repeat it"},
		}},
	{Name: "type_not", Tools: Both, Kind: Strings,
		GoDoc: `TypeNot leaves out files of these types.`,
		Doc:   "Leave out files of these types.",
		Flags: []Flag{
			{Long: "type-not", Short: "T", Arg: "TYPE", Tools: Grep, Help: "leave out files of this type; repeat it"},
			{Long: "rg-type-not", Arg: "TYPE", Tools: Glob, Help: "leave out files of this ripgrep type; repeat it"},
		}},
	{Name: "sort", Tools: Both, Kind: Enum, Values: []string{string(protocol.SortPath), string(protocol.SortMTime)}, GoType: "Sort",
		GoDoc: `Sort is SortPath (full paths compared byte by byte) or SortMTime (newest first, ties in directory order), applied before MaxResults and Offset take a page; grep searches files in that order. Left empty: directory order, results as they are found.`,
		Doc:   "path (full paths compared byte by byte) or mtime (newest first), sorted before max_results takes its page; left out: directory order, as found.",
		// rg's --sort path is its walk's order, which is this one's
		// directory order: the command asks for that.
		Flags: []Flag{{Long: "sort", Arg: "ORDER", Help: "order: path (directory order, as rg's) or mtime (newest first)",
			Map: map[string]string{"path": "", "none": "", "mtime": string(protocol.SortMTime)}}}},
	{Name: "max_depth", Tools: Both, Kind: Int, Min: 1,
		GoDoc: `MaxDepth, if positive, bounds how deep below the search root a call looks: 1 is the search root's own entries.`,
		Doc:   "Look at most this deep below the search path (1: its own entries).",
		Flags: []Flag{{Long: "max-depth", Short: "d", Arg: "N", Help: "look at most this deep below PATH (1: its own entries)"}}},
	{Name: "no_ignore", Tools: Both | List, Kind: Bool,
		GoDoc: `NoIgnore turns ignore files off: .gitignore, .ignore, .rgignore, .git/info/exclude and a root's RootPolicy.Ignore. A root's deny list always applies.`,
		Doc:   "Include what .gitignore, .ignore and .rgignore rules ignore.",
		Flags: []Flag{
			{Long: "no-ignore", Tools: Grep, Help: "do not apply .gitignore, .ignore, .rgignore, .git/info/exclude or global excludes"},
			{Long: "no-ignore", Short: "I", Tools: Glob | List, Help: "do not apply .gitignore, .ignore, .rgignore, .git/info/exclude or global excludes"},
		}},
	{Name: "hidden", Tools: Both | List, Kind: Bool, GoType: "*bool",
		GoDoc: `Hidden set to false leaves hidden files and directories out (names starting with "."). Nil means true: hidden files are looked at, unless the root hides them (RootPolicy.HideHidden).`,
		Doc:   "Look at hidden files and directories (default true).",
		Flags: []Flag{
			{Long: "no-hidden", Value: "false", Help: "leave out hidden files and directories (by default they are searched)"},
			{Long: "hidden", Short: ".", Value: "true", Tools: Grep, Help: "search hidden files and directories (the default; as rg --hidden, -.)"},
			{Long: "hidden", Short: "H", Value: "true", Tools: Glob | List, Help: "look at hidden files and directories (the default; as fd -H)"},
		}},
	{Name: "offset", Tools: Both | List, Kind: Int, Min: 0, Max: protocol.MaxResultsCeiling,
		GoDoc: `Offset skips the first results (lines in ModeContent, files otherwise), for paging: a truncated answer gives the offset of the next page (NextOffset), and the same call with it continues exactly where the last one stopped.`,
		Doc:   "Skip this many results, to page: a truncation notice gives the next offset (offset: 100 after the first 100).",
		Flags: []Flag{{Long: "offset", Arg: "N", Help: "skip the first N results (to page through them with --max-results)"}}},
}
