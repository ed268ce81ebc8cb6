package main

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootbound/rootbound/protocol"
)

func lastDone(t *testing.T, out []byte) (*protocol.Done, int) {
	t.Helper()
	items := 0
	var done *protocol.Done
	for _, l := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var line protocol.Line
		if err := json.Unmarshal(l, &line); err != nil {
			t.Fatalf("bad line %q: %v", l, err)
		}
		if line.Item != nil && !line.Item.Context {
			items++ // results: context lines are not
		}
		if line.Done != nil {
			done = line.Done
		}
	}
	if done == nil {
		t.Fatalf("no final line in %q", out)
	}
	return done, items
}

// TestLimits runs a search of the Go tree that needs more fuel and more time
// than it is given: each ends with the same typed error as on wazero, with
// the results found until then; a search with room completes.
func TestLimits(t *testing.T) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	root := "/workspace=" + filepath.Join(strings.TrimSpace(string(goroot)), "src")
	plain := []byte(`{"v":1,"id":"1","grep":{"pattern":"func","max_results":100000}}` + "\n")
	context := []byte(`{"v":1,"id":"1","grep":{"pattern":"func","max_results":100000,"output_mode":"content","context":2}}` + "\n")
	tests := []struct {
		name    string
		req     []byte
		fuel    uint64
		timeout time.Duration
		code    string
	}{
		{name: "out of fuel", req: plain, fuel: 500_000_000, timeout: time.Minute, code: protocol.CodeBudget},
		// 400 ms, every line with "func" and its context: enough time to
		// find some under a loaded machine's start of a fresh instance
		// (100 ms on files_with_matches found none at times while other
		// packages' tests ran), far too little to find them all.
		{name: "out of time", req: context, timeout: 400 * time.Millisecond, code: protocol.CodeDeadline},
		// Context lines are not results: the final line counts the others.
		{name: "out of fuel with context lines", req: context, fuel: 500_000_000, timeout: time.Minute, code: protocol.CodeBudget},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := newRunner([]string{root}, tt.fuel, tt.timeout)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := r.serve(bytes.NewReader(tt.req), &out); err != nil {
				t.Fatal(err)
			}
			done, items := lastDone(t, out.Bytes())
			if done.Status != protocol.StatusPartial || done.Error == nil || done.Error.Code != tt.code {
				t.Errorf("done %+v, want partial with %s", done, tt.code)
			}
			if items == 0 {
				t.Error("no results found before the limit")
			}
			if done.Results != items {
				t.Errorf("done says %d results, %d were sent", done.Results, items)
			}
		})
	}
	r, err := newRunner([]string{root}, 0, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := r.serve(bytes.NewReader([]byte(`{"v":1,"id":"2","glob":{"pattern":"utf8.go","path":"unicode"}}`+"\n")), &out); err != nil {
		t.Fatal(err)
	}
	if done, items := lastDone(t, out.Bytes()); done.Status != protocol.StatusComplete || items != 1 {
		t.Errorf("done %+v with %d items", done, items)
	}
}

// TestAnyInputLine feeds the host lines that are not requests: each gets a
// typed error, as the module gives it, and the host goes on serving.
func TestAnyInputLine(t *testing.T) {
	dir := t.TempDir()
	r, err := newRunner([]string{"/workspace=" + dir}, 0, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	in := strings.Join([]string{
		"garbage",
		"{}",
		`{"v":1,"id":"long","glob":{"pattern":"` + strings.Repeat("a", 2<<20) + `"}}`,
		"   ",
		`{"v":1,"id":"ok","glob":{"pattern":"*"}}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	if err := r.serve(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, l := range bytes.Split(bytes.TrimSpace(out.Bytes()), []byte("\n")) {
		var line protocol.Line
		if err := json.Unmarshal(l, &line); err != nil || line.Done == nil {
			t.Fatalf("line %q: %v", l, err)
		}
		code := "ok"
		if line.Done.Error != nil {
			code = line.Done.Error.Code
		}
		codes = append(codes, code)
	}
	want := []string{"invalid_argument", "invalid_argument", "invalid_argument", "ok"}
	if strings.Join(codes, " ") != strings.Join(want, " ") {
		t.Errorf("answers %v, want %v", codes, want)
	}
	if !bytes.Contains(out.Bytes(), []byte(protocol.ErrLineTooLong().Message)) {
		t.Error("the over-long line was not answered as the module answers it")
	}
}
