package main

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// hostileNames returns n distinct file names made of what breaks
// pipelines and forges output: newlines, controls, escapes, bytes that are
// not UTF-8, colons, "-N-", dashes that are not "-", quotes, backslashes,
// spaces at either end, shell and glob characters, bidi and invisible
// characters.
func hostileNames(n int) []string {
	pieces := []string{"\n", "\r", "\t", "\x1b[31m", "\xff", "\xc3", ":", ":1:", "-12-", "2024-01-15-", "\u2013", "\u2212",
		"\u202e", "\u200b", "\ufeff", " ", "\u00a0", "\u3000", `"`, `\`, "'", "*", "?", "[", "]", "{a,b}", "$(x)", "`x`",
		";", "|", "&", "-", "--", "#", "~", "%", "é", "漢", ".", "...", "\x7f", "\x01", "=", "+", "!"}
	rng := rand.New(rand.NewPCG(29, 30))
	seen := map[string]bool{"": true, ".": true, "..": true, ".git": true, ".gitignore": true, ".ignore": true, ".rgignore": true}
	var names []string
	for len(names) < n {
		var b strings.Builder
		for k := 1 + rng.IntN(5); k > 0; k-- {
			if rng.IntN(3) == 0 {
				b.WriteByte(byte('a' + rng.IntN(26)))
			}
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		name := b.String()
		if len(name) > 200 || seen[name] {
			continue
		}
		seen[name] = true
		names = append(names, name)
	}
	return names
}

// TestNamesRoundTrip: what the command prints for a program is each
// name's bytes (-0), so xargs -0 hands every path back exactly, or, in a
// list of paths a line to a pipe, those bytes quoted as git quotes when
// one could break the line; 1,000 hostile names lose or change none.
func TestNamesRoundTrip(t *testing.T) {
	xargs, err := exec.LookPath("xargs")
	if err != nil {
		t.Skip("no xargs")
	}
	dir := t.TempDir()
	var want []string
	for i, name := range hostileNames(1000) {
		sub := dir
		if i%4 == 0 { // a quarter one level down, under a hostile name too
			sub = filepath.Join(dir, fmt.Sprintf("d%d\n-1-:", i%3))
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		p := filepath.Join(sub, name)
		if err := os.WriteFile(p, []byte("needle\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		want = append(want, p)
	}
	slices.Sort(want)
	// What find lists is the oracle: every file, by its bytes.
	found, err := exec.Command("find", dir, "-type", "f", "-print0").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := sortedCopy(split0(found)); !slices.Equal(got, want) {
		t.Fatalf("find lists %d files, %d were made", len(got), len(want))
	}
	for _, tt := range []struct {
		name string
		args []string
		sep  byte
	}{
		{name: "glob -0", args: []string{"glob", "-0", "*", dir}, sep: 0},
		{name: "grep -l -0", args: []string{"grep", "-l", "-0", "needle", dir}, sep: 0},
		{name: "grep --files -0", args: []string{"grep", "--files", "-0", dir}, sep: 0},
		{name: "glob to a pipe", args: []string{"glob", "*", dir}, sep: '\n'},
		{name: "grep -l to a pipe", args: []string{"grep", "-l", "needle", dir}, sep: '\n'},
		{name: "grep --files to a pipe", args: []string{"grep", "--files", dir}, sep: '\n'},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, stderr, code := rootbound(t, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if tt.sep == '\n' {
				// A list by lines: every line is one path, its bytes as they
				// are, or quoted as git quotes a name (escape.Piped) when
				// one could break or reorder its line, which strconv.Unquote
				// reads back. Every name is there, none twice.
				var got []string
				for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
					if strings.HasPrefix(l, `"`) {
						u, err := strconv.Unquote(l)
						if err != nil {
							t.Fatalf("%q: %v", l, err)
						}
						l = u
					} else if strings.ContainsAny(l, "\r\x1b\u202e") {
						t.Fatalf("%q is printed as it is", l)
					}
					got = append(got, l)
				}
				if slices.Sort(got); !slices.Equal(got, want) {
					t.Fatalf("%d paths read back, want %d; first difference: %s", len(got), len(want), firstDifference(got, want))
				}
				return
			}
			// Through xargs -0, as a pipeline hands paths on: printf gives
			// each argument back NUL-terminated, and ls -d -- finds each.
			back := runPipe(t, out, xargs, "-0", "printf", `%s\0`)
			if got := split0([]byte(back)); !slices.Equal(sortedCopy(got), want) {
				t.Fatalf("xargs -0 gave back %d paths, want %d; first difference: %s", len(got), len(want), firstDifference(sortedCopy(got), want))
			}
			runPipe(t, out, xargs, "-0", "ls", "-d", "--")
		})
	}
}

func split0(b []byte) []string {
	var out []string
	for _, f := range bytes.Split(bytes.TrimSuffix(b, []byte{0}), []byte{0}) {
		out = append(out, string(f))
	}
	return out
}

func sortedCopy(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func firstDifference(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("got %q, want %q", got[i], want[i])
		}
	}
	return "in length"
}

// runPipe runs a command with stdin as its input and returns its output.
func runPipe(t *testing.T, stdin, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %q: %v\n%s", name, args, err, errb.String())
	}
	return out.String()
}

