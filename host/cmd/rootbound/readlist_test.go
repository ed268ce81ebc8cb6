package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/internal/testtree"
)

// TestReadIsCatN: `rootbound read FILE` prints what cat -n prints, byte
// for byte, for text files of the Go tree (of more than 2,000 lines too,
// which take more than one call); `FILE:A-B` what cat -n | sed -n 'A,Bp'
// prints, `FILE:A` sed -n 'Ap', `FILE:A-` sed -n 'A,$p'; `-n N` the first N lines.
func TestReadIsCatN(t *testing.T) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("go env GOROOT: %v", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	for _, tt := range []struct {
		args []string
		sed  string // the lines of cat -n, as sed -n takes them
	}{
		{args: []string{"go/ast/ast.go"}, sed: "1,$p"},
		{args: []string{"net/http/server.go"}, sed: "1,$p"}, // more than 2,000 lines
		{args: []string{"strings/strings.go:10-25"}, sed: "10,25p"},
		{args: []string{"net/http/server.go:1990-2030"}, sed: "1990,2030p"},
		{args: []string{"net/http/server.go:3000"}, sed: "3000p"},
		{args: []string{"net/http/server.go:3000-"}, sed: "3000,$p"},
		{args: []string{"-n", "7", "go/types/api.go"}, sed: "1,7p"},
		{args: []string{"--offset", "2500", "-n", "2100", "net/http/server.go"}, sed: "2500,4599p"},
	} {
		file := strings.Split(tt.args[len(tt.args)-1], ":")[0]
		want, err := exec.Command("sh", "-c", `cat -n "$1" | sed -n "$2"`, "sh", filepath.Join(src, file), tt.sed).Output()
		if err != nil {
			t.Fatal(err)
		}
		args := append([]string{"read"}, tt.args...)
		args[len(args)-1] = filepath.Join(src, args[len(args)-1])
		stdout, stderr, code := rootbound(t, args...)
		if code != 0 {
			t.Errorf("read %v: exit %d: %s", tt.args, code, stderr)
		}
		if got := []byte(stdout); !bytes.Equal(got, want) {
			t.Errorf("read %v: %d bytes, cat -n | sed -n %s %d: they differ", tt.args, len(got), tt.sed, len(want))
		}
	}
}

// TestLineRange: PATH:A names line A, as grep -n prints a place; PATH:A-B
// lines A to B; PATH:A- A to the end; unless a file of that whole name
// exists. A range that names no line is an error.
func TestLineRange(t *testing.T) {
	dir := t.TempDir()
	odd := filepath.Join(dir, "odd:12")
	if err := os.WriteFile(odd, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		arg         string
		path        string
		first, last int
		err         string
	}{
		{arg: "a.go", path: "a.go"},
		{arg: "a.go:12", path: "a.go", first: 12, last: 12},
		{arg: "a.go:12-", path: "a.go", first: 12},
		{arg: "a.go:12-40", path: "a.go", first: 12, last: 40},
		{arg: "dir/a.go:1-1", path: "dir/a.go", first: 1, last: 1},
		{arg: "a.go:", path: "a.go:"},
		{arg: "a.go:x", path: "a.go:x"},
		{arg: "a.go:-3", path: "a.go:-3"},
		{arg: "a.go:1234567890", path: "a.go:1234567890"}, // past 9 digits: a name
		{arg: "c:12:3", path: "c:12", first: 3, last: 3},
		{arg: odd, path: odd},
		{arg: "a.go:0", err: "a.go:0: lines are numbered from 1"},
		{arg: "a.go:5-2", err: "a.go:5-2: the range ends before it starts (a.go:2-5 reads lines 2 to 5)"},
	} {
		path, first, last, err := lineRange(env{}, tt.arg)
		if path != tt.path || first != tt.first || last != tt.last || fmt.Sprint(err) != map[bool]string{true: "<nil>", false: tt.err}[tt.err == ""] {
			t.Errorf("lineRange(%q) = %q, %d, %d, %v; want %q, %d, %d, %s", tt.arg, path, first, last, err, tt.path, tt.first, tt.last, tt.err)
		}
	}
}

