package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/internal/testtree"
)

// TestExitCodesAgreeWithRipgrep: the command, run as a process, exits as
// rg does on the same arguments (rg is the oracle): something found, 0;
// nothing, 1; an error, 2, with what was found printed first; a reader
// that closes the pipe early, 0 (under set -o pipefail, as scripts run).
func TestExitCodesAgreeWithRipgrep(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	rg := needTool(t, "rg")
	bin := filepath.Join(t.TempDir(), "rootbound")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	dir := testtree.New(t, map[string]string{
		"a.txt":           "needle\n",
		"b.txt":           "hay\n",
		"bin.dat":         "x\x00needle\n",
		"empty.txt":       "",
		"many.txt":        strings.Repeat("needle in many\n", 200_000),
		"sub/c.go":        "needle here\n",
		"onlybin/d.dat":   "y\x00needle\n",
		"patterns/none":   "",
		"patterns/needle": "needle\n",
	})
	in := func(names ...string) []string {
		for i, n := range names {
			if !strings.HasPrefix(n, "-") {
				names[i] = filepath.Join(dir, n)
			}
		}
		return names
	}
	for _, tc := range []struct {
		name string
		args []string
		pipe bool // stdout read by head -1, which closes it
	}{
		{name: "found", args: []string{"needle", dir}},
		{name: "nothing found", args: []string{"zzz", dir}},
		{name: "a bad pattern", args: []string{"(", dir}},
		{name: "a missing PATH", args: in("needle", "missing")},
		{name: "a missing PATH after one found", args: in("needle", "a.txt", "missing")},
		{name: "a missing PATH before one found", args: in("needle", "missing", "a.txt")},
		{name: "a missing PATH and nothing found", args: in("zzz", "a.txt", "missing")},
		{name: "a binary file named, holding it", args: in("needle", "bin.dat")},
		{name: "a binary file named, -c", args: in("-c", "needle", "bin.dat")},
		{name: "a binary file named, not holding it", args: in("zzz", "bin.dat")},
		{name: "binary files in a directory, skipped", args: in("needle", "onlybin")},
		{name: "-q found", args: []string{"-q", "needle", dir}},
		{name: "-q nothing found", args: []string{"-q", "zzz", dir}},
		{name: "-q found beside a missing PATH", args: in("-q", "needle", "missing", "a.txt")},
		{name: "-l found", args: []string{"-l", "needle", dir}},
		{name: "-c nothing found", args: []string{"-c", "zzz", dir}},
		{name: "--files", args: []string{"--files", dir}},
		{name: "-v, every line matching", args: in("-v", "needle", "a.txt")},
		{name: "an empty file", args: in("x", "empty.txt")},
		{name: "-F of a bad pattern", args: []string{"-F", "(", dir}},
		{name: "several -e", args: []string{"-e", "zzz", "-e", "needle", dir}},
		{name: "-f of no pattern", args: in("-f", "patterns/none", "a.txt")},
		{name: "-f of a pattern", args: in("-f", "patterns/needle", "a.txt")},
		{name: "-f of a missing file", args: in("-f", "patterns/missing", "a.txt")},
		{name: "-w not a word", args: []string{"-w", "need", dir}},
		{name: "-m 1", args: []string{"-m", "1", "needle", dir}},
		{name: "an unknown flag", args: []string{"--no-such-flag", "x", dir}},
		{name: "a broken pipe", args: in("needle", "many.txt"), pipe: true},
		{name: "a broken pipe, -n over a tree", args: []string{"-n", "needle", dir}, pipe: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code := func(argv ...string) int {
				cmd := exec.Command(argv[0], argv[1:]...)
				if tc.pipe {
					cmd = exec.Command("bash", append([]string{"-c", `set -o pipefail; "$@" | head -1 >/dev/null`, "bash"}, argv...)...)
				}
				cmd.Env = append(os.Environ(), "ROOTBOUND_SERVER=off")
				err := cmd.Run()
				if ee, ok := err.(*exec.ExitError); ok {
					return ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				return 0
			}
			ours := code(append([]string{bin, "grep"}, tc.args...)...)
			theirs := code(append([]string{rg}, tc.args...)...)
			if ours != theirs {
				t.Errorf("rootbound grep %q: exit %d, rg %d", tc.args, ours, theirs)
			}
		})
	}
}
