package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/protocol"
)

// needTool returns the path of a program a test runs, skipping the test
// when it is missing, unless make test runs it (ROOTBOUND_COMPARE=1, after
// make tools installed it): then a missing program fails the test.
func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("ROOTBOUND_COMPARE") != "" {
			t.Fatalf("%s is not installed (make tools installs it)", name)
		}
		t.Skipf("%s is not installed (make tools installs it)", name)
	}
	return p
}

// helpFlags returns the long flags a subcommand's --help lists.
func helpFlags(t *testing.T, cmd string) []string {
	t.Helper()
	out, _, code := rootbound(t, cmd, "--help")
	if code != 0 {
		t.Fatalf("%s --help: exit %d", cmd, code)
	}
	var flags []string
	for _, m := range regexp.MustCompile(`(?m)^\s+(?:-\S, )?--([a-z0-9-]+)`).FindAllStringSubmatch(out, -1) {
		flags = append(flags, m[1])
	}
	if len(flags) == 0 {
		t.Fatalf("%s --help lists no flag:\n%s", cmd, out)
	}
	return flags
}

// flagged are the subcommands that take flags: every tool's, serve and mcp.
var flagged = append(slices.Clone(protocol.ToolNames), "serve", "mcp")

// TestVersionEverywhere: every build says VERSION's version (a test's
// build too, which the linker stamps nothing into), with its VCS revision
// when it knows one, after every command and as -V.
func TestVersionEverywhere(t *testing.T) {
	b, err := os.ReadFile("../../../VERSION")
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := rootbound(t, "version")
	v := regexp.QuoteMeta(strings.TrimSpace(string(b)))
	if !regexp.MustCompile(`^rootbound ` + v + `(\+[0-9a-f]{12}(\.dirty)?)? \(protocol 1, module sha256 [0-9a-f]{12}\)\n$`).MatchString(want) {
		t.Fatalf("version = %q, want VERSION's %s", want, b)
	}
	for _, cmd := range append(slices.Clone(flagged), "completion", "man") {
		for _, flag := range []string{"--version", "-V"} {
			got, stderr, code := rootbound(t, cmd, flag)
			if code != 0 || got != want {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want %q", cmd, flag, code, got, stderr, want)
			}
		}
	}
}

func TestVersionFile(t *testing.T) {
	b, err := os.ReadFile("../../../VERSION")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?\n$`).Match(b) {
		t.Fatalf("VERSION = %q, want a semantic version and a newline", b)
	}
}

func TestManPage(t *testing.T) {
	groff := needTool(t, "groff")
	page, _, code := rootbound(t, "man")
	if code != 0 {
		t.Fatalf("man: exit %d", code)
	}
	cmd := exec.Command(groff, "-man", "-ww", "-z", "-Tutf8")
	cmd.Stdin = strings.NewReader(page)
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Fatalf("groff -ww: %v\n%s", err, out)
	}
	// Every flag --help lists is in the page, in its section.
	for _, c := range flagged {
		i := strings.Index(page, ".SS rootbound "+c+"\n")
		if i < 0 {
			t.Fatalf("no section for %s", c)
		}
		section := page[i+1:]
		if j := strings.Index(section, "\n.SS "); j >= 0 {
			section = section[:j]
		}
		for _, f := range helpFlags(t, c) {
			if !strings.Contains(section, `\fB\-\-`+strings.ReplaceAll(f, "-", `\-`)+`\fR`) {
				t.Errorf("man: %s's --%s is missing", c, f)
			}
		}
	}
}

func TestCompletions(t *testing.T) {
	// What a shell offers after these words, as each shell completes them.
	tests := []struct {
		name  string
		words []string // the last is the word being completed
		want  []string
		not   []string
	}{
		{name: "commands", words: []string{"gr"}, want: []string{"grep"}, not: []string{"glob"}},
		{name: "grep's flags from the table of options", words: []string{"grep", "--max-c"}, want: []string{"--max-count", "--max-columns"}},
		{name: "the command's own flags", words: []string{"glob", "--no-se"}, want: []string{"--no-server"}},
		{name: "an enum's values", words: []string{"grep", "--sort", ""}, want: []string{"path", "mtime"}},
		{name: "fd's -t letters", words: []string{"glob", "-t", ""}, want: []string{"f", "d", "l", "x"}},
		{name: "no flag of another command", words: []string{"read", "--max-c"}, not: []string{"--max-count"}},
		{name: "shells", words: []string{"completion", ""}, want: []string{"bash", "zsh", "fish"}},
	}
	dir := t.TempDir()
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			sh := needTool(t, shell)
			script, _, code := rootbound(t, "completion", shell)
			if code != 0 {
				t.Fatalf("completion %s: exit %d", shell, code)
			}
			file := filepath.Join(dir, "rootbound."+shell)
			if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, tt := range tests {
				got := complete(t, sh, shell, file, tt.words)
				for _, w := range tt.want {
					if !slices.Contains(got, w) {
						t.Errorf("%s: %q: want %q among %q", tt.name, tt.words, w, got)
					}
				}
				for _, w := range tt.not {
					if slices.Contains(got, w) {
						t.Errorf("%s: %q: %q offered: %q", tt.name, tt.words, w, got)
					}
				}
			}
		})
	}
}

// complete returns what the shell offers to complete words after
// "rootbound". bash and fish complete for real; zsh's _arguments is
// stood in for by a function that prints its specs, and the words offered
// are the flags and values those specs name.
func complete(t *testing.T, sh, shell, file string, words []string) []string {
	t.Helper()
	var script string
	switch shell {
	case "bash":
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = "'" + w + "'"
		}
		script = "source '" + file + "'\nCOMP_WORDS=(rootbound " + strings.Join(quoted, " ") + ")\nCOMP_CWORD=" +
			strings.Repeat("1+", len(words)-1) + "1\n_rootbound\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
	case "fish":
		script = "source '" + file + "'\ncomplete -C 'rootbound " + strings.Join(words, " ") + "' | string replace -r '\\t.*' ''; true\n"
	case "zsh":
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = "'" + w + "'"
		}
		script = "compdef() { :; }\n_describe() { print -l -- ${(P)2%%:*}; }\n" +
			"_arguments() { local s; for s in \"$@\"; do case $s in\n" +
			"  *'('*')') print -l -- ${(s: :)${${s##*\\(}%\\)}} ;;\n" +
			"esac; print -l -- ${s%%\\[*}; done; }\n" +
			"source '" + file + "'\nwords=(rootbound " + strings.Join(quoted, " ") + ")\nCURRENT=" + strconv.Itoa(len(words)+1) + "\n_rootbound\n"
	}
	out, err := exec.Command(sh, "-c", script).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", shell, err, out)
	}
	all := strings.Fields(string(out))
	if shell != "zsh" {
		return all
	}
	// zsh: the stand-ins print every candidate; keep those that complete
	// the last word, as zsh would, and for a flag's value only its values.
	last := words[len(words)-1]
	var got []string
	for _, w := range all {
		if strings.HasPrefix(w, last) {
			got = append(got, w)
		}
	}
	return got
}
