package main

import (
	"bytes"
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
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

func TestCLI(t *testing.T) {
	dir := testtree.New(t, map[string]string{
		"src/main.go": "package main\nfunc main() {}\n",
		"src/lib.go":  "package main\n// TODO later\n",
		"notes.txt":   "TODO: nothing\n",
	})
	tests := []struct {
		name   string
		args   []string
		stdout string
		code   int
		stderr string
	}{
		{name: "glob", args: []string{"glob", "*.go", dir}, stdout: dir + "/src/lib.go\n" + dir + "/src/main.go\n"},
		{name: "glob none", args: []string{"glob", "*.rs", dir}, code: 1},
		{name: "grep content default", args: []string{"grep", "TODO", dir}, stdout: dir + "/notes.txt:1:TODO: nothing\n" + dir + "/src/lib.go:2:// TODO later\n"},
		{name: "grep flags after args", args: []string{"grep", "todo", dir, "-i", "-l"}, stdout: dir + "/notes.txt\n" + dir + "/src/lib.go\n"},
		{name: "grep count with glob", args: []string{"grep", "-c", "-g", "*.go", "package", dir}, stdout: dir + "/src/lib.go:1\n" + dir + "/src/main.go:1\n"},
		{name: "grep fixed", args: []string{"grep", "-F", "main()", dir}, stdout: dir + "/src/main.go:2:func main() {}\n"},
		{name: "truncated", args: []string{"glob", "--max-results", "1", "*.go", dir}, stdout: dir + "/src/lib.go\n", stderr: "truncated at 1 results"},
		{name: "invalid regex", args: []string{"grep", "(", dir}, code: 2, stderr: "invalid_pattern"},
		{name: "missing dir", args: []string{"glob", "*", filepath.Join(dir, "nope")}, code: 2, stderr: "rootbound:"},
		{name: "no pattern", args: []string{"grep"}, code: 2, stderr: "want PATTERN [PATH]"},
		{name: "unknown command", args: []string{"find"}, code: 2, stderr: "unknown command"},
		{name: "json", args: []string{"glob", "--json", "main.go", dir}, stdout: `{"id":"1","item":{"path":{"text":"src/main.go"}}}` + "\n"},
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
// tree and wants the same files: grep -l against rg -l -uu (no ignore files,
// hidden files searched) with the same size cap, glob against fd -u -t f -g.
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
		{name: "literal", ours: []string{"grep", "-l", "-F", "CanonicalMIMEHeaderKey"}, ref: []string{"rg", "-l", "-uu", "--max-filesize", "8M", "-F", "CanonicalMIMEHeaderKey"}},
		{name: "common literal", ours: []string{"grep", "-l", "-F", "errors.New"}, ref: []string{"rg", "-l", "-uu", "--max-filesize", "8M", "-F", "errors.New"}},
		{name: "regex", ours: []string{"grep", "-l", `func \w+_init\(`}, ref: []string{"rg", "-l", "-uu", "--max-filesize", "8M", `func \w+_init\(`}},
		{name: "regex ignore case", ours: []string{"grep", "-l", "-i", `deadline\s+exceeded`}, ref: []string{"rg", "-l", "-uu", "--max-filesize", "8M", "-i", `deadline\s+exceeded`}},
		{name: "glob", ours: []string{"glob", "*.go"}, ref: []string{"fdfind", "-u", "-t", "f", "-g", "*.go"}},
		{name: "glob path", ours: []string{"glob", "**/testdata/*.txt"}, ref: []string{"fdfind", "-u", "-t", "f", "-p", "-g", "**/testdata/*.txt"}},
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
