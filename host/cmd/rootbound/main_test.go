package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/internal/testtree"
)

func rootbound(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return rootboundIn(t, "", args...)
}

func rootboundIn(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	if throughServer != nil && len(args) > 0 && served(args[0]) {
		code, ok := throughServer(args, &out, &errb)
		if !ok {
			t.Fatalf("%q: the resident server took no call", args)
		}
		return out.String(), errb.String(), code
	}
	var in io.Reader // none, as a terminal or /dev/null is to rg
	if stdin != "" {
		in = strings.NewReader(stdin)
	}
	code = run(args, in, &out, &errb)
	return out.String(), errb.String(), code
}

// throughServer, when set, runs the tests' glob, grep, read and list calls through a
// resident server (TestThroughServer).
var throughServer func(args []string, stdout, stderr io.Writer) (int, bool)

// TestGlobNoPattern: glob with no pattern lists every file, as fd does.
func TestGlobNoPattern(t *testing.T) {
	out, stderr, code := rootbound(t, "glob", "-d", "1")
	if code != 0 || !strings.Contains(out, "main.go\n") || !strings.Contains(out, "main_test.go\n") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

func TestCLI(t *testing.T) {
	dir := testtree.New(t, map[string]string{
		"src/main.go": "package main\nfunc main() {}\n",
		"src/lib.go":  "package main\n// TODO later\n",
		"notes.txt":   "TODO: nothing\n",
		".git/config": "[core]\n",
	})
	big := testtree.New(t, map[string]string{"big.txt": strings.Repeat("x", 2<<20) + "\nneedle\n", "small.txt": "hay\n"})
	odd := testtree.New(t, map[string]string{"ok.txt": "needle\n", "bad\xffname.txt": "needle\n"})
	ignored := testtree.New(t, map[string]string{".gitignore": "*.log\n", "a.go": "TODO\n", "x.log": "TODO\n"})
	tests := []struct {
		name   string
		args   []string
		stdout string
		code   int
		stderr string
	}{
		{name: "glob", args: []string{"glob", "*.go", dir}, stdout: dir + "/src/lib.go\n" + dir + "/src/main.go\n"},
		{name: "glob none", args: []string{"glob", "*.rs", dir}, code: 1},
		{name: "glob of a bare word: a hint for fd's habit", args: []string{"glob", "lib", dir}, code: 1, stderr: `lib is a glob, and matches whole names only (fd's pattern is a regex that matches a part): *lib* finds the names that hold it`},
		{name: "glob of fd's regex: the glob that finds it", args: []string{"glob", `^mai.*\.go$`, dir}, code: 1, stderr: `"^mai.*\\.go$" reads as a regular expression (fd's pattern), and is taken as a glob: mai*.go finds what fd would find with it`},
		{name: "stat of a directory", args: []string{"stat", dir + "/src"}, stdout: dir + "/src/\n"},
		{name: "stat of the working directory", args: []string{"stat", "."}, stdout: "./\n"},
		{name: "stat of a file", args: []string{"stat", dir + "/notes.txt"}, stdout: dir + "/notes.txt (14 bytes, 1 line)\n"},
		{name: "a missing PATH among found ones: the matches, then the error (rg)", args: []string{"grep", "-l", "TODO", dir + "/src", dir + "/nope", dir + "/notes.txt"},
			stdout: dir + "/src/lib.go\n" + dir + "/notes.txt\n", code: 2, stderr: "nope: no such file or directory"},
		{name: "glob -1 (fd): the first result", args: []string{"glob", "-1", "*.go", dir}, stdout: dir + "/src/lib.go\n", stderr: "truncated at 1 result"},
		{name: "grep -. (rg): hidden files, as by default", args: []string{"grep", "-.", "-l", "nothing", dir}, stdout: dir + "/notes.txt\n"},
		{name: "grep content default, piped: no line numbers (rg)", args: []string{"grep", "TODO", dir}, stdout: dir + "/notes.txt:TODO: nothing\n" + dir + "/src/lib.go:// TODO later\n"},
		{name: "grep -n", args: []string{"grep", "-n", "TODO", dir}, stdout: dir + "/notes.txt:1:TODO: nothing\n" + dir + "/src/lib.go:2:// TODO later\n"},
		{name: "grep -n -N: the last wins", args: []string{"grep", "-n", "-N", "TODO", dir}, stdout: dir + "/notes.txt:TODO: nothing\n" + dir + "/src/lib.go:// TODO later\n"},
		{name: "grep flags after args", args: []string{"grep", "todo", dir, "-i", "-l"}, stdout: dir + "/notes.txt\n" + dir + "/src/lib.go\n"},
		{name: "grep count with glob", args: []string{"grep", "-c", "-g", "*.go", "package", dir}, stdout: dir + "/src/lib.go:1\n" + dir + "/src/main.go:1\n"},
		{name: "grep fixed", args: []string{"grep", "-F", "main()", dir}, stdout: dir + "/src/main.go:func main() {}\n"},
		{name: "truncated", args: []string{"glob", "--max-results", "1", "*.go", dir}, stdout: dir + "/src/lib.go\n", stderr: "truncated at 1 result:"},
		{name: "invalid regex", args: []string{"grep", "(", dir}, code: 2, stderr: "invalid_pattern"},
		{name: "missing dir", args: []string{"glob", "*", filepath.Join(dir, "nope")}, code: 2, stderr: "rootbound:"},
		{name: "no pattern", args: []string{"grep"}, code: 2, stderr: "want PATTERN [PATH ...]"},
		{name: "unknown command", args: []string{"find"}, code: 2, stderr: "unknown command"},
		{name: "a typo'd command: the nearest named", args: []string{"gerp", "x"}, code: 2, stderr: `unknown command "gerp"; did you mean grep?`},
		{name: "a typo'd flag: the nearest named", args: []string{"grep", "--ignroe-case", "x", dir}, code: 2, stderr: "unknown flag: --ignroe-case; did you mean --ignore-case?"},
		{name: "a flag like none: none named", args: []string{"grep", "--zzzzzz", "x", dir}, code: 2, stderr: "unknown flag: --zzzzzz (rootbound grep --help"},
		{name: "a PATH in .git: said as given, no root named", args: []string{"read", dir + "/.git/config"}, code: 2, stderr: "rootbound: " + dir + "/.git/config is inside .git, which is never read"},
		{name: "json", args: []string{"glob", "--json", "main.go", dir}, stdout: `{"id":"1","item":{"path":{"text":"` + dir + `/src/main.go"}}}` + "\n"}, // the path as printed
		{name: "bundled short flags", args: []string{"grep", "-il", "todo", dir}, stdout: dir + "/notes.txt\n" + dir + "/src/lib.go\n"},
		{name: "repeated globs, an exclusion last", args: []string{"grep", "-l", "-g", "*.go", "-g", "!lib.go", "package", dir}, stdout: dir + "/src/main.go\n"},
		{name: "an exclusion alone", args: []string{"grep", "-l", "-g", "!*.go", "TODO", dir}, stdout: dir + "/notes.txt\n"},
		{name: "a single file: no path printed (rg)", args: []string{"grep", "TODO", dir + "/notes.txt"}, stdout: "TODO: nothing\n"},
		{name: "a single file, -H", args: []string{"grep", "-H", "TODO", dir + "/notes.txt"}, stdout: dir + "/notes.txt:TODO: nothing\n"},
		{name: "several PATHs", args: []string{"grep", "-n", "TODO", dir + "/src", dir + "/notes.txt"}, stdout: dir + "/src/lib.go:2:// TODO later\n" + dir + "/notes.txt:1:TODO: nothing\n"},
		{name: "a single file globbed", args: []string{"glob", "*.go", dir + "/src/lib.go"}, stdout: dir + "/src/lib.go\n"},
		{name: "a size skip is said", args: []string{"grep", "--max-filesize", "1M", "needle", big}, code: 1, stderr: "1 file over 1 MiB not searched"},
		{name: "a size in bytes, as rg", args: []string{"grep", "--max-filesize", "100", "needle", big}, code: 1, stderr: "1 file over 100 bytes not searched"},
		{name: "a name that is not UTF-8 is searched, and a list to a pipe prints its bytes", args: []string{"grep", "-l", "needle", odd}, stdout: odd + "/bad\xffname.txt\n" + odd + "/ok.txt\n"},
		{name: "a name that is not UTF-8, in lines to a pipe: its bytes, as rg prints them", args: []string{"grep", "needle", odd}, stdout: odd + "/bad\xffname.txt:needle\n" + odd + "/ok.txt:needle\n"},
		{name: "max results 0 is refused", args: []string{"glob", "--max-results", "0", "*", dir}, code: 2, stderr: "--max-results 0, want 1 to"},
		{name: "help on stdout", args: []string{"grep", "--help"}, stdout: "usage: rootbound grep"},
		{name: "version", args: []string{"--version"}, stdout: "rootbound "},
		{name: "type", args: []string{"glob", "--rg-type", "go", "*", dir}, stdout: dir + "/src/lib.go\n" + dir + "/src/main.go\n"},
		{name: "type not", args: []string{"grep", "-l", "-T", "go", "TODO", dir}, stdout: dir + "/notes.txt\n"},
		{name: "unknown type", args: []string{"glob", "--rg-type", "golang", "*", dir}, code: 2, stderr: `unknown file type "golang"`},
		{name: "type list", args: []string{"glob", "--type-list"}, stdout: "agda: *.agda, *.lagda\n"},
		{name: "exclude", args: []string{"glob", "-E", "lib.go", "*.go", dir}, stdout: dir + "/src/main.go\n"},
		{name: "include dirs", args: []string{"glob", "--include-dirs", "s*", dir}, stdout: dir + "/src/\n"},
		{name: "max depth", args: []string{"glob", "-d", "1", "*", dir}, stdout: dir + "/notes.txt\n"},
		{name: "ignore-case glob", args: []string{"glob", "-i", "NOTES.*", dir}, stdout: dir + "/notes.txt\n"},
		{name: "bad sort", args: []string{"glob", "--sort", "size", "*", dir}, code: 2, stderr: "want one of mtime, none, path"},
		{name: "ignored, found: not said (rg)", args: []string{"glob", "*", ignored}, stdout: ignored + "/.gitignore\n" + ignored + "/a.go\n"},
		{name: "ignored, nothing found: said", args: []string{"glob", "*.log", ignored}, code: 1, stderr: "1 path left out by ignore files (--no-ignore includes them)"},
		{name: "no ignore", args: []string{"glob", "--no-ignore", "*.log", ignored}, stdout: ignored + "/x.log\n"},
		{name: "no hidden", args: []string{"glob", "--no-hidden", ".git*", ignored}, code: 1, stderr: "1 hidden path left out"},
		{name: "an ignored path named", args: []string{"grep", "-l", "TODO", ignored + "/x.log"}, stdout: ignored + "/x.log\n", stderr: `is ignored (.gitignore:1 "*.log"), searched because it was named`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errb, code := rootbound(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, errb)
			}
			if tt.name == "json" {
				if !strings.HasPrefix(out, tt.stdout) || !strings.Contains(out, `"done":{"status":"complete"`) {
					t.Errorf("stdout %q", out)
				}
			} else if tt.name == "help on stdout" || tt.name == "version" || tt.name == "type list" {
				if !strings.HasPrefix(out, tt.stdout) {
					t.Errorf("stdout %q, want it to start with %q", out, tt.stdout)
				}
			} else if out != tt.stdout {
				t.Errorf("stdout:\n%s\nwant:\n%s", out, tt.stdout)
			}
			if !strings.Contains(errb, tt.stderr) {
				t.Errorf("stderr %q, want it to contain %q", errb, tt.stderr)
			}
		})
	}
}

