package main

import (
	"strings"

	flag "github.com/spf13/pflag"
)

// foreignFlags are the flags of rg (for grep) and fd (for glob) that
// rootbound does not have, so that one typed from habit is named as
// theirs, not as unknown.
var foreignFlags = map[string]map[string]string{
	"grep": {
		"--auto-hybrid-regex": "a regex engine choice", "--binary": "binary files searched, matches reported",
		"--block-buffered": "block buffering", "-b": "byte offsets", "--byte-offset": "byte offsets",
		"--colors": "colour specs", "--context-separator": "a context separator of one's own",
		"--no-context-separator": "no context separator", "--debug": "debug output", "--trace": "trace output",
		"--dfa-size-limit": "a DFA size limit", "-E": "an encoding", "--encoding": "an encoding", "--engine": "a regex engine choice",
		"--field-context-separator": "a field separator of one's own", "--field-match-separator": "a field separator of one's own",
		"-f": "patterns from a file", "--file": "patterns from a file", "--files-without-match": "files without a match",
		"--glob-case-insensitive": "every glob without regard to case (--iglob is)", "--ignore-file": "ignore files of one's own",
		"--ignore-file-case-insensitive": "ignore files without regard to case", "--include-zero": "counts of zero",
		"--line-buffered":       "line buffering",
		"--max-columns-preview": "previews of long lines", "--mmap": "memory maps", "--no-mmap": "memory maps",
		"--no-ignore-dot": "a part of --no-ignore", "--no-ignore-vcs": "a part of --no-ignore", "--no-ignore-exclude": "a part of --no-ignore",
		"--no-ignore-files": "a part of --no-ignore", "--no-ignore-messages": "quiet ignore-file errors",
		"--no-messages": "quiet errors", "--no-pcre2-unicode": "PCRE2", "--no-unicode": "ASCII classes ((?-u) in the pattern is)",
		"--unicode": "Unicode classes (on by default)", "--null-data": "NUL-separated lines", "--one-file-system": "staying on one file system",
		"--passthru": "every line printed", "--passthrough": "every line printed", "--path-separator": "a path separator of one's own",
		"-P": "PCRE2 (RE2 syntax is taken)", "--pcre2": "PCRE2 (RE2 syntax is taken)", "--pcre2-version": "PCRE2",
		"--pre": "preprocessors (a command run per file)", "--pre-glob": "preprocessors",
		"-r": "replacements (rootbound never writes)", "--replace": "replacements (rootbound never writes)",
		"-z": "searching compressed files", "--search-zip": "searching compressed files", "--sortr": "a reversed sort",
		"--trim": "trimmed lines", "--type-add": "types of one's own", "--type-clear": "types of one's own",
	},
	"glob": {
		"--no-ignore-vcs": "a part of --no-ignore", "--regex": "regular expressions (patterns are globs)",
		"--and": "more patterns", "-l": "details (ls -l)", "--list-details": "details (ls -l)",
		"-p": "patterns against the full path (a pattern with / matches the path)", "--full-path": "patterns against the full path (a pattern with / matches the path)",
		"--min-depth": "a least depth", "--exact-depth": "an exact depth", "--prune": "pruning matches",
		"-S": "sizes", "--size": "sizes", "--changed-before": "an older-than bound", "--change-older-than": "an older-than bound",
		"--older": "an older-than bound", "--newer": "--changed-within's other name", "--changed-after": "--changed-within's other name",
		"--change-newer-than": "--changed-within's other name", "-o": "owners", "--owner": "owners",
		"-x": "running a command (rootbound runs none)", "--exec": "running a command (rootbound runs none)",
		"-X": "running a command (rootbound runs none)", "--exec-batch": "running a command (rootbound runs none)",
		"--batch-size": "running a command", "--ignore-file": "ignore files of one's own", "--show-errors": "errors shown",
		"--base-directory": "a base directory", "--path-separator": "a path separator of one's own",
		"--search-path": "search paths (give them as PATHs)", "--strip-cwd-prefix": "the ./ prefix", "--one-file-system": "staying on one file system",
	},
}

// foreignFlag finds, in args, the first flag that fs lacks and rg or fd
// (by tool) has, and what it does.
func foreignFlag(tool string, fs *flag.FlagSet, args []string) (name, desc string, ok bool) {
	table := foreignFlags[tool]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return "", "", false
		case strings.HasPrefix(a, "--"):
			long, _, hasValue := strings.Cut(a[2:], "=")
			if f := fs.Lookup(long); f != nil {
				if !hasValue && f.NoOptDefVal == "" {
					i++ // its value
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
	return "", "", false
}
