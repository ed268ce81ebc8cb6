package main

import (
	"strings"

	flag "github.com/spf13/pflag"
)

// foreign is a flag of rg's (for grep) or fd's (for glob) that rootbound
// does not take: what it does there, and what to type here instead.
type foreign struct{ what, instead string }

// foreignFlags are the flags of rg and fd that rootbound does not have, so
// that one typed from habit is named as theirs, with the way to get what
// it does, not as unknown.
var foreignFlags = map[string]map[string]foreign{
	"grep": {
		"--auto-hybrid-regex":            {"a regex engine choice", "leave it out: there is one engine (RE2 syntax)"},
		"--engine":                       {"a regex engine choice", "leave it out: there is one engine (RE2 syntax)"},
		"-P":                             {"PCRE2", "write the pattern in RE2 syntax (no look-around, no back-references)"},
		"--pcre2":                        {"PCRE2", "write the pattern in RE2 syntax (no look-around, no back-references)"},
		"--pcre2-version":                {"PCRE2", "rootbound --version"},
		"--no-pcre2-unicode":             {"PCRE2", "(?-u) in the pattern"},
		"--binary":                       {"binary files searched, matches reported", "-a (binary files searched as text)"},
		"--block-buffered":               {"block buffering", "leave it out: output is buffered and flushed as results come"},
		"--line-buffered":                {"line buffering", "leave it out: output is flushed as results come"},
		"-b":                             {"byte offsets", "--column (the column of each line's first match)"},
		"--byte-offset":                  {"byte offsets", "--column (the column of each line's first match)"},
		"--colors":                       {"colour specs", "--color always"},
		"--context-separator":            {"a context separator of one's own", "pipe the output through sed 's/^--$/SEP/'"},
		"--no-context-separator":         {"no context separator", "pipe the output through grep -vx -- --"},
		"--field-context-separator":      {"a field separator of one's own", "--vimgrep or --json"},
		"--field-match-separator":        {"a field separator of one's own", "--vimgrep or --json"},
		"--path-separator":               {"a path separator of one's own", "leave it out: paths are written with /"},
		"--debug":                        {"debug output", "--stats (what was searched and what was left out, and why)"},
		"--trace":                        {"trace output", "--stats (what was searched and what was left out, and why)"},
		"--dfa-size-limit":               {"a DFA size limit", "leave it out: the engine's memory is bounded per call"},
		"--regex-size-limit":             {"a regex size limit", "leave it out: the engine's memory is bounded per call"},
		"-E":                             {"an encoding", "convert first: iconv -f ENC FILE | rootbound grep PATTERN"},
		"--encoding":                     {"an encoding", "convert first: iconv -f ENC FILE | rootbound grep PATTERN"},
		"--glob-case-insensitive":        {"every glob without regard to case", "--iglob GLOB"},
		"--ignore-file":                  {"ignore files of one's own", "-g '!GLOB' for each rule, or a .ignore file in the tree"},
		"--ignore-file-case-insensitive": {"ignore files without regard to case", "--iglob '!GLOB'"},
		"--include-zero":                 {"counts of zero", "--files (every file searched) beside -c"},
		"--mmap":                         {"memory maps", "leave it out: files are read through the sandbox"},
		"--no-mmap":                      {"memory maps", "leave it out: files are read through the sandbox"},
		"--no-ignore-dot":                {"a part of --no-ignore", "--no-ignore (every ignore file, or none)"},
		"--no-ignore-vcs":                {"a part of --no-ignore", "--no-ignore (every ignore file, or none)"},
		"--no-ignore-exclude":            {"a part of --no-ignore", "--no-ignore (every ignore file, or none)"},
		"--no-ignore-files":              {"a part of --no-ignore", "--no-ignore (every ignore file, or none)"},
		"--no-ignore-messages":           {"quiet ignore-file errors", "2>/dev/null"},
		"--no-messages":                  {"quiet errors", "2>/dev/null"},
		"--no-unicode":                   {"ASCII classes", "(?-u) in the pattern"},
		"--unicode":                      {"Unicode classes", "leave it out: they are on"},
		"--null-data":                    {"NUL-separated lines", "tr '\\0' '\\n' < FILE | rootbound grep PATTERN"},
		"--one-file-system":              {"staying on one file system", "leave it out: a root's mounts are its own"},
		"--passthru":                     {"every line printed", "-C 1000 (the lines around each match, 1,000 at most)"},
		"--passthrough":                  {"every line printed", "-C 1000 (the lines around each match, 1,000 at most)"},
		"--pre":                          {"preprocessors (a command run per file)", "run the command first and pipe its output in"},
		"--pre-glob":                     {"preprocessors", "run the command first and pipe its output in"},
		"-z":                             {"searching compressed files", "zcat FILE | rootbound grep PATTERN"},
		"--search-zip":                   {"searching compressed files", "zcat FILE | rootbound grep PATTERN"},
		"--type-add":                     {"types of one's own", "-g '*.EXT' (a glob per extension)"},
		"--type-clear":                   {"types of one's own", "-g '*.EXT' (a glob per extension)"},
		"--sort modified":                {"oldest first", "--sortr modified (newest first)"},
		"--sort accessed":                {"a sort by access time", "--sortr modified (newest first by modification)"},
		"--sort created":                 {"a sort by creation time", "--sortr modified (newest first by modification)"},
		"--sortr path":                   {"paths in reverse", "--sort path | tac"},
		"--sortr none":                   {"no sort", "leave --sortr out"},
		"--sortr accessed":               {"a sort by access time", "--sortr modified (newest first by modification)"},
		"--sortr created":                {"a sort by creation time", "--sortr modified (newest first by modification)"},
		"--hostname-bin":                 {"hyperlinks", "leave it out: paths are printed relative to PATH"},
		"--hyperlink-format":             {"hyperlinks", "leave it out: paths are printed relative to PATH"},
	},
	"glob": {
		"--regex":             {"regular expressions", "a glob: -F TEXT for a name holding TEXT, '*.go' for a suffix"},
		"--and":               {"more patterns", "one glob with {a,b} alternatives, or a pipe to grep"},
		"-l":                  {"details (ls -l)", "-0 | xargs -0 ls -l"},
		"--list-details":      {"details (ls -l)", "-0 | xargs -0 ls -l"},
		"-p":                  {"patterns against the full path", "a pattern with a / matches the path below PATH: '**/sub/*.go'"},
		"--full-path":         {"patterns against the full path", "a pattern with a / matches the path below PATH: '**/sub/*.go'"},
		"--prune":             {"pruning matches", "-E GLOB (what it matches is left out with all it holds)"},
		"--newer":             {"--changed-within's other name", "--changed-within DURATION"},
		"--changed-after":     {"--changed-within's other name", "--changed-within DURATION"},
		"--change-newer-than": {"--changed-within's other name", "--changed-within DURATION"},
		"-o":                  {"owners", "-0 | xargs -0 stat -c '%U %n'"},
		"--owner":             {"owners", "-0 | xargs -0 stat -c '%U %n'"},
		"-x":                  {"running a command per result", "-0 | xargs -0 -n1 CMD (rootbound runs no command)"},
		"--exec":              {"running a command per result", "-0 | xargs -0 -n1 CMD (rootbound runs no command)"},
		"-X":                  {"running a command on the results", "-0 | xargs -0 CMD (rootbound runs no command)"},
		"--exec-batch":        {"running a command on the results", "-0 | xargs -0 CMD (rootbound runs no command)"},
		"--batch-size":        {"running a command", "-0 | xargs -0 -n N CMD"},
		"--ignore-file":       {"ignore files of one's own", "-E GLOB for each rule, or a .ignore file in the tree"},
		"--no-ignore-vcs":     {"a part of --no-ignore", "-I (every ignore file, or none)"},
		"--show-errors":       {"errors shown", "leave it out: errors are always shown"},
		"--base-directory":    {"a base directory", "give the directory as PATH, or cd to it"},
		"--path-separator":    {"a path separator of one's own", "leave it out: paths are written with /"},
		"--search-path":       {"search paths", "give them as PATHs after the pattern"},
		"--one-file-system":   {"staying on one file system", "leave it out: a root's mounts are its own"},
		"--format":            {"a format of one's own", "--json, or a pipe to sed"},
		"--hyperlink":         {"hyperlinks", "leave it out: paths are printed relative to PATH"},
	},
}