// TestAgreesWithRipgrepAndFd runs the same searches as rg and fd over the Go
// tree and wants the same files: grep -l against rg -l --hidden
// --no-require-git (ignore files read, in a repository or not; hidden files
// searched) with the same size cap, glob against fd -H -t f -g.
// It runs where ROOTBOUND_COMPARE is set (make test sets it and installs rg
// and fd); elsewhere it skips when they are missing.
func TestAgreesWithRipgrepAndFd(t *testing.T) {
	for _, tool := range []string{"rg", "fdfind"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("ROOTBOUND_COMPARE") != "" {
				t.Fatalf("%s is not installed (make tools)", tool)
			}
			t.Skipf("%s is not installed", tool)
		}
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(strings.TrimSpace(string(goroot)), "src")
	tests := []struct {
		name string
		ours []string
		ref  []string
	}{
		{name: "literal", ours: []string{"grep", "-l", "-F", "CanonicalMIMEHeaderKey"}, ref: []string{"rg", "-l", "--hidden", "--no-require-git", "--max-filesize", "8M", "-F", "CanonicalMIMEHeaderKey"}},
		{name: "common literal", ours: []string{"grep", "-l", "-F", "errors.New"}, ref: []string{"rg", "-l", "--hidden", "--no-require-git", "--max-filesize", "8M", "-F", "errors.New"}},
		{name: "regex", ours: []string{"grep", "-l", `func \w+_init\(`}, ref: []string{"rg", "-l", "--hidden", "--no-require-git", "--max-filesize", "8M", `func \w+_init\(`}},
		{name: "regex ignore case", ours: []string{"grep", "-l", "-i", `deadline\s+exceeded`}, ref: []string{"rg", "-l", "--hidden", "--no-require-git", "--max-filesize", "8M", "-i", `deadline\s+exceeded`}},
		{name: "glob", ours: []string{"glob", "*.go"}, ref: []string{"fdfind", "-H", "-t", "f", "-g", "*.go"}},
		{name: "glob path", ours: []string{"glob", "**/testdata/*.txt"}, ref: []string{"fdfind", "-H", "-t", "f", "-p", "-g", "**/testdata/*.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errb, code := rootbound(t, append(tt.ours, src)...)
			if code != 0 {
				t.Fatalf("rootbound: exit %d: %s", code, errb)
			}
			out = strings.ReplaceAll(out, src+"/", "")
			cmd := exec.Command(tt.ref[0], tt.ref[1:]...)
			cmd.Dir = src
			refOut, err := cmd.Output()
			if err != nil && len(refOut) == 0 {
				t.Fatalf("%s: %v", tt.ref[0], err)
			}
			got, want := sorted(out), sorted(string(refOut))
			if len(want) == 0 {
				t.Fatal("the reference found nothing: a useless comparison")
			}
			if !slices.Equal(got, want) {
				t.Errorf("%d files, %s found %d; only ours: %q; only theirs: %q",
					len(got), tt.ref[0], len(want), minus(got, want), minus(want, got))
			}
		})
	}
}

