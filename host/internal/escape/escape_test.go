package escape

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Cases is testdata/escape/cases.json: the one table every printer of
// rootbound is held to (the Node host's test reads it too).
type Cases struct {
	Cases []struct {
		Name     string `json:"name"`
		In       string `json:"in"`
		InBase64 string `json:"in_base64"`
		Path     string `json:"path"`
		Line     string `json:"line"`
		// Piped: as a path in a list to a pipe; nil: the input as it is.
		Piped *string `json:"piped"`
		// PipedLine: before a line's text, to a pipe; nil: as Piped.
		PipedLine *string `json:"piped_line"`
	} `json:"cases"`
}

func TestCases(t *testing.T) {
	raw, err := os.ReadFile("../../../testdata/escape/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cs Cases
	if err := json.Unmarshal(raw, &cs); err != nil {
		t.Fatal(err)
	}
	for _, c := range cs.Cases {
		t.Run(c.Name, func(t *testing.T) {
			in := c.In
			if c.InBase64 != "" {
				b, err := base64.StdEncoding.DecodeString(c.InBase64)
				if err != nil {
					t.Fatal(err)
				}
				in = string(b)
			}
			if got := Path(in); got != c.Path {
				t.Errorf("Path(%q) = %s, want %s", in, got, c.Path)
			}
			if got := Line(in); got != c.Line {
				t.Errorf("Line(%q) = %s, want %s", in, got, c.Line)
			}
			want := in
			if c.Piped != nil {
				want = *c.Piped
			}
			if got := Piped(in); got != want {
				t.Errorf("Piped(%q) = %s, want %s", in, got, want)
			}
			if c.PipedLine != nil {
				want = *c.PipedLine
			}
			if got := PipedLine(in); got != want {
				t.Errorf("PipedLine(%q) = %s, want %s", in, got, want)
			}
			// A quoted path reads back to the name's bytes.
			if back, err := strconv.Unquote(want); want != in && (err != nil || back != in) {
				t.Errorf("Piped(%q) = %s reads back as %q (%v)", in, want, back, err)
			}
		})
	}
}

// FuzzPiped: a path in a list to a pipe is one line that nothing in it
// can break or reorder, and reads back to the name's exact bytes: as it
// is, or quoted (strconv.Unquote is the oracle of git's quoting); before
// a line's text, it holds no colon unless quoted.
func FuzzPiped(f *testing.F) {
	for _, s := range []string{"a.go", "x\nfake.go:1:FORGED", "a\u202eb", "bad\xff\n", `a"b\c`, "数据/🚀.txt"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		got := Piped(name)
		back := got
		if got != name {
			var err error
			if back, err = strconv.Unquote(got); err != nil {
				t.Fatalf("Piped(%q) = %s: %v", name, got, err)
			}
		}
		if back != name {
			t.Fatalf("Piped(%q) = %s reads back as %q", name, got, back)
		}
		if got != name && strings.ContainsFunc(got, func(r rune) bool { return breaksLine(r) }) {
			t.Fatalf("Piped(%q) = %q holds a character that breaks a line", name, got)
		}
		if got == name && strings.ContainsFunc(got, func(r rune) bool { return breaksLine(r) || r == '"' || r == '\\' }) {
			t.Fatalf("Piped(%q) left it as it is", name)
		}
		// Before a line's text: as Piped, or quoted when it holds a colon;
		// left as it is, it holds no colon.
		line := PipedLine(name)
		if line != got && (!strings.Contains(name, ":") || line[0] != '"') {
			t.Fatalf("PipedLine(%q) = %s, Piped %s", name, line, got)
		}
		if back, err := strconv.Unquote(line); line != name && (err != nil || back != name) || line == name && strings.Contains(name, ":") {
			t.Fatalf("PipedLine(%q) = %s", name, line)
		}
	})
}