// foreignFlag finds, in args, the first flag that fs lacks and rg or fd
// (by tool) has, or a value of one that rootbound reads otherwise ("--sort
// modified").
func foreignFlag(tool string, fs *flag.FlagSet, args []string) (name string, f foreign, ok bool) {
	table := foreignFlags[tool]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return "", foreign{}, false
		case strings.HasPrefix(a, "--"):
			long, _, hasValue := strings.Cut(a[2:], "=")
			if f := fs.Lookup(long); f != nil {
				value, _ := strings.CutPrefix(a, "--"+long+"=")
				if !hasValue && f.NoOptDefVal == "" && i+1 < len(args) {
					i++ // its value
					value = args[i]
				}
				if d, ok := table["--"+long+" "+value]; ok {
					return "--" + long + " " + value, d, true
				}
				continue
			}
			if d, ok := table["--"+long]; ok {
				return "--" + long, d, true
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				f := fs.ShorthandLookup(a[j : j+1])
				if f == nil {
					if d, ok := table["-"+a[j:j+1]]; ok {
						return "-" + a[j:j+1], d, true
					}
					break
				}
				if f.NoOptDefVal == "" { // it takes a value: the rest, or the next argument
					if j == len(a)-1 {
						i++
					}
					break
				}
			}
		}
	}
	return "", foreign{}, false
}
