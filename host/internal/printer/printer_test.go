package printer_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/host/internal/printer"
	"github.com/rootbound/rootbound/protocol"
)

// TestNodePrinterAgrees prints every answer of the conformance corpus with
// this printer, as the command prints it, and with the Node host's
// (examples/node/print.mjs): the two texts are the same, byte for byte.
func TestNodePrinterAgrees(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("ROOTBOUND_ALL_RUNNERS") != "" {
			t.Fatal("node is missing")
		}
		t.Skip("no node")
	}
	files, _ := filepath.Glob("../../../testdata/conformance/*/expected.jsonl")
	if len(files) == 0 {
		t.Fatal("no conformance answers")
	}
	for _, f := range files {
		want := goText(t, f)
		got, err := exec.Command("node", "../../../examples/node/print_corpus.mjs", f).Output()
		if err != nil {
			t.Fatalf("%s: node: %v", f, err)
		}
		if string(got) != want {
			t.Errorf("%s: the Node printer differs from the Go printer:\n%s", filepath.Base(filepath.Dir(f)), diff(want, string(got)))
		}
	}
}

// goText prints the answers of file as print_corpus.mjs does.
func goText(t *testing.T, file string) string {
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out, stdout, stderr bytes.Buffer
	var problems []protocol.Problem
	id := "\x00"
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var l protocol.Line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if l.ID != id {
			id = l.ID
			stdout.Reset()
			stderr.Reset()
			problems = nil
		}
		switch {
		case l.Item != nil:
			printer.ModelLines(&stdout, nil).Write(*l.Item)
		case l.Problem != nil:
			problems = append(problems, *l.Problem)
		case l.Done != nil:
			d := l.Done
			e := printer.End{Results: d.Results, NextOffset: d.NextOffset, Truncated: d.Truncated,
				Skipped: d.Skipped, IgnoredBy: d.IgnoredBy, Lines: d.Lines}
			if d.Error != nil {
				e.ErrCode, e.ErrMessage = d.Error.Code, d.Error.Message
			}
			printer.Notices(&stderr, "", problems, e)
			if d.Results == 0 {
				printer.LeftOutLines(&stderr, "rootbound: ", d.Skipped, 8<<20)
			}
			out.WriteString("=== " + l.ID + "\n")
			out.Write(stdout.Bytes())
			out.Write(stderr.Bytes())
		}
	}
	return out.String()
}

// diff shows the first lines where a and b part.
func diff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n go:   %s\n node: %s", i+1, al[i], bl[i])
		}
	}
	return "one is longer"
}

// TestNarrow words a truncated answer from the module's facts.
func TestNarrow(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    printer.Vocab
		t    printer.Truncation
		want string
	}{
		{name: "max results", v: printer.Model,
			t:    printer.Truncation{One: "line matches", Many: "lines match", Where: "/workspace", How: "narrow the pattern", Max: 100, Results: 100, Next: 100},
			want: "more than 100 lines match in /workspace: narrow the pattern, raise max_results, or pass offset: 100 for the next page"},
		{name: "one result asked for", v: printer.Model,
			t:    printer.Truncation{One: "line matches", Many: "lines match", Where: "/workspace", How: "narrow the pattern", Max: 1, Results: 1, Next: 1},
			want: "more than 1 line matches in /workspace: narrow the pattern, raise max_results, or pass offset: 1 for the next page"},
		{name: "a later page", v: printer.Shell,
			t:    printer.Truncation{One: "entry", Many: "entries", Where: "src", How: "list below it", Offset: 10, Max: 10, Results: 10, Next: 20},
			want: "more than 20 entries in src: list below it, raise --max-results, or --offset 20 for the next page"},
		{name: "the output cap", v: printer.Model,
			t:    printer.Truncation{One: "line matches", Many: "lines match", Where: "/workspace", How: "narrow the pattern", Max: 1000, Results: 412, Next: 412, Capped: true, CapBytes: 65536},
			want: "the results filled the 65536 bytes this host takes from one call after 412 of them (lines match in /workspace): narrow the pattern, or pass offset: 412 for the next page"},
	} {
		if got := tc.v.Narrow(tc.t); got != tc.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tc.name, got, tc.want)
		}
	}
}
