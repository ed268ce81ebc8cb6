package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/host/internal/escape"
	"github.com/rootbound/rootbound/internal/options"
	"github.com/rootbound/rootbound/internal/testtree"
)

// TestGrepOptionsAgreeWithRipgrep runs (pattern, options) pairs over the
// Go tree and a tricky tree (CRLF, byte order marks, UTF-16, Unicode words,
// long lines: the conformance case grep-options) with rootbound grep and
// with rg, and wants the same output, line for line and in order, with
// the same exit code. rg runs as `rg --no-config --hidden --no-require-git
// -g '!.git' --sort path -n -H --no-heading --color never --max-filesize
// 8M`, with the pair's flags. The normalisation:
//   - our -U is rg's -U --multiline-dotall ("." matches a line break);
//   - rg prints the '\r' that ends a CRLF line; we never do;
//   - rg's text is escaped as ours is (package escape: control characters);
//   - where we cut a long line to a snippet ("…"), only the path and line
//     number are compared.
func TestGrepOptionsAgreeWithRipgrep(t *testing.T) {
	rg := testtree.Tool(t, "rg")
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(strings.TrimSpace(string(goroot)), "src")
	raw, err := os.ReadFile("../../../testdata/conformance/grep-options/tree.json")
	if err != nil {
		t.Fatal(err)
	}
	var tc struct {
		Tree map[string]testtree.Entry `json:"tree"`
	}
	if err := json.Unmarshal(raw, &tc); err != nil {
		t.Fatal(err)
	}
	tricky := t.TempDir()
	testtree.WriteEntries(t, tricky, tc.Tree)

	tests := []struct {
		name  string
		dir   string // below src or tricky
		tree  string // "go" or "tricky"
		flags []string
		// patterns: one is the PATTERN argument; more are -e each.
		patterns []string
	}{
		{name: "context", tree: "go", dir: "strings", flags: []string{"-C", "2"}, patterns: []string{"func NewReplacer"}},
		{name: "after", tree: "go", dir: "context", flags: []string{"-A", "3"}, patterns: []string{"deadline exceeded"}},
		{name: "before word", tree: "go", dir: "io", flags: []string{"-B", "2", "-w"}, patterns: []string{"ErrShortWrite"}},
		{name: "multiline", tree: "go", dir: "strings", flags: []string{"-U"}, patterns: []string{`func \(b \*Builder\) Grow\(n int\) \{\n\s+b.copyCheck`}},
		{name: "multiline count", tree: "go", dir: "strings", flags: []string{"-U", "-c"}, patterns: []string{`import \(\n`}},
		{name: "max count", tree: "go", dir: "strings", flags: []string{"-m", "1"}, patterns: []string{"func "}},
		{name: "several patterns", tree: "go", dir: "net/http", flags: []string{"-l"}, patterns: []string{`TODO\(`, "FIXME"}},
		{name: "only matching", tree: "go", dir: "net/http", flags: []string{"-o"}, patterns: []string{`\bhttp\.Status\w+`}},
		{name: "invert count", tree: "go", dir: "strings", flags: []string{"-v", "-c"}, patterns: []string{"e"}},
		{name: "count", tree: "go", dir: "strings", flags: []string{"-c"}, patterns: []string{"return"}},
		{name: "count matches", tree: "go", dir: "os", flags: []string{"--count-matches"}, patterns: []string{"err"}},
		{name: "word ignore case", tree: "go", dir: "unicode/utf8", flags: []string{"-w", "-i"}, patterns: []string{"utf8"}},
		{name: "unicode letters", tree: "go", dir: "unicode", flags: []string{"-o"}, patterns: []string{`\p{Greek}+`}},
		{name: "unicode boundary", tree: "go", dir: "image", patterns: []string{`\bΣ`}},
		{name: "unicode word", tree: "go", dir: "strings", flags: []string{"-o"}, patterns: []string{`\w*ö\w*`}},
		{name: "literal only matching", tree: "go", dir: "io", flags: []string{"-F", "-o"}, patterns: []string{"errors.New"}},
		{name: "word context", tree: "go", dir: "strings", flags: []string{"-w", "-C", "1"}, patterns: []string{"Builder"}},
		{name: "whole tree", tree: "go", flags: []string{"-C", "1"}, patterns: []string{"CanonicalMIMEHeaderKey"}},

		{name: "tricky context", tree: "tricky", flags: []string{"-C", "2"}, patterns: []string{"TODO"}},
		{name: "tricky after", tree: "tricky", flags: []string{"-A", "3"}, patterns: []string{"TODO"}},
		{name: "tricky before", tree: "tricky", flags: []string{"-B", "1"}, patterns: []string{"TODO"}},
		{name: "tricky overlap", tree: "tricky", flags: []string{"-C", "2"}, patterns: []string{"line (1[0-5]|2[02])$"}},
		{name: "tricky multiline", tree: "tricky", flags: []string{"-U"}, patterns: []string{`func Add\(.*\n.*\) int`}},
		{name: "tricky multiline context", tree: "tricky", flags: []string{"-U", "-C", "1"}, patterns: []string{`Name.*\n.*Size`}},
		{name: "tricky max count", tree: "tricky", flags: []string{"-m", "2"}, patterns: []string{"line"}},
		{name: "tricky word", tree: "tricky", flags: []string{"-w"}, patterns: []string{"err"}},
		{name: "tricky word ignore case", tree: "tricky", flags: []string{"-w", "-i"}, patterns: []string{"ERR"}},
		{name: "tricky patterns", tree: "tricky", patterns: []string{"TODO", "Size", "Straße"}},
		{name: "tricky invert", tree: "tricky", dir: "words.txt", flags: []string{"-v"}, patterns: []string{"[a-z]"}},
		{name: "tricky only matching", tree: "tricky", dir: "code.go", flags: []string{"-o"}, patterns: []string{"[A-Z][a-z]+"}},
		{name: "tricky only matching unicode", tree: "tricky", dir: "words.txt", flags: []string{"-o"}, patterns: []string{`\w+`}},
		{name: "tricky crlf", tree: "tricky", flags: []string{"--crlf"}, patterns: []string{"beta;$"}},
		{name: "tricky no crlf", tree: "tricky", patterns: []string{"beta;$"}},
		{name: "tricky crlf shown", tree: "tricky", patterns: []string{"a;"}},
		{name: "tricky unicode line", tree: "tricky", patterns: []string{`^\w+$`}},
		{name: "tricky unicode boundary", tree: "tricky", patterns: []string{`\bΣ`}},
		{name: "tricky ascii line", tree: "tricky", patterns: []string{`(?-u)^\w+$`}},
		{name: "tricky utf16", tree: "tricky", patterns: []string{"hello"}},
		{name: "tricky bom", tree: "tricky", patterns: []string{"^(big )?hello"}},
		{name: "tricky count matches", tree: "tricky", flags: []string{"--count-matches"}, patterns: []string{"o"}},
		{name: "tricky count", tree: "tricky", flags: []string{"-c"}, patterns: []string{"o"}},
		{name: "tricky long line", tree: "tricky", patterns: []string{"NEEDLE"}},
		{name: "tricky only matching long line", tree: "tricky", flags: []string{"-o"}, patterns: []string{"NEEDLE"}},
		{name: "tricky max columns", tree: "tricky", flags: []string{"-M", "40", "-C", "1"}, patterns: []string{"NEEDLE|TODO"}},
		{name: "max columns", tree: "go", dir: "unicode", flags: []string{"-M", "28"}, patterns: []string{"0x1F"}},
		{name: "max columns only matching", tree: "go", dir: "unicode", flags: []string{"-M", "20", "-o"}, patterns: []string{"0x1F6[0-9A-F]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := tricky
			if tt.tree == "go" {
				root = src
			}
			path := root
			if tt.dir != "" {
				path = filepath.Join(root, filepath.FromSlash(tt.dir))
			}
			ours := append([]string{"grep", "-n", "-H"}, tt.flags...)
			theirs := []string{"--no-config", "--hidden", "--no-require-git", "-g", "!.git", "--sort", "path", "-n", "-H",
				"--no-heading", "--color", "never", "--max-filesize", "8M"}
			for _, f := range tt.flags {
				theirs = append(theirs, f)
				if f == "-U" {
					theirs = append(theirs, "--multiline-dotall")
				}
			}
			if len(tt.patterns) == 1 {
				ours = append(ours, tt.patterns[0])
			} else {
				for _, p := range tt.patterns {
					ours = append(ours, "-e", p)
				}
			}
			for _, p := range tt.patterns {
				theirs = append(theirs, "-e", p)
			}
			ours = append(ours, path)
			theirs = append(theirs, "--", path)

			out, errb, code := rootbound(t, ours...)
			if code == 2 {
				t.Fatalf("rootbound: exit 2: %s", errb)
			}
			cmd := exec.Command(rg, theirs...)
			refOut, err := cmd.Output()
			refCode := 0
			if ee, ok := err.(*exec.ExitError); ok {
				refCode = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != refCode {
				t.Errorf("exit %d, rg exit %d", code, refCode)
			}
			got, want := strings.Split(out, "\n"), strings.Split(string(refOut), "\n")
			for i := range want {
				want[i] = rgLine(strings.TrimSuffix(want[i], "\r"))
			}
			if len(got) != len(want) {
				t.Errorf("%d lines, rg %d", len(got), len(want))
			}
			for i := range min(len(got), len(want)) {
				g, w := got[i], want[i]
				if strings.Contains(g, "…") {
					g, w = lineKey(g), lineKey(w)
				}
				if g != w {
					t.Errorf("line %d:\nours %q\nrg   %q", i+1, got[i], want[i])
					break
				}
			}
			if tt.tree == "go" && refCode != 0 {
				t.Errorf("rg found nothing: a useless comparison")
			}
		})
	}
}

// rgLine escapes the text of an rg output line (after path:N: or path-N-)
// as ours is.
func rgLine(l string) string {
	k := lineKey(l)
	if k == l {
		return l
	}
	return k + escape.Line(l[len(k):])
}

// lineKey is a line's path and line number with their separators, or the
// line itself when it has none (a count, "--").
func lineKey(l string) string {
	for i := 0; i < len(l); i++ {
		if l[i] != ':' && l[i] != '-' {
			continue
		}
		j := i + 1
		for j < len(l) && '0' <= l[j] && l[j] <= '9' {
			j++
		}
		if j > i+1 && j < len(l) && l[j] == l[i] {
			return l[:j+1]
		}
	}
	return l
}

// TestCommandFlagsBound: every row of options.CommandFlags a subcommand
// takes is one of its flags, bound to a setting of the command's; a
// refused one is not, unless only a value of it is refused.
func TestCommandFlagsBound(t *testing.T) {
	for _, tool := range options.All {
		fs := newFlags(options.Names[tool])
		bindOptions(fs, tool)
		bindCommand(fs, tool, new(commandFlags)) // panics on a setting it lacks
		for _, f := range options.CommandFlagsFor(tool) {
			bound := f.Long != "" && fs.Lookup(f.Long) != nil || f.Long == "" && fs.ShorthandLookup(f.Short) != nil
			// A refused value is of a flag that is bound ("--sort modified").
			if want := f.Effect != options.Refused || f.Value != ""; bound != want {
				t.Errorf("%s: --%s -%s (%v): bound %v", options.Names[tool], f.Long, f.Short, f.Effect, bound)
			}
		}
	}
}