// TestPathLinks: a PATH through a link, at any component, is refused by
// every command, relative or absolute, through the server or not; the
// caller's own directory may be reached through one.
func TestPathLinks(t *testing.T) {
	tree := testtree.New(t, map[string]string{"real/passwd": "root:x\n"})
	outside := testtree.New(t, map[string]string{"passwd": "root:outside\n"})
	for _, l := range [][2]string{{outside, "etcdir"}, {"real", "rl"}, {".", "self"}} {
		if err := os.Symlink(l[0], filepath.Join(tree, l[1])); err != nil {
			t.Skip("no links here:", err)
		}
	}
	for _, tc := range []struct {
		name string
		args []string
		cwd  string // relative to tree
		want string // in stderr, for a refusal; "" for success
	}{
		{name: "read through a link", args: []string{"read", "etcdir/passwd"}, want: "etcdir/passwd: etcdir is a link"},
		{name: "grep a link", args: []string{"grep", "-c", "root", "etcdir"}, want: "etcdir: a link"},
		{name: "list a link", args: []string{"list", "rl"}, want: "rl: a link"},
		{name: "glob under a link", args: []string{"glob", "*", "self/real"}, want: "self/real: self is a link"},
		{name: "absolute", args: []string{"grep", "root", filepath.Join(tree, "etcdir", "passwd")}, want: filepath.Join(tree, "etcdir") + " is a link"},
		{name: "climbing above the directory", args: []string{"grep", "root", "../rl"}, cwd: "real", want: "../rl: a link"},
		{name: "a name that climbs back through no link", args: []string{"grep", "root", "real/../real/passwd"}},
		{name: "the caller's directory reached through a link", args: []string{"grep", "root", "passwd"}, cwd: "rl"},
		{name: "the caller's directory, reached through a link", args: []string{"grep", "root", "."}, cwd: "rl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(filepath.Join(tree, tc.cwd))
			var out, errs bytes.Buffer
			code := run(append(tc.args, "--no-server"), strings.NewReader(""), &out, &errs)
			switch {
			case tc.want == "" && (code != 0 || !strings.Contains(out.String(), "root:x")):
				t.Errorf("exit %d, %q %q; want root:x found", code, out.String(), errs.String())
			case tc.want != "" && (code != 2 || out.Len() != 0 || !strings.Contains(errs.String(), tc.want)):
				t.Errorf("exit %d, %q %q; want exit 2 and %q", code, out.String(), errs.String(), tc.want)
			case strings.Contains(out.String(), "outside"):
				t.Errorf("read outside through a link: %q", out.String())
			}
		})
	}
}

// TestReadRangeSaid: a range past a file's end, or one that names no line,
// is said on stderr, never an empty answer alone.
func TestReadRangeSaid(t *testing.T) {
	tree := testtree.New(t, map[string]string{"three.txt": "a\nb\nc\n"})
	t.Chdir(tree)
	for _, tc := range []struct {
		name   string
		arg    string
		code   int
		stdout string
		stderr string
	}{
		{name: "one line", arg: "three.txt:2", code: 0, stdout: "     2\tb\n"},
		{name: "to the end", arg: "three.txt:2-", code: 0, stdout: "     2\tb\n     3\tc\n"},
		{name: "past the end", arg: "three.txt:500", code: 1, stderr: "three.txt has 3 lines; line 500 is past its end"},
		{name: "backwards", arg: "three.txt:5-2", code: 2, stderr: "the range ends before it starts"},
		{name: "line 0", arg: "three.txt:0", code: 2, stderr: "lines are numbered from 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			code := run([]string{"read", "--no-server", tc.arg}, strings.NewReader(""), &out, &errs)
			if code != tc.code || out.String() != tc.stdout || !strings.Contains(errs.String(), tc.stderr) {
				t.Errorf("exit %d, %q, %q; want %d, %q, %q", code, out.String(), errs.String(), tc.code, tc.stdout, tc.stderr)
			}
		})
	}
}

// TestJSONPathsAsPrinted: --json names a result's path as the command
// prints it (PATH as typed before it), so it works pasted back into a call.
func TestJSONPathsAsPrinted(t *testing.T) {
	tree := testtree.New(t, map[string]string{"sub/dir/a.txt": "root:x\n"})
	t.Chdir(tree)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{name: "grep a directory", args: []string{"grep", "--json", "root", "sub/dir"}},
		{name: "grep a file", args: []string{"grep", "--json", "-c", "root", "sub/dir/a.txt"}},
		{name: "glob", args: []string{"glob", "--json", "*.txt", "sub"}},
		{name: "read", args: []string{"read", "--json", "sub/dir/a.txt"}},
		{name: "list", args: []string{"list", "--json", "-d", "2", "sub"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			if code := run(append(tc.args, "--no-server"), strings.NewReader(""), &out, &errs); code != 0 {
				t.Fatalf("exit %d: %s", code, errs.String())
			}
			items := 0
			for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
				var l struct {
					Item *struct {
						Path struct{ Text string } `json:"path"`
					} `json:"item"`
				}
				if err := json.Unmarshal([]byte(line), &l); err != nil {
					t.Fatalf("%q: %v", line, err)
				}
				if l.Item == nil {
					continue
				}
				items++
				if p := l.Item.Path.Text; !strings.HasPrefix(p, "sub/") {
					t.Errorf("path %q, not as printed (sub/...)", p)
				} else if _, err := os.Lstat(strings.TrimSuffix(p, "/")); err != nil {
					t.Errorf("path %q does not name what it found: %v", p, err)
				}
			}
			if items == 0 {
				t.Error("no items")
			}
		})
	}
}