// TestNamesFor: one rule for names, by reader. A person at a terminal
// sees a name as rg and fd show it, quoted only when it holds a character
// that could drive the terminal; an agent reading lines through a pipe
// gets the form that can never pass for a result or a notice; a list of
// paths to a pipe gets the bytes unless one could break the line; a
// program that asks (-0) gets the bytes.
func TestNamesFor(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"2024-01-15-x.md", "a:b.txt", "esc\x1b[31m.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("needle\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		args []string
		tty  bool
		want string
	}{
		{name: "glob on a terminal", args: []string{"glob", "*"}, tty: true,
			want: "2024-01-15-x.md\na:b.txt\n\"esc\\x1b[31m.txt\"\n"},
		{name: "glob to a pipe: bytes, quoted as git quotes when one breaks a line", args: []string{"glob", "*"},
			want: "2024-01-15-x.md\na:b.txt\n\"esc\\033[31m.txt\"\n"},
		{name: "glob -0 to a pipe: bytes", args: []string{"glob", "-0", "*"},
			want: "./2024-01-15-x.md\x00./a:b.txt\x00./esc\x1b[31m.txt\x00"},
		{name: "grep lines to a pipe: bytes as rg prints them, quoted as git quotes when one breaks a line or holds a colon", args: []string{"grep", "needle"},
			want: "2024-01-15-x.md:needle\n\"a:b.txt\":needle\n\"esc\\033[31m.txt\":needle\n"},
		{name: "grep -0 lines to a pipe: bytes", args: []string{"grep", "-0", "needle"},
			want: "2024-01-15-x.md\x00needle\na:b.txt\x00needle\nesc\x1b[31m.txt\x00needle\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append(slices.Clone(tt.args), "--sort", "path")
			var got string
			if tt.tty {
				got = onTerminal(t, func(tty *os.File) {
					cwd, _ := os.Getwd()
					defer os.Chdir(cwd)
					os.Chdir(dir)
					run(append(args, "--color", "never"), nil, tty, io.Discard)
				})
			} else {
				var out bytes.Buffer
				cwd, _ := os.Getwd()
				defer os.Chdir(cwd)
				os.Chdir(dir)
				run(args, nil, &out, io.Discard)
				got = out.String()
			}
			if got != tt.want {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestGrepStdin: grep searches what is piped in when it is given no PATH,
// and "-" among PATHs, as rg does (held to rg's output); through the
// resident server, such a grep runs in the client's own process.
func TestGrepStdin(t *testing.T) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("rg is not installed (make tools)")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("needle in f\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := "alpha\nneedle one\nbeta\nNeedle two\n"
	for _, args := range [][]string{
		{"needle"},
		{"-n", "needle"},
		{"-i", "-c", "needle"},
		{"-H", "-n", "needle"},
		{"-l", "needle"},
		{"-v", "needle"},
		{"-n", "needle", "-", dir},
		{"nothing"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			ours, _, code := rootboundIn(t, in, append([]string{"grep"}, args...)...)
			cmd := exec.Command(rg, append([]string{"-j1"}, args...)...) // one thread: PATHs in the order given
			cmd.Stdin = strings.NewReader(in)
			want, _ := cmd.Output()
			refCode := 0
			if cmd.ProcessState != nil {
				refCode = cmd.ProcessState.ExitCode()
			}
			if ours != string(want) || code != refCode {
				t.Errorf("rootbound grep %q: exit %d\n%s\nrg: exit %d\n%s", args, code, ours, refCode, want)
			}
		})
	}
	t.Run("through the server: the client's process", func(t *testing.T) {
		sdir, _ := startTestServer(t, time.Hour)
		var out, errb bytes.Buffer
		_, ok := clientCall(sdir, clientRequest{Args: []string{"grep", "needle"}, Cwd: dir, Stdin: true}, &out, &errb)
		if ok || out.Len() > 0 || errb.Len() > 0 {
			t.Errorf("the server took a grep of its client's stdin: ok %v, %q %q", ok, out.String(), errb.String())
		}
		// With a PATH it is the server's to answer.
		code, ok := clientCall(sdir, clientRequest{Args: []string{"grep", "needle", "f.txt"}, Cwd: dir, Stdin: true}, &out, &errb)
		if !ok || code != 0 || out.String() != "needle in f\n" {
			t.Errorf("with a PATH: ok %v exit %d %q %q", ok, code, out.String(), errb.String())
		}
	})
}

// TestLinesReachLikeRipgrep: `grep -n | cut -d: -f1` hands a reader every
// file rg's output hands it, but for a name with a control character, a
// double quote or a backslash, which is quoted as git quotes it (a name
// can never make a line of its own): rg is the oracle of what reaches.
func TestLinesReachLikeRipgrep(t *testing.T) {
	rg := needTool(t, "rg")
	dir := t.TempDir()
	for _, n := range []string{"plain.txt", "with space.txt", "é.txt", "漢字.txt", "2024-01-15-x.md", "a:b.txt", "quote'.txt",
		`dq".txt`, `back\slash.txt`, "-dash.txt", "x-12-y.txt", "tab\tx.txt", "[br].txt", "a-1-b:2:c.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("needle\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	reached := func(out string) map[string]bool {
		got := map[string]bool{}
		for line := range strings.Lines(out) {
			name, _, _ := strings.Cut(line, ":")
			if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
				got[name] = true
			}
		}
		return got
	}
	cwd, _ := os.Getwd()
	defer os.Chdir(cwd)
	os.Chdir(dir)
	var out bytes.Buffer
	if code := run([]string{"grep", "-n", "needle"}, nil, &out, io.Discard); code != 0 {
		t.Fatalf("exit %d", code)
	}
	ref, err := exec.Command(rg, "-n", "needle").Output()
	if err != nil {
		t.Fatal(err)
	}
	ours, theirs := reached(out.String()), reached(string(ref))
	for name := range theirs {
		if !ours[name] && !strings.ContainsAny(name, "\"\\\t") {
			t.Errorf("rg's output reaches %q, ours does not:\n%s", name, out.String())
		}
	}
	if len(ours) < 9 {
		t.Errorf("%d names reached (rg %d):\n%s", len(ours), len(theirs), out.String())
	}
}
