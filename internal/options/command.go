package options

// The rootbound command's own flags: each flag it takes that is no option
// of a call (those are Table's), and each flag of rg's or fd's it refuses,
// is a row here, as every option is a row of Table. The command binds the
// rows to its settings by name (Setting), help, the manual page and the
// completions are made from them, and the Node CLI's flag table
// (examples/node/flags.json) carries them, so that both commands take,
// word and refuse the same flags.

// Effect is what a command flag does.
type Effect uint8

const (
	// Print sets how results are printed (rg's -n, --heading, -0).
	Print Effect = iota
	// Run sets how the command runs a call: its time, its size cap, its
	// instances, whether through the resident server, the protocol's
	// lines printed as they are.
	Run
	// Rewrite changes the call (-x wraps the pattern, -u turns off ignore
	// files, --files lists what grep would search).
	Rewrite
	// Filter keeps, on the host, entries the call found (fd's -S,
	// --changed-before, --min-depth).
	Filter
	// Accepted is taken and does nothing: it asks for what rootbound does
	// anyway (rg's --no-config).
	Accepted
	// Refused is rg's or fd's flag that rootbound does not take: named as
	// theirs, with what it does there (What) and what to type instead.
	Refused
)

// FlagKind is what a command flag takes.
type FlagKind uint8

const (
	FlagBool     FlagKind = iota // nothing: it sets its setting to true
	FlagTri                      // nothing: it sets a setting two flags share to Value ("true" or "false"), the last given winning (-n, -N)
	FlagCount                    // nothing, repeated: it counts (-u, -uu)
	FlagString                   // a string (the last given)
	FlagStrings                  // a string, repeated: each is kept
	FlagInt                      // a whole number
	FlagDuration                 // a length of time, as Go writes it ("30s")
	FlagAge                      // a length of time, as fd writes it ("10min", "2h", "3d")
	FlagSize                     // a size in bytes, or with K, M or G (rg's --max-filesize)
	FlagSizes                    // fd's -S bounds, repeated ("+10k", "-1M")
)

// CommandFlag is one of the command's own flags, or one it refuses.
type CommandFlag struct {
	Tools       Tool   // the subcommands that take (or refuse) it
	Long, Short string // without dashes; either may be ""
	Kind        FlagKind
	Effect      Effect
	// Setting names the command's setting the flag sets; "" for an
	// Accepted or Refused flag.
	Setting string
	// Value: of a FlagTri, what it sets ("true", "false"); of a Refused
	// flag, the one value it is refused with ("--sort modified"), when
	// only that one is.
	Value string
	// Default is the setting's default, as the flag takes it typed.
	Default string
	// Help is one line; a `WORD` in it names the argument.
	Help string
	// What and Instead: of a Refused flag, what it does in rg or fd, and
	// what to type here for it.
	What, Instead string
}

// CommandFlagsFor returns the rows of tool's subcommand, in the table's
// order.
func CommandFlagsFor(tool Tool) []CommandFlag {
	var out []CommandFlag
	for _, f := range CommandFlags {
		if f.Tools&tool != 0 {
			out = append(out, f)
		}
	}
	return out
}

const (
	acceptedForRg = "accepted, for rg: rootbound reads no configuration, applies .gitignore outside git repositories too, and -U always lets . match a newline"
	noServerHelp  = "run in this process, not through the resident server (which this command starts for the calls after it)"
)

