package wit_test

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"go.bytecodealliance.org/wit"

	"github.com/rootbound/rootbound/protocol"
)

// TestProtocolPage holds PROTOCOL.md to the WIT: every field of the records
// a reader meets (request, limits, item, span, problem, progress, done,
// skipped, stats, call-error, root-policy) and every case of the enums
// (error codes, problem codes, statuses) is named on the page, in
// backquotes; and every line of its JSON examples is a request the module
// takes or an answer line it could write (decoded strictly: no field the
// protocol lacks).
func TestProtocolPage(t *testing.T) {
	page, err := os.ReadFile("../PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	defs := load(t)
	named := func(name string) bool { return bytes.Contains(page, []byte("`"+name+"`")) }
	for _, rec := range []string{"request", "limits", "item", "span", "problem", "progress", "done", "skipped", "stats", "call-error", "root-policy"} {
		for _, f := range defs[rec].Kind.(*wit.Record).Fields {
			if !named(snake(f.Name)) {
				t.Errorf("PROTOCOL.md does not name %s's field %s", rec, snake(f.Name))
			}
		}
	}
	for _, enum := range []string{"error-code", "problem-code", "status", "output-mode", "case-mode", "sort-order"} {
		for _, c := range defs[enum].Kind.(*wit.Enum).Cases {
			if !named(snake(c.Name)) && !bytes.Contains(page, []byte(snake(c.Name))) {
				t.Errorf("PROTOCOL.md does not name %s %s", enum, snake(c.Name))
			}
		}
	}
	blocks := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllSubmatch(page, -1)
	if len(blocks) == 0 {
		t.Fatal("PROTOCOL.md has no JSON examples")
	}
	kinds := map[string]int{}
	for _, b := range blocks {
		for _, line := range strings.Split(strings.TrimSpace(string(b[1])), "\n") {
			if strings.Contains(line, `"v":`) {
				if _, perr := protocol.DecodeRequest([]byte(line)); perr != nil {
					t.Errorf("example request %s: %s", line, perr.Message)
				}
				kinds["request"]++
				continue
			}
			dec := json.NewDecoder(strings.NewReader(line))
			dec.DisallowUnknownFields()
			var l protocol.Line
			if err := dec.Decode(&l); err != nil {
				t.Errorf("example answer line %s: %v", line, err)
				continue
			}
			n := 0
			for kind, set := range map[string]bool{"item": l.Item != nil, "problem": l.Problem != nil, "progress": l.Progress != nil, "done": l.Done != nil} {
				if set {
					n++
					kinds[kind]++
				}
			}
			if n != 1 || l.ID == "" {
				t.Errorf("example answer line %s: want an id and exactly one of item, problem, progress, done", line)
			}
		}
	}
	for _, kind := range []string{"request", "item", "problem", "progress", "done"} {
		if kinds[kind] == 0 {
			t.Errorf("PROTOCOL.md has no example %s line", kind)
		}
	}
}
