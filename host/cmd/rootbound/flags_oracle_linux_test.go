package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rootbound/rootbound/internal/testtree"
)

// flagTree is a small tree for the flag tests: matches in several files
// and lines, a hidden file, an ignored one (.ignore, which rg and fd both
// read outside a git repository), a binary file, a long line, a link, an
// executable.
func flagTree(t *testing.T) string {
	t.Helper()
	dir := testtree.New(t, map[string]string{
		"a.txt":         "alpha TODO one\nbeta\nTODO two TODO\n",
		"c.txt":         "TODO 1\na\nb\nc\nd\nTODO 2\n",
		"B.TXT":         "Todo upper\n",
		"sub/b.go":      "x\nTODO sub\n",
		"sub/deep/d.md": "nothing\n",
		".hidden/h.txt": "TODO hidden\n",
		".ignore":       "ignored.log\n",
		"ignored.log":   "TODO ignored\n",
		"bin.dat":       "bin\x00TODO\n",
		"long.txt":      strings.Repeat("x", 500) + " TODO\n",
		"run.sh":        "#!/bin/sh\n# TODO run\n",
		"link":          "->a.txt",
		"sub/ws.txt":    "  \tTODO indented\n\tnot this\n",
		"pats":          "alpha\nTODO [12]\n",
		"sub/uni.txt":   "TODO e\u0301\u0301\u00fc \u65e5\u672c\u8a9e x TODO y TODO\n", // clusters of several runes, several bytes
	})
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Times ten minutes apart, in an order that is not the names': for
	// --sortr modified, --changed-within and --changed-before.
	now := time.Now()
	for i, name := range []string{"c.txt", "sub/b.go", "a.txt", "long.txt", "B.TXT", "run.sh", "sub/ws.txt", "bin.dat", "pats", "ignored.log", ".hidden/h.txt", "sub/deep/d.md", ".ignore"} {
		at := now.Add(-time.Duration(i) * 10 * time.Minute)
		if err := os.Chtimes(filepath.Join(dir, name), at, at); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// rgCases are the rows of TestFlagsAgreeWithRipgrep.
var rgCases = []struct {
	name  string
	ours  []string
	tty   bool
	stats bool // compare only rg's --stats lines both can count
	// env is set for both ("K=V"; "K" unsets K): what colours a terminal
	// is the environment's too.
	env []string
}{
	{name: "default", ours: []string{"TODO"}},
	{name: "-n", ours: []string{"-n", "TODO"}},
	{name: "-n -N", ours: []string{"-n", "-N", "TODO"}},
	{name: "-H, one file", ours: []string{"-H", "TODO", "a.txt"}},
	{name: "one file", ours: []string{"-n", "TODO", "a.txt"}},
	{name: "-I", ours: []string{"-I", "-n", "TODO"}},
	{name: "--no-filename", ours: []string{"--no-filename", "TODO"}},
	{name: "several PATHs", ours: []string{"-n", "TODO", "sub", "a.txt", "c.txt"}},
	{name: "--heading, piped", ours: []string{"--heading", "-n", "-C1", "TODO"}},
	{name: "--no-heading", ours: []string{"--no-heading", "TODO"}},
	{name: "--column", ours: []string{"--column", "TODO"}},
	{name: "--vimgrep", ours: []string{"--vimgrep", "TODO"}},
	{name: "--vimgrep -C1", ours: []string{"--vimgrep", "-C1", "TODO", "c.txt"}},
	{name: "-C1", ours: []string{"-n", "-C1", "TODO"}},
	{name: "-s", ours: []string{"-s", "todo"}},
	{name: "-i -s: the last wins", ours: []string{"-i", "-s", "todo"}},
	{name: "-i", ours: []string{"-i", "-l", "todo"}},
	{name: "-x", ours: []string{"-x", "-n", "TODO.*"}},
	{name: "-x -F", ours: []string{"-x", "-F", "-c", "TODO one"}},
	{name: "-x -e -e", ours: []string{"-x", "-n", "-e", "TODO one", "-e", "TODO [12]"}},
	{name: "--max-filesize 1K", ours: []string{"--max-filesize", "1K", "-l", "TODO"}},
	{name: "-.", ours: []string{"-.", "-l", "TODO"}},
	{name: "--iglob", ours: []string{"-i", "-l", "--iglob", "*.TXT", "todo"}},
	{name: "-a", ours: []string{"-a", "-l", "TODO"}},
	{name: "-u", ours: []string{"-u", "-l", "TODO"}},
	{name: "-uu", ours: []string{"-uu", "-l", "TODO"}},
	{name: "-uuu", ours: []string{"-uuu", "-l", "TODO"}},
	{name: "--files", ours: []string{"--files"}},
	{name: "--files -g", ours: []string{"--files", "-g", "*.txt", "-g", "!c.txt"}},
	{name: "--files --iglob", ours: []string{"--files", "--iglob", "*.TXT"}},
	{name: "--files PATH", ours: []string{"--files", "sub"}},
	{name: "-M", ours: []string{"-n", "-M", "100", "TODO"}},
	{name: "-M -o", ours: []string{"-o", "-M", "3", "TODO|run"}},
	// rg counts a line's end (its \n, and a \r before it) in its length,
	// rootbound does not: the -M rows take no line of N bytes.
	{name: "--max-columns-preview", ours: []string{"-n", "-M", "12", "--max-columns-preview", "TODO"}},
	{name: "--max-columns-preview --column", ours: []string{"--column", "-M", "7", "--max-columns-preview", "TODO"}},
	{name: "--max-columns-preview --vimgrep", ours: []string{"--vimgrep", "-M", "5", "--max-columns-preview", "TODO"}},
	{name: "--max-columns-preview -C1", ours: []string{"-n", "-C1", "-M", "4", "--max-columns-preview", "TODO", "c.txt"}},
	{name: "--max-columns-preview --trim", ours: []string{"--trim", "-M", "6", "--max-columns-preview", "TODO", "sub"}},
	{name: "--max-columns-preview --trim, --color always", ours: []string{"--trim", "--color", "always", "-M", "9", "--max-columns-preview", "TODO", "sub"}},
	{name: "--max-columns-preview, no -M", ours: []string{"-n", "--max-columns-preview", "TODO"}},
	{name: "--max-columns-preview, --color always", ours: []string{"--color", "always", "-M", "7", "--max-columns-preview", "TODO|e one"}},
	{name: "--null -l", ours: []string{"--null", "-l", "TODO"}},
	{name: "-0 -n", ours: []string{"-0", "-n", "TODO"}},
	{name: "-q", ours: []string{"-q", "TODO"}},
	{name: "-q, nothing", ours: []string{"-q", "nothing matches this"}},
	{name: "-j", ours: []string{"-j", "2", "-l", "TODO"}},
	{name: "-e twice", ours: []string{"-n", "-e", "alpha", "-e", "sub"}},
	{name: "--color always, piped", ours: []string{"--color", "always", "-n", "TODO"}},
	{name: "-p, piped", ours: []string{"-p", "TODO"}},
	{name: "--stats", ours: []string{"--stats", "TODO"}, stats: true},
	{name: "terminal", ours: []string{"TODO"}, tty: true},
	{name: "terminal, --color never", ours: []string{"--color", "never", "TODO"}, tty: true},
	{name: "terminal, NO_COLOR", ours: []string{"TODO"}, tty: true, env: []string{"TERM=xterm", "NO_COLOR="}},
	{name: "terminal, TERM=dumb", ours: []string{"TODO"}, tty: true, env: []string{"TERM=dumb", "NO_COLOR"}},
	{name: "terminal, no TERM", ours: []string{"TODO"}, tty: true, env: []string{"TERM", "NO_COLOR"}},
	{name: "terminal, TERM=xterm", ours: []string{"TODO"}, tty: true, env: []string{"TERM=xterm", "NO_COLOR"}},
	{name: "terminal, no TERM, --color always", ours: []string{"--color", "always", "TODO"}, tty: true, env: []string{"TERM", "NO_COLOR"}},
	{name: "-p, piped, TERM=xterm", ours: []string{"-p", "TODO"}, env: []string{"TERM=xterm", "NO_COLOR"}},
	{name: "-p, piped, no TERM", ours: []string{"-p", "TODO"}, env: []string{"TERM", "NO_COLOR"}},
	{name: "-p --color never, TERM=xterm", ours: []string{"-p", "--color", "never", "TODO"}, env: []string{"TERM=xterm", "NO_COLOR"}},
	{name: "terminal, --no-heading", ours: []string{"--no-heading", "TODO"}, tty: true},
	{name: "terminal, -N", ours: []string{"-N", "TODO"}, tty: true},
	{name: "terminal, context", ours: []string{"-C1", "TODO"}, tty: true},
	{name: "terminal, one file", ours: []string{"-C1", "TODO", "c.txt"}, tty: true},
	{name: "terminal, -c", ours: []string{"-c", "TODO"}, tty: true},
	{name: "terminal, -l", ours: []string{"-l", "TODO"}, tty: true},
	{name: "terminal, --vimgrep", ours: []string{"--vimgrep", "TODO"}, tty: true},
	{name: "terminal, --column", ours: []string{"--column", "-i", "todo"}, tty: true},
	{name: "terminal, -o", ours: []string{"-o", "TODO\\s\\w+"}, tty: true},
	{name: "-w", ours: []string{"-w", "-n", "TODO"}},
	{name: "-v", ours: []string{"-v", "-n", "TODO", "c.txt"}},
	{name: "-A1", ours: []string{"-A1", "-n", "TODO", "c.txt"}},
	{name: "-B 1", ours: []string{"-B", "1", "-n", "TODO", "c.txt"}},
	{name: "-c", ours: []string{"-c", "TODO"}},
	{name: "--count-matches", ours: []string{"--count-matches", "TODO"}},
	{name: "-l", ours: []string{"-l", "TODO"}},
	{name: "-F", ours: []string{"-F", "-n", "TODO [12]"}},
	{name: "-S", ours: []string{"-S", "-l", "todo"}},
	{name: "-S, an upper-case letter", ours: []string{"-S", "-l", "Todo"}},
	{name: "-t", ours: []string{"-t", "go", "-n", "TODO"}},
	{name: "-T", ours: []string{"-T", "txt", "-l", "TODO"}},
	{name: "--type-list", ours: []string{"--type-list"}},
	{name: "-m", ours: []string{"-m", "1", "-n", "TODO"}},
	{name: "--max-depth", ours: []string{"--max-depth", "1", "-l", "TODO"}},
	{name: "-U", ours: []string{"-U", "-n", "one\\nbeta"}},
	{name: "--crlf", ours: []string{"--crlf", "-n", "TODO$"}},
	{name: "--hidden", ours: []string{"--hidden", "-l", "TODO"}},
	{name: "--no-hidden", ours: []string{"--no-hidden", "-l", "TODO"}},
	{name: "--no-ignore", ours: []string{"--no-ignore", "-l", "TODO"}},
	{name: "--no-ignore-parent", ours: []string{"--no-ignore-parent", "-l", "TODO"}},
	{name: "--files-without-match", ours: []string{"--files-without-match", "TODO"}},
	{name: "--files-without-match -g", ours: []string{"--files-without-match", "-g", "*.txt", "alpha"}},
	{name: "-r", ours: []string{"-r", "DONE", "-n", "TODO"}},
	{name: "-r, a group", ours: []string{"-r", "[$1]", "-n", "TO(DO) (\\w+)"}},
	{name: "-r, a named group, -o", ours: []string{"-o", "--replace=${w}!", "TODO (?P<w>\\w+)"}},
	{name: "-r, empty", ours: []string{"-r", "", "TODO", "a.txt"}},
	{name: "--trim", ours: []string{"--trim", "-n", "TODO"}},
	{name: "--trim --column", ours: []string{"--trim", "--column", "TODO", "sub"}},
	{name: "--trim, context", ours: []string{"--trim", "-A1", "TODO", "sub/ws.txt"}},
	{name: "-f", ours: []string{"-f", "pats", "-n"}},
	{name: "-f -e", ours: []string{"-f", "pats", "-e", "sub", "-l"}},
	{name: "--sortr modified, one directory", ours: []string{"--sortr", "modified", "-l", "TODO", "sub"}},
	{name: "--sort path", ours: []string{"--sort", "path", "-l", "TODO"}},
	{name: "--no-config", ours: []string{"--no-config", "-l", "TODO"}},
}

// TestFlagsAgreeWithRipgrep drives grep through rg's everyday flags, in
// the tree's directory as a person types them, and wants rg's output byte
// for byte (rg run with --no-config --hidden --sort path, our defaults),
// with the same exit status: piped, and on a pseudo-terminal, where rg
// prints headings, line numbers and colours.
func TestFlagsAgreeWithRipgrep(t *testing.T) {
	rg := testtree.Tool(t, "rg")
	dir := flagTree(t)
	t.Chdir(dir)
	t.Setenv("HOME", dir) // no global gitignore
	t.Setenv("XDG_CONFIG_HOME", dir)
	stats := regexp.MustCompile(`(?m)^\d+ (matched lines|files contained matches)$`)
	for _, tt := range rgCases {
		t.Run(tt.name, func(t *testing.T) {
			for _, kv := range tt.env {
				setenv(t, kv)
			}
			theirs := append([]string{"--no-config", "--hidden", "--sort", "path"}, tt.ours...)
			var ours, ref string
			var code, refCode int
			if tt.tty {
				ours = onTerminal(t, func(tty *os.File) {
					code = run(append([]string{"grep"}, tt.ours...), nil, tty, new(bytes.Buffer))
				})
				ref, refCode = commandOnTerminal(t, exec.Command(rg, theirs...))
			} else {
				ours, _, code = rootbound(t, append([]string{"grep"}, tt.ours...)...)
				out, err := exec.Command(rg, theirs...).Output()
				ref, refCode = string(out), exitCode(t, err)
			}
			if tt.stats {
				ours = strings.Join(stats.FindAllString(ours, -1), "\n")
				ref = strings.Join(stats.FindAllString(ref, -1), "\n")
				if ref == "" {
					t.Fatal("rg printed no stats")
				}
			}
			if ours != ref || code != refCode {
				t.Errorf("rootbound grep %s: exit %d, rg exit %d\nours:\n%q\nrg:\n%q", strings.Join(tt.ours, " "), code, refCode, ours, ref)
			}
		})
	}
}

// fdCases are the rows of TestFlagsAgreeWithFd.
var fdCases = []struct {
	name string
	ours []string
	fd   []string
}{
	{name: "pattern", ours: []string{"*.txt"}, fd: []string{"-H", "-t", "f", "-g", "*.txt"}},
	{name: "-t f", ours: []string{"-t", "f", "*"}, fd: []string{"-H", "-t", "f", "-g", "*"}},
	{name: "-t d", ours: []string{"-t", "d", "*"}, fd: []string{"-H", "-t", "d", "-g", "*"}},
	{name: "-t l", ours: []string{"-t", "l", "*"}, fd: []string{"-H", "-t", "l", "-g", "*"}},
	{name: "-t x", ours: []string{"-t", "x", "*"}, fd: []string{"-H", "-t", "x", "-g", "*"}},
	{name: "-t f -t l", ours: []string{"-t", "f", "-t", "l", "*.txt"}, fd: []string{"-H", "-t", "f", "-t", "l", "-g", "*.txt"}},
	{name: "-e", ours: []string{"-e", "txt"}, fd: []string{"-H", "-t", "f", "-e", "txt"}},
	{name: "-e, in another case", ours: []string{"-e", ".TXT"}, fd: []string{"-H", "-t", "f", "-e", ".TXT"}},
	{name: "-e twice, with a pattern", ours: []string{"-e", "go", "-e", "md", "*"}, fd: []string{"-H", "-t", "f", "-e", "go", "-e", "md", "-g", "*"}},
	{name: "-a", ours: []string{"-a", "-e", "go"}, fd: []string{"-H", "-t", "f", "-a", "-e", "go"}},
	{name: "-0", ours: []string{"-0", "-e", "txt"}, fd: []string{"-H", "-t", "f", "-0", "-e", "txt"}},
	{name: "-I", ours: []string{"-I", "*.log"}, fd: []string{"-H", "-t", "f", "-I", "-g", "*.log"}},
	{name: "-u", ours: []string{"-u", "*.log"}, fd: []string{"-u", "-t", "f", "-g", "*.log"}},
	{name: "-H", ours: []string{"-H", "*.txt"}, fd: []string{"-H", "-t", "f", "-g", "*.txt"}},
	{name: "--no-hidden", ours: []string{"--no-hidden", "*.txt"}, fd: []string{"-t", "f", "-g", "*.txt"}},
	{name: "--changed-within", ours: []string{"--changed-within", "1h", "*.txt"}, fd: []string{"-H", "-t", "f", "--changed-within", "1h", "-g", "*.txt"}},
	{name: "-E", ours: []string{"-E", "sub", "*"}, fd: []string{"-H", "-t", "f", "-E", "sub", "-g", "*"}},
	{name: "-d", ours: []string{"-d", "1", "*"}, fd: []string{"-H", "-t", "f", "-d", "1", "-g", "*"}},
	{name: "-i", ours: []string{"-i", "b.*"}, fd: []string{"-H", "-t", "f", "-i", "-g", "b.*"}},
	{name: "-s -g -j", ours: []string{"-s", "-g", "-j", "2", "b.*"}, fd: []string{"-H", "-t", "f", "-s", "-g", "-j", "2", "b.*"}},
	{name: "PATH", ours: []string{"*.go", "sub"}, fd: []string{"-H", "-t", "f", "-g", "*.go", "sub"}},
	{name: "-F", ours: []string{"-F", "."}, fd: []string{"-H", "-t", "f", "-F", "."}},
	{name: "-F, a part of a name", ours: []string{"-F", "b"}, fd: []string{"-H", "-t", "f", "-F", "b"}},
	{name: "-1", ours: []string{"-1", "-F", "b", "sub"}, fd: []string{"-H", "-t", "f", "-1", "-F", "b", "sub"}},
	{name: "-S +", ours: []string{"-S", "+100b"}, fd: []string{"-H", "-t", "f", "-S", "+100b"}},
	{name: "-S -, twice", ours: []string{"-S", "-20b", "-S", "+12b"}, fd: []string{"-H", "-t", "f", "-S", "-20b", "-S", "+12b"}},
	{name: "-S k", ours: []string{"-S", "-1k", "*.txt"}, fd: []string{"-H", "-t", "f", "-S", "-1k", "-g", "*.txt"}},
	{name: "--changed-before", ours: []string{"--changed-before", "45min"}, fd: []string{"-H", "-t", "f", "--changed-before", "45min"}},
	{name: "--min-depth", ours: []string{"--min-depth", "2"}, fd: []string{"-H", "-t", "f", "--min-depth", "2"}},
	{name: "--exact-depth", ours: []string{"--exact-depth", "2", "-t", "d", "*"}, fd: []string{"-H", "--exact-depth", "2", "-t", "d", "-g", "*"}},
	{name: "--strip-cwd-prefix -0", ours: []string{"--strip-cwd-prefix", "-0", "-e", "go"}, fd: []string{"-H", "-t", "f", "--strip-cwd-prefix", "-0", "-e", "go"}},
	{name: "--max-results", ours: []string{"--max-results", "1", "-F", "b", "sub"}, fd: []string{"-H", "-t", "f", "--max-results", "1", "-F", "b", "sub"}},
	{name: "-c never", ours: []string{"-c", "never", "-e", "md"}, fd: []string{"-H", "-t", "f", "-c", "never", "-e", "md"}},
	{name: "-q", ours: []string{"-q", "*.md"}, fd: []string{"-H", "-t", "f", "-q", "-g", "*.md"}},
	{name: "-q, nothing", ours: []string{"-q", "*.none"}, fd: []string{"-H", "-t", "f", "-q", "-g", "*.none"}},
}

// TestFlagsAgreeWithFd drives glob through fd's everyday flags, in the
// tree's directory, and wants the entries fd lists (fd 8.6, -H for our
// default, -t f unless the case says a type; the same order is not asked:
// fd's depends on its threads).
func TestFlagsAgreeWithFd(t *testing.T) {
	fd := testtree.Tool(t, "fdfind")
	dir := flagTree(t)
	t.Chdir(dir)
	t.Setenv("HOME", dir)
	t.Setenv("XDG_CONFIG_HOME", dir)
	for _, tt := range fdCases {
		t.Run(tt.name, func(t *testing.T) {
			ours, errb, code := rootbound(t, append([]string{"glob"}, tt.ours...)...)
			out, err := exec.Command(fd, append([]string{"--color", "never"}, tt.fd...)...).Output()
			fdCode := exitCode(t, err)
			if slices.Contains(tt.ours, "-q") {
				if ours != "" || string(out) != "" || code != fdCode {
					t.Errorf("rootbound glob %s: exit %d, %q; fd exit %d, %q", strings.Join(tt.ours, " "), code, ours, fdCode, out)
				}
				return
			}
			if fdCode != 0 {
				t.Fatalf("fd exit %d", fdCode)
			}
			split := func(s string) []string {
				sep := "\n"
				if slices.Contains(tt.ours, "-0") {
					sep = "\x00"
				}
				l := strings.Split(strings.TrimSuffix(s, sep), sep)
				slices.Sort(l)
				return l
			}
			got, want := split(ours), split(string(out))
			if len(want) == 1 && want[0] == "" {
				t.Fatalf("fd found nothing: a useless comparison")
			}
			if !slices.Equal(got, want) || code != 0 {
				t.Errorf("rootbound glob %s: exit %d (%s)\nours %q\nfd   %q", strings.Join(tt.ours, " "), code, errb, got, want)
			}
		})
	}
}

// TestFlagsRefused: what rootbound does not do is said in one line that
// names the flag as rg's or fd's, or says why (links), with exit status 2.
func TestFlagsRefused(t *testing.T) {
	dir := flagTree(t)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"grep", "-z", "TODO", dir}, "rootbound grep: rg's -z (searching compressed files) is not supported; instead: zcat FILE | rootbound grep PATTERN\n"},
		{[]string{"grep", "-nP", "TODO", dir}, "rootbound grep: rg's -P (PCRE2) is not supported; instead: write the pattern in RE2 syntax"},
		{[]string{"grep", "--sort=modified", "TODO", dir}, "rootbound grep: rg's --sort modified (oldest first) is not supported; instead: --sortr modified"},
		{[]string{"glob", "-x", "echo", "*", dir}, "rootbound glob: fd's -x (running a command per result) is not supported; instead: -0 | xargs -0 -n1 CMD"},
		{[]string{"glob", "--full-path", "*", dir}, "rootbound glob: fd's --full-path (patterns against the full path) is not supported; instead: a pattern with a /"},
		{[]string{"grep", "-L", "TODO", dir}, "rootbound grep: -L/--follow is refused: symbolic links are never followed"},
		{[]string{"glob", "--follow", "*", dir}, "rootbound glob: -L/--follow is refused"},
		{[]string{"grep", "--nonsense", "TODO", dir}, "rootbound grep: unknown flag: --nonsense (rootbound grep --help lists the flags)\n"},
		{[]string{"grep", "--color", "sometimes", "TODO", dir}, `rootbound grep: --color "sometimes", want never, auto or always`},
		{[]string{"glob", "--changed-within", "soon", "*", dir}, `want a length of time such as 10min, 2h, 3d or 1w, not "soon"`},
		{[]string{"glob", "-t", "s", "*", dir}, `want one of d, dir, directory, executable, f, file, l, symlink, x, not "s"`},
		{[]string{"grep", "--column", "-o", "TODO", dir}, "--column and --vimgrep do not go with -o"},
		{[]string{"glob", "-S", "10q", "*", dir}, `want a size such as +10k, -1M or 512b (fd -S: + at least, - at most), not "10q"`},
		{[]string{"grep", "--sortr", "size", "TODO", dir}, `--sortr "size", want modified (newest first)`},
		{[]string{"grep", "-f", "no-such-file", dir}, "rootbound grep: open no-such-file: no such file or directory"},
	} {
		out, errb, code := rootbound(t, tt.args...)
		if code != 2 || out != "" || !strings.Contains(errb, tt.want) || strings.Count(errb, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line holding %q", tt.args, code, out, errb, tt.want)
		}
	}
}