// TestIgnoreAgreesWithRipgrepAndFd: on a repository with ignore files at
// several levels, negations, anchors and directory rules, `rootbound glob
// '*'` lists what fd -H lists and `rootbound grep -l` what rg --hidden
// --no-require-git -l lists (.git aside), and both say what they left out.
func TestIgnoreAgreesWithRipgrepAndFd(t *testing.T) {
	rg, fd := testtree.Tool(t, "rg"), testtree.Tool(t, "fdfind")
	dir := testtree.New(t, map[string]string{
		".git/info/exclude":    "*.swp\n",
		".gitignore":           "node_modules/\nbuild/\n*.log\n*.min.js\n!keep.log\n/dist\n**/tmp/**\n",
		".ignore":              "!build/\nbuild/*.o\n",
		"src/.gitignore":       "gen/\n!*.min.js\n",
		"src/.ignore":          "*.bak\n",
		"src/a.go":             "needle\n",
		"src/a.min.js":         "needle\n",
		"src/x.bak":            "needle\n",
		"src/gen/g.go":         "needle\n",
		"src/tmp/t.go":         "needle\n",
		"src/dist/d.go":        "needle\n",
		"dist/d.js":            "needle\n",
		"build/out.txt":        "needle\n",
		"build/out.o":          "needle\n",
		"node_modules/p/i.js":  "needle\n",
		"app.log":              "needle\n",
		"keep.log":             "needle\n",
		"app.min.js":           "needle\n",
		"notes.swp":            "needle\n",
		".env.example":         "needle\n",
		".github/workflows/ci": "needle\n",
	})
	env := append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir)
	t.Setenv("HOME", dir)
	t.Setenv("XDG_CONFIG_HOME", dir)
	for _, tt := range []struct {
		name string
		ours []string
		ref  []string
	}{
		{name: "glob", ours: []string{"glob", "*", dir}, ref: []string{fd, "-H", "-E", ".git", "-t", "f"}},
		{name: "grep -l", ours: []string{"grep", "-l", "needle", dir}, ref: []string{rg, "--no-config", "--hidden", "--no-require-git", "-g", "!.git", "-l", "needle"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errb, code := rootbound(t, tt.ours...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errb)
			}
			if errb != "" {
				t.Errorf("something was found, and stderr says more: %q", errb)
			}
			cmd := exec.Command(tt.ref[0], tt.ref[1:]...)
			cmd.Dir, cmd.Env = dir, env
			ref, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			got, want := sorted(strings.ReplaceAll(out, dir+"/", "")), sorted(string(ref))
			if !slices.Equal(got, want) {
				t.Errorf("ours %q\n%s  %q", got, tt.ref[0], want)
			}
		})
	}
}

