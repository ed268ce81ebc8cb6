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
	})
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
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
	tests := []struct {
		name  string
		ours  []string
		rg    []string // nil: the same flags
		tty   bool
		stats bool // compare only rg's --stats lines both can count
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
		{name: "terminal, --no-heading", ours: []string{"--no-heading", "TODO"}, tty: true},
		{name: "terminal, -N", ours: []string{"-N", "TODO"}, tty: true},
		{name: "terminal, context", ours: []string{"-C1", "TODO"}, tty: true},
		{name: "terminal, one file", ours: []string{"-C1", "TODO", "c.txt"}, tty: true},
		{name: "terminal, -c", ours: []string{"-c", "TODO"}, tty: true},
		{name: "terminal, -l", ours: []string{"-l", "TODO"}, tty: true},
		{name: "terminal, --vimgrep", ours: []string{"--vimgrep", "TODO"}, tty: true},
		{name: "terminal, --column", ours: []string{"--column", "-i", "todo"}, tty: true},
		{name: "terminal, -o", ours: []string{"-o", "TODO\\s\\w+"}, tty: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
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
	tests := []struct {
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ours, errb, code := rootbound(t, append([]string{"glob"}, tt.ours...)...)
			out, err := exec.Command(fd, append([]string{"--color", "never"}, tt.fd...)...).Output()
			if code := exitCode(t, err); code != 0 {
				t.Fatalf("fd exit %d", code)
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
		{[]string{"grep", "-z", "TODO", dir}, "rootbound grep: rg's -z (searching compressed files) is not supported (rootbound grep --help lists the flags)\n"},
		{[]string{"grep", "-nP", "TODO", dir}, "rootbound grep: rg's -P (PCRE2 (RE2 syntax is taken)) is not supported"},
		{[]string{"grep", "--replace=x", "TODO", dir}, "rootbound grep: rg's --replace (replacements (rootbound never writes)) is not supported"},
		{[]string{"glob", "-x", "echo", "*", dir}, "rootbound glob: fd's -x (running a command (rootbound runs none)) is not supported"},
		{[]string{"glob", "--size", "+1k", "*", dir}, "rootbound glob: fd's --size (sizes) is not supported"},
		{[]string{"grep", "-L", "TODO", dir}, "rootbound grep: -L/--follow is refused: symbolic links are never followed"},
		{[]string{"glob", "--follow", "*", dir}, "rootbound glob: -L/--follow is refused"},
		{[]string{"grep", "--nonsense", "TODO", dir}, "rootbound grep: unknown flag: --nonsense (rootbound grep --help lists the flags)\n"},
		{[]string{"grep", "--color", "sometimes", "TODO", dir}, `rootbound grep: --color "sometimes", want never, auto or always`},
		{[]string{"glob", "--changed-within", "soon", "*", dir}, `want a length of time such as 10min, 2h, 3d or 1w, not "soon"`},
		{[]string{"glob", "-t", "s", "*", dir}, `want one of d, dir, directory, executable, f, file, l, symlink, x, not "s"`},
		{[]string{"grep", "--column", "-o", "TODO", dir}, "--column and --vimgrep do not go with -o"},
	} {
		out, errb, code := rootbound(t, tt.args...)
		if code != 2 || out != "" || !strings.Contains(errb, tt.want) || strings.Count(errb, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line holding %q", tt.args, code, out, errb, tt.want)
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