// rgFlags are the 60 flags of rg a user types most, and fdFlags fd's 30:
// TestFlagComparison holds each to rg's or fd's output (a row of the
// oracle tests above uses it) or to a refusal that names what to type
// instead.
var (
	rgFlags = []string{
		"-i", "-s", "-S", "-w", "-x", "-F", "-e", "-f", "-v", "-n", "-N", "-l", "--files-without-match", "-c", "--count-matches",
		"-o", "-A", "-B", "-C", "-g", "--iglob", "-t", "-T", "--type-list", "--type-add", "-u", "--hidden", "-.", "--no-hidden",
		"--no-ignore", "--no-ignore-vcs", "--no-ignore-parent", "-L", "-a", "-H", "-I", "--files", "-m", "--max-depth",
		"--max-filesize", "-M", "--sort", "--sortr", "--json", "--vimgrep", "--column", "--heading", "--no-heading", "-p",
		"--color", "-0", "-q", "-j", "--stats", "-U", "--crlf", "-P", "-r", "--passthru", "-z", "-b", "--trim",
		"--no-messages", "-E", "--include-zero", "--max-columns-preview", "--no-config",
	}
	fdFlags = []string{
		"-H", "-I", "-u", "-s", "-i", "-g", "--regex", "-F", "-a", "-l", "-L", "-p", "-d", "--min-depth", "--exact-depth",
		"-E", "-t", "-e", "-S", "--changed-within", "--changed-before", "-o", "-x", "-X", "-0", "-j", "-1", "--max-results",
		"-q", "--prune", "--base-directory", "--strip-cwd-prefix", "-c", "--no-hidden",
	}
	// ownMeaning are flags rootbound takes with a meaning of its own,
	// said in --help: not held to rg's output.
	ownMeaning = map[string]string{
		"--json": "the protocol's lines, which every host of the module reads, not rg's JSON messages",
	}
)