func sorted(s string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if l != "" {
			out = append(out, strings.TrimPrefix(l, "./"))
		}
	}
	slices.Sort(out)
	return out
}

func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if _, found := slices.BinarySearch(b, x); !found {
			out = append(out, x)
			if len(out) == 5 {
				break
			}
		}
	}
	return out
}

// TestServe speaks the protocol through `rootbound serve`: answers come in
// order, as the module writes them, and bad lines get typed errors.
func TestServe(t *testing.T) {
	dir := testtree.New(t, map[string]string{"a.go": "package a\n"})
	in := `{"v":1,"id":"1","glob":{"pattern":"*.go"}}` + "\n\nnot json\n" + `{"v":1,"id":"2","grep":{"pattern":"package","output_mode":"count"}}` + "\n"
	out, errb, code := rootboundIn(t, in, "serve", "--root", "/workspace="+dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	want := []string{
		`{"id":"1","item":{"path":{"text":"a.go"}}}`,
		`{"id":"1","done":{"status":"complete"`,
		`{"id":"","done":{"status":"failed","error":{"code":"invalid_argument"`,
		`{"id":"2","item":{"path":{"text":"a.go"},"count":1}}`,
		`{"id":"2","done":{"status":"complete"`,
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, want[i]) {
			t.Errorf("line %d: %s\nwant it to start with %s", i+1, l, want[i])
		}
	}
	if _, errb, code := rootbound(t, "serve"); code != 2 || !strings.Contains(errb, "--root") {
		t.Errorf("serve without roots: exit %d, %q", code, errb)
	}
}

// TestNearest: a typo is matched to the name it most likely meant, and
// nothing is suggested for a word like no name.
func TestNearest(t *testing.T) {
	names := []string{"grep", "glob", "read", "list", "stat", "ignore-case", "context", "hidden"}
	for _, tc := range []struct{ typo, want string }{
		{typo: "gerp", want: "grep"},
		{typo: "globb", want: "glob"},
		{typo: "lsit", want: "list"},
		{typo: "ignroe-case", want: "ignore-case"},
		{typo: "conext", want: "context"},
		{typo: "hiden", want: "hidden"},
		{typo: "xyz", want: ""},
		{typo: "ls", want: ""},
		{typo: "grepper-foo", want: ""},
	} {
		if got := nearest(tc.typo, names); got != tc.want {
			t.Errorf("nearest(%q) = %q, want %q", tc.typo, got, tc.want)
		}
	}
}