// CommandFlags are the command's own flags and those it refuses.
var CommandFlags = []CommandFlag{
	// Every tool's subcommand.
	{Tools: Every, Long: "json", Kind: FlagBool, Effect: Print, Setting: "json", Help: "print the protocol lines as the module writes them (JSON)"},
	{Tools: Every, Long: "timeout", Kind: FlagDuration, Effect: Run, Setting: "timeout", Default: "1m0s", Help: "give up after this long"},
	{Tools: Both, Long: "max-filesize", Kind: FlagSize, Effect: Run, Setting: "maxSize", Default: "8M", Help: "skip files larger than this `SIZE` (bytes, or with K, M or G, as rg: 8M)"},
	{Tools: Read | Stat, Long: "max-filesize", Kind: FlagSize, Effect: Run, Setting: "maxSize", Default: "8M", Help: "refuse files larger than this `SIZE` (bytes, or with K, M or G, as rg: 8M)"},
	{Tools: List, Long: "max-filesize", Kind: FlagSize, Effect: Run, Setting: "maxSize", Default: "8M", Help: "do not apply ignore files larger than this `SIZE` (bytes, or with K, M or G, as rg: 8M)"},
	{Tools: Every, Long: "no-server", Kind: FlagBool, Effect: Run, Setting: "noServer", Help: noServerHelp},

	// glob and grep.
	{Tools: Both, Long: "type-list", Kind: FlagBool, Effect: Print, Setting: "typeList", Help: "list the file types and their globs, and exit"},
	{Tools: Both, Long: "no-ignore-parent", Kind: FlagBool, Effect: Rewrite, Setting: "noIgnoreParent", Help: "do not apply ignore files of the directories above PATH"},
	{Tools: Both, Long: "no-ignore-global", Kind: FlagBool, Effect: Rewrite, Setting: "noIgnoreGlobal", Help: "do not apply the global excludes (git's core.excludesFile)"},
	{Tools: Both, Long: "unrestricted", Short: "u", Kind: FlagCount, Effect: Rewrite, Setting: "unrestricted", Help: "-u: --no-ignore; -uu: and hidden files (searched anyway); -uuu: and binary files as text (grep)"},
	{Tools: Both, Long: "threads", Short: "j", Kind: FlagInt, Effect: Run, Setting: "threads", Default: "0", Help: "split a grep across `N` instances, one core each (default: the CPUs; a glob runs on one)"},
	{Tools: Both, Long: "follow", Short: "L", Kind: FlagBool, Effect: Run, Setting: "follow", Help: "refused: symbolic links are never followed"},
	{Tools: Both, Long: "quiet", Short: "q", Kind: FlagBool, Effect: Print, Setting: "quiet", Help: "print nothing; exit 0 at the first result, 1 if there is none"},

	// grep, as rg.
	{Tools: Grep, Long: "color", Kind: FlagString, Effect: Print, Setting: "color", Default: "auto", Help: "`WHEN`: never, auto (on a terminal) or always"},
	{Tools: Grep, Long: "pretty", Short: "p", Kind: FlagBool, Effect: Print, Setting: "pretty", Help: "--heading -n, coloured as on a terminal (--color auto, piped too)"},
	{Tools: Grep, Long: "no-config", Kind: FlagBool, Effect: Accepted, Help: acceptedForRg},
	{Tools: Grep, Long: "no-require-git", Kind: FlagBool, Effect: Accepted, Help: acceptedForRg},
	{Tools: Grep, Long: "multiline-dotall", Kind: FlagBool, Effect: Accepted, Help: acceptedForRg},
	{Tools: Grep, Long: "stats", Kind: FlagBool, Effect: Print, Setting: "stats", Help: "after the results, print what was searched and what was left out, and why"},
	{Tools: Grep, Long: "regexp", Short: "e", Kind: FlagStrings, Effect: Rewrite, Setting: "regexps", Help: "a `PATTERN` to search for; repeat it (any may match); PATTERN is then not given"},
	{Tools: Grep, Long: "line-regexp", Short: "x", Kind: FlagBool, Effect: Rewrite, Setting: "lineRegexp", Help: "match whole lines only (as rg -x)"},
	{Tools: Grep, Long: "file", Short: "f", Kind: FlagStrings, Effect: Rewrite, Setting: "patternFiles", Help: "search for the patterns in `PATTERNFILE`, one a line (as rg -f); repeat it; PATTERN is then not given"},
	{Tools: Grep, Long: "replace", Short: "r", Kind: FlagString, Effect: Print, Setting: "replace", Help: "print each match as `REPLACEMENT` ($1, ${name}: its groups; $$: a $); only what is printed changes"},
	{Tools: Grep, Long: "trim", Kind: FlagBool, Effect: Print, Setting: "trim", Help: "print lines without their leading white space"},
	{Tools: Grep, Long: "sortr", Kind: FlagString, Effect: Rewrite, Setting: "sortr", Help: "`ORDER`: modified: newest first, across the tree (rg sorts each directory's entries, a directory by its own time)"},
	{Tools: Grep, Long: "files", Kind: FlagBool, Effect: Rewrite, Setting: "files", Help: "list the files that would be searched, and search none (no PATTERN)"},
	{Tools: Grep, Long: "line-number", Short: "n", Kind: FlagTri, Effect: Print, Setting: "lineNumbers", Value: "true", Help: "print line numbers (the default on a terminal)"},
	{Tools: Grep, Long: "no-line-number", Short: "N", Kind: FlagTri, Effect: Print, Setting: "lineNumbers", Value: "false", Help: "print no line numbers"},
	{Tools: Grep, Long: "with-filename", Short: "H", Kind: FlagTri, Effect: Print, Setting: "filename", Value: "true", Help: "print the path of each line (the default unless PATH is one file)"},
	{Tools: Grep, Long: "no-filename", Short: "I", Kind: FlagTri, Effect: Print, Setting: "filename", Value: "false", Help: "print no paths"},
	{Tools: Grep, Long: "heading", Kind: FlagTri, Effect: Print, Setting: "heads", Value: "true", Help: "print each file's path above its lines (the default on a terminal)"},
	{Tools: Grep, Long: "no-heading", Kind: FlagTri, Effect: Print, Setting: "heads", Value: "false", Help: "print the path on every line"},
	{Tools: Grep, Long: "column", Kind: FlagBool, Effect: Print, Setting: "column", Help: "print the column of each line's first match (implies -n)"},
	{Tools: Grep, Long: "vimgrep", Kind: FlagBool, Effect: Print, Setting: "vimgrep", Help: "print each match as path:line:column:text, a line per match"},
	{Tools: Grep, Long: "null", Short: "0", Kind: FlagBool, Effect: Print, Setting: "null", Help: "follow each path with a NUL byte"},

	// glob, as fd.
	{Tools: Glob, Long: "color", Short: "c", Kind: FlagString, Effect: Print, Setting: "color", Default: "auto", Help: "`WHEN`: never, auto or always (accepted, for fd: paths are not coloured)"},
	{Tools: Glob, Long: "absolute-path", Short: "a", Kind: FlagBool, Effect: Print, Setting: "absolute", Help: "print absolute paths"},
	{Tools: Glob, Long: "extension", Short: "e", Kind: FlagStrings, Effect: Rewrite, Setting: "extensions", Help: "only files whose name ends in .`EXT`, in any case (fd -e); repeat it; PATTERN may then be left out"},
	{Tools: Glob, Long: "print0", Short: "0", Kind: FlagBool, Effect: Print, Setting: "null", Help: "end each path with a NUL byte, not a newline"},
	{Tools: Glob, Long: "glob", Short: "g", Kind: FlagBool, Effect: Accepted, Default: "true", Help: "accepted, for fd: patterns are globs"},
	{Tools: Glob, Long: "case-sensitive", Short: "s", Kind: FlagBool, Effect: Rewrite, Setting: "caseSensitive", Help: "letter case counts (by default, as fd: only when the pattern has an upper-case letter)"},
	{Tools: Glob, Long: "fixed-strings", Short: "F", Kind: FlagBool, Effect: Rewrite, Setting: "fixed", Help: "PATTERN is a string that a name holds, as fd -F (a glob of *PATTERN* with its wildcards taken literally)"},
	{Tools: Glob, Long: "size", Short: "S", Kind: FlagSizes, Effect: Filter, Setting: "sizes", Help: "only files of this `SIZE`: +10k at least, -1M at most, 512b exactly (b, k, m, g, t; ki, mi, gi, ti), as fd -S; repeat it"},
	{Tools: Glob, Long: "changed-before", Kind: FlagAge, Effect: Filter, Setting: "changedBefore", Help: "only entries modified longer ago than this `DURATION` (10min, 2h, 3d, 1w), as fd"},
	{Tools: Glob, Long: "min-depth", Kind: FlagInt, Effect: Filter, Setting: "minDepth", Default: "0", Help: "only entries at least `N` deep below PATH (1: its own entries)"},
	{Tools: Glob, Long: "exact-depth", Kind: FlagInt, Effect: Filter, Setting: "exactDepth", Default: "0", Help: "only entries exactly `N` deep below PATH (1: its own entries)"},
	{Tools: Glob, Long: "strip-cwd-prefix", Kind: FlagBool, Effect: Print, Setting: "stripCWD", Help: "no ./ before the paths -0 prints, as fd --strip-cwd-prefix"},

	// rg's and fd's flags that rootbound refuses, named as theirs.
	{Tools: Grep, Long: "auto-hybrid-regex", Effect: Refused, What: "a regex engine choice", Instead: "leave it out: there is one engine (RE2 syntax)"},
	{Tools: Grep, Long: "engine", Effect: Refused, What: "a regex engine choice", Instead: "leave it out: there is one engine (RE2 syntax)"},
	{Tools: Grep, Long: "pcre2", Short: "P", Effect: Refused, What: "PCRE2", Instead: "write the pattern in RE2 syntax (no look-around, no back-references)"},
	{Tools: Grep, Long: "pcre2-version", Effect: Refused, What: "PCRE2", Instead: "rootbound --version"},
	{Tools: Grep, Long: "no-pcre2-unicode", Effect: Refused, What: "PCRE2", Instead: "(?-u) in the pattern"},
	{Tools: Grep, Long: "binary", Effect: Refused, What: "binary files searched, matches reported", Instead: "-a (binary files searched as text)"},
	{Tools: Grep, Long: "block-buffered", Effect: Refused, What: "block buffering", Instead: "leave it out: output is buffered and flushed as results come"},
	{Tools: Grep, Long: "line-buffered", Effect: Refused, What: "line buffering", Instead: "leave it out: output is flushed as results come"},
	{Tools: Grep, Long: "byte-offset", Short: "b", Effect: Refused, What: "byte offsets", Instead: "--column (the column of each line's first match)"},
	{Tools: Grep, Long: "colors", Effect: Refused, What: "colour specs", Instead: "--color always"},
	{Tools: Grep, Long: "context-separator", Effect: Refused, What: "a context separator of one's own", Instead: "pipe the output through sed 's/^--$/SEP/'"},
	{Tools: Grep, Long: "no-context-separator", Effect: Refused, What: "no context separator", Instead: "pipe the output through grep -vx -- --"},
	{Tools: Grep, Long: "field-context-separator", Effect: Refused, What: "a field separator of one's own", Instead: "--vimgrep or --json"},
	{Tools: Grep, Long: "field-match-separator", Effect: Refused, What: "a field separator of one's own", Instead: "--vimgrep or --json"},
	{Tools: Grep, Long: "path-separator", Effect: Refused, What: "a path separator of one's own", Instead: "leave it out: paths are written with /"},
	{Tools: Grep, Long: "debug", Effect: Refused, What: "debug output", Instead: "--stats (what was searched and what was left out, and why)"},
	{Tools: Grep, Long: "trace", Effect: Refused, What: "trace output", Instead: "--stats (what was searched and what was left out, and why)"},
	{Tools: Grep, Long: "dfa-size-limit", Effect: Refused, What: "a DFA size limit", Instead: "leave it out: the engine's memory is bounded per call"},
	{Tools: Grep, Long: "regex-size-limit", Effect: Refused, What: "a regex size limit", Instead: "leave it out: the engine's memory is bounded per call"},
	{Tools: Grep, Long: "encoding", Short: "E", Effect: Refused, What: "an encoding", Instead: "convert first: iconv -f ENC FILE | rootbound grep PATTERN"},
	{Tools: Grep, Long: "glob-case-insensitive", Effect: Refused, What: "every glob without regard to case", Instead: "--iglob GLOB"},
	{Tools: Grep, Long: "ignore-file", Effect: Refused, What: "ignore files of one's own", Instead: "-g '!GLOB' for each rule, or a .ignore file in the tree"},
	{Tools: Grep, Long: "ignore-file-case-insensitive", Effect: Refused, What: "ignore files without regard to case", Instead: "--iglob '!GLOB'"},
	{Tools: Grep, Long: "include-zero", Effect: Refused, What: "counts of zero", Instead: "--files (every file searched) beside -c"},
	{Tools: Grep, Long: "mmap", Effect: Refused, What: "memory maps", Instead: "leave it out: files are read through the sandbox"},
	{Tools: Grep, Long: "no-mmap", Effect: Refused, What: "memory maps", Instead: "leave it out: files are read through the sandbox"},
	{Tools: Grep, Long: "no-ignore-dot", Effect: Refused, What: "a part of --no-ignore", Instead: "--no-ignore (every ignore file, or none)"},
	{Tools: Grep, Long: "no-ignore-vcs", Effect: Refused, What: "a part of --no-ignore", Instead: "--no-ignore (every ignore file, or none)"},
	{Tools: Grep, Long: "no-ignore-exclude", Effect: Refused, What: "a part of --no-ignore", Instead: "--no-ignore (every ignore file, or none)"},
	{Tools: Grep, Long: "no-ignore-files", Effect: Refused, What: "a part of --no-ignore", Instead: "--no-ignore (every ignore file, or none)"},
	{Tools: Grep, Long: "no-ignore-messages", Effect: Refused, What: "quiet ignore-file errors", Instead: "2>/dev/null"},
	{Tools: Grep, Long: "no-messages", Effect: Refused, What: "quiet errors", Instead: "2>/dev/null"},
	{Tools: Grep, Long: "no-unicode", Effect: Refused, What: "ASCII classes", Instead: "(?-u) in the pattern"},
	{Tools: Grep, Long: "unicode", Effect: Refused, What: "Unicode classes", Instead: "leave it out: they are on"},
	{Tools: Grep, Long: "null-data", Effect: Refused, What: "NUL-separated lines", Instead: "tr '\\0' '\\n' < FILE | rootbound grep PATTERN"},
	{Tools: Grep, Long: "one-file-system", Effect: Refused, What: "staying on one file system", Instead: "leave it out: a root's mounts are its own"},
	{Tools: Grep, Long: "passthru", Effect: Refused, What: "every line printed", Instead: "-C 1000 (the lines around each match, 1,000 at most)"},
	{Tools: Grep, Long: "passthrough", Effect: Refused, What: "every line printed", Instead: "-C 1000 (the lines around each match, 1,000 at most)"},
	{Tools: Grep, Long: "pre", Effect: Refused, What: "preprocessors (a command run per file)", Instead: "run the command first and pipe its output in"},
	{Tools: Grep, Long: "pre-glob", Effect: Refused, What: "preprocessors", Instead: "run the command first and pipe its output in"},
	{Tools: Grep, Long: "search-zip", Short: "z", Effect: Refused, What: "searching compressed files", Instead: "zcat FILE | rootbound grep PATTERN"},
	{Tools: Grep, Long: "type-add", Effect: Refused, What: "types of one's own", Instead: "-g '*.EXT' (a glob per extension)"},
	{Tools: Grep, Long: "type-clear", Effect: Refused, What: "types of one's own", Instead: "-g '*.EXT' (a glob per extension)"},
	{Tools: Grep, Long: "sort", Value: "modified", Effect: Refused, What: "oldest first", Instead: "--sortr modified (newest first)"},
	{Tools: Grep, Long: "sort", Value: "accessed", Effect: Refused, What: "a sort by access time", Instead: "--sortr modified (newest first by modification)"},
	{Tools: Grep, Long: "sort", Value: "created", Effect: Refused, What: "a sort by creation time", Instead: "--sortr modified (newest first by modification)"},
	{Tools: Grep, Long: "sortr", Value: "path", Effect: Refused, What: "paths in reverse", Instead: "--sort path | tac"},
	{Tools: Grep, Long: "sortr", Value: "none", Effect: Refused, What: "no sort", Instead: "leave --sortr out"},
	{Tools: Grep, Long: "sortr", Value: "accessed", Effect: Refused, What: "a sort by access time", Instead: "--sortr modified (newest first by modification)"},
	{Tools: Grep, Long: "sortr", Value: "created", Effect: Refused, What: "a sort by creation time", Instead: "--sortr modified (newest first by modification)"},
	{Tools: Grep, Long: "hostname-bin", Effect: Refused, What: "hyperlinks", Instead: "leave it out: paths are printed relative to PATH"},
	{Tools: Grep, Long: "hyperlink-format", Effect: Refused, What: "hyperlinks", Instead: "leave it out: paths are printed relative to PATH"},
	{Tools: Glob, Long: "regex", Effect: Refused, What: "regular expressions", Instead: "a glob: -F TEXT for a name holding TEXT, '*.go' for a suffix"},
	{Tools: Glob, Long: "and", Effect: Refused, What: "more patterns", Instead: "one glob with {a,b} alternatives, or a pipe to grep"},
	{Tools: Glob, Long: "list-details", Short: "l", Effect: Refused, What: "details (ls -l)", Instead: "-0 | xargs -0 ls -l"},
	{Tools: Glob, Long: "full-path", Short: "p", Effect: Refused, What: "patterns against the full path", Instead: "a pattern with a / matches the path below PATH: '**/sub/*.go'"},
	{Tools: Glob, Long: "prune", Effect: Refused, What: "pruning matches", Instead: "-E GLOB (what it matches is left out with all it holds)"},
	{Tools: Glob, Long: "newer", Effect: Refused, What: "--changed-within's other name", Instead: "--changed-within DURATION"},
	{Tools: Glob, Long: "changed-after", Effect: Refused, What: "--changed-within's other name", Instead: "--changed-within DURATION"},
	{Tools: Glob, Long: "change-newer-than", Effect: Refused, What: "--changed-within's other name", Instead: "--changed-within DURATION"},
	{Tools: Glob, Long: "owner", Short: "o", Effect: Refused, What: "owners", Instead: "-0 | xargs -0 stat -c '%U %n'"},
	{Tools: Glob, Long: "exec", Short: "x", Effect: Refused, What: "running a command per result", Instead: "-0 | xargs -0 -n1 CMD (rootbound runs no command)"},
	{Tools: Glob, Long: "exec-batch", Short: "X", Effect: Refused, What: "running a command on the results", Instead: "-0 | xargs -0 CMD (rootbound runs no command)"},
	{Tools: Glob, Long: "batch-size", Effect: Refused, What: "running a command", Instead: "-0 | xargs -0 -n N CMD"},
	{Tools: Glob, Long: "ignore-file", Effect: Refused, What: "ignore files of one's own", Instead: "-E GLOB for each rule, or a .ignore file in the tree"},
	{Tools: Glob, Long: "no-ignore-vcs", Effect: Refused, What: "a part of --no-ignore", Instead: "-I (every ignore file, or none)"},
	{Tools: Glob, Long: "show-errors", Effect: Refused, What: "errors shown", Instead: "leave it out: errors are always shown"},
	{Tools: Glob, Long: "base-directory", Effect: Refused, What: "a base directory", Instead: "give the directory as PATH, or cd to it"},
	{Tools: Glob, Long: "path-separator", Effect: Refused, What: "a path separator of one's own", Instead: "leave it out: paths are written with /"},
	{Tools: Glob, Long: "search-path", Effect: Refused, What: "search paths", Instead: "give them as PATHs after the pattern"},
	{Tools: Glob, Long: "one-file-system", Effect: Refused, What: "staying on one file system", Instead: "leave it out: a root's mounts are its own"},
	{Tools: Glob, Long: "format", Effect: Refused, What: "a format of one's own", Instead: "--json, or a pipe to sed"},
	{Tools: Glob, Long: "hyperlink", Effect: Refused, What: "hyperlinks", Instead: "leave it out: paths are printed relative to PATH"},
}