// TestFlagComparison: of the flags users type most, every one rootbound
// takes is held to rg's or fd's output by a row of the oracle tests, and
// every other is refused in one line that names what to type instead.
func TestFlagComparison(t *testing.T) {
	if len(rgFlags) < 60 || len(fdFlags) < 30 {
		t.Fatalf("%d rg flags, %d fd flags: want 60 and 30", len(rgFlags), len(fdFlags))
	}
	dir := flagTree(t)
	uses := func(rows [][]string, flag string) bool {
		for _, row := range rows {
			for _, a := range row {
				if a == flag || strings.HasPrefix(a, flag+"=") ||
					len(flag) == 2 && len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.HasPrefix(a, flag) {
					return true
				}
			}
		}
		return false
	}
	var rgRows, fdRows [][]string
	for _, c := range rgCases {
		rgRows = append(rgRows, c.ours)
	}
	for _, c := range fdCases {
		fdRows = append(fdRows, c.ours)
	}
	for _, side := range []struct {
		tool  string
		flags []string
		rows  [][]string
	}{{"grep", rgFlags, rgRows}, {"glob", fdFlags, fdRows}} {
		fs, _, _ := searchFlags(side.tool)
		for _, f := range side.flags {
			var taken bool
			if long, ok := strings.CutPrefix(f, "--"); ok {
				taken = fs.Lookup(long) != nil
			} else {
				taken = fs.ShorthandLookup(f[1:]) != nil
			}
			switch {
			case f == "-L":
				// Taken, to be refused: links are never followed.
				_, errb, code := rootbound(t, side.tool, f, "x", dir)
				if code != 2 || !strings.Contains(errb, "; instead: ") || strings.Count(errb, "\n") != 1 {
					t.Errorf("%s %s: exit %d, %q; want a refusal naming what to type instead", side.tool, f, code, errb)
				}
			case taken && ownMeaning[f] != "":
			case taken:
				if !uses(side.rows, f) {
					t.Errorf("%s %s is taken, and no oracle row holds it to %s", side.tool, f, map[string]string{"grep": "rg", "glob": "fd"}[side.tool])
				}
			default:
				args := []string{side.tool, f}
				if !strings.HasPrefix(f, "--no-") && f != "-b" && f != "-z" && f != "-P" && f != "--passthru" && f != "--include-zero" &&
					f != "--regex" && f != "-l" && f != "-p" && f != "--prune" && f != "--no-ignore-vcs" && f != "--no-messages" {
					args = append(args, "VALUE")
				}
				args = append(args, "x", dir)
				out, errb, code := rootbound(t, args...)
				if code != 2 || out != "" || !strings.Contains(errb, "is not supported; instead: ") || strings.Count(errb, "\n") != 1 {
					t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line naming what to type instead", args, code, out, errb)
				}
			}
		}
	}
}

func exitCode(t *testing.T, err error) int {
	t.Helper()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

// setenv sets "K=V", or unsets "K", until t ends.
func setenv(t *testing.T, kv string) {
	k, v, set := strings.Cut(kv, "=")
	t.Setenv(k, v) // restored when t ends
	if !set {
		os.Unsetenv(k)
	}
}
