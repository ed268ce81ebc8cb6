package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/internal/testtree"
	"github.com/rootbound/rootbound/protocol"
)

// TestServeLimits: Serve applies the runner's limits to every request, as
// a call of the library gets them (a request may ask for less, never
// more), and decodes requests as strictly.
func TestServeLimits(t *testing.T) {
	dir := testtree.New(t, map[string]string{
		"big.txt": strings.Repeat("x\n", 600), "small.txt": "x\n", "a/1.txt": "x\n", "a/2.txt": "x\n", "a/3.txt": "x\n",
	})
	r := newRunner(t, host.NewConfig().WithRoot("/w", dir).WithMaxFileSize(1000))
	rb := newRunner(t, host.NewConfig().WithRoot("/w", dir).WithBudget(3, 0))
	rm := newRunner(t, host.NewConfig().WithRoot("/w", dir).WithMaxResultBytes(1<<10))
	serve := func(r *host.Runner, line string) *protocol.Done {
		t.Helper()
		var out bytes.Buffer
		if err := r.Serve(context.Background(), strings.NewReader(line+"\n"), &out); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		var last protocol.Line
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last.Done == nil {
			t.Fatalf("last line %q: %v", lines[len(lines)-1], err)
		}
		return last.Done
	}
	for _, tc := range []struct {
		name  string
		r     *host.Runner
		line  string
		check func(d *protocol.Done) bool
	}{
		{"max_file_size past the runner's", r, `{"v":1,"id":"1","grep":{"pattern":"x"},"limits":{"max_file_size":9000000000000000000}}`,
			func(d *protocol.Done) bool { return d.Skipped.TooLarge == 1 && d.Results == 4 }},
		{"max_file_size under the runner's", r, `{"v":1,"id":"1","grep":{"pattern":"x"},"limits":{"max_file_size":1}}`,
			func(d *protocol.Done) bool { return d.Skipped.TooLarge == 5 }},
		{"the runner's entry budget", rb, `{"v":1,"id":"1","glob":{"pattern":"*"},"limits":{"max_entries":1000000}}`,
			func(d *protocol.Done) bool { return d.Error != nil && d.Error.Code == protocol.CodeBudget }},
		{"the runner's result bytes", rm, `{"v":1,"id":"1","grep":{"pattern":"x","output_mode":"content","max_results":1000}}`,
			func(d *protocol.Done) bool { return d.Truncated && d.Results < 600 }},
		{"a key twice", r, `{"v":1,"id":"1","glob":{"pattern":"*","pattern":"x"}}`,
			func(d *protocol.Done) bool { return d.Error != nil && d.Error.Code == protocol.CodeInvalidArgument }},
		{"a key in another case", r, `{"v":1,"id":"1","glob":{"Pattern":"*"}}`,
			func(d *protocol.Done) bool { return d.Error != nil && d.Error.Code == protocol.CodeInvalidArgument }},
		{"not UTF-8", r, "{\"v\":1,\"id\":\"1\",\"glob\":{\"pattern\":\"\xff\"}}",
			func(d *protocol.Done) bool { return d.Error != nil && d.Error.Code == protocol.CodeInvalidArgument }},
		// Refused before its deadline starts, however short: sent on to
		// the module, such a line ended past a deadline of 1 s.
		{"100,000 patterns under a 1 ms deadline", r, `{"v":1,"id":"1","grep":{"patterns":[` + strings.Repeat(`"p",`, 99_999) + `"p"]},"limits":{"deadline_ms":1}}`,
			func(d *protocol.Done) bool { return d.Error != nil && d.Error.Code == protocol.CodeInvalidArgument }},
		{"100,000 types under a 1 ms deadline", r, `{"v":1,"id":"1","grep":{"pattern":"x","type":[` + strings.Repeat(`"go",`, 99_999) + `"go"]},"limits":{"deadline_ms":1}}`,
			func(d *protocol.Done) bool { return d.Error != nil && d.Error.Code == protocol.CodeInvalidArgument }},
	} {
		if d := serve(tc.r, tc.line); !tc.check(d) {
			t.Errorf("%s: %+v", tc.name, d)
		}
	}
}

// TestServeCountsResults: when the host ends a request (here, cancelled
// once output has begun), its final line counts the results it passed on,
// and context lines are not results.
func TestServeCountsResults(t *testing.T) {
	files := map[string]string{}
	for i := range 300 {
		files[fmt.Sprintf("d/%03d.txt", i)] = strings.Repeat("before\nmatch\nafter\n\n\n", 20)
	}
	r := newRunner(t, host.NewConfig().WithRoot("/w", testtree.New(t, files)))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer
	w := writerFunc(func(p []byte) (int, error) { cancel(); return out.Write(p) })
	line := `{"v":1,"id":"1","grep":{"pattern":"match","output_mode":"content","context":1,"max_results":100000}}`
	if err := r.Serve(ctx, strings.NewReader(line+"\n"), w); err != nil {
		t.Fatal(err)
	}
	results, context := 0, 0
	var done *protocol.Done
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var pl protocol.Line
		if err := json.Unmarshal([]byte(l), &pl); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		switch {
		case pl.Item != nil && pl.Item.Context:
			context++
		case pl.Item != nil:
			results++
		case pl.Done != nil:
			done = pl.Done
		}
	}
	if done == nil || done.Error == nil || done.Error.Code != protocol.CodeCancelled {
		t.Fatalf("final line %+v, want one that says cancelled", done)
	}
	if context == 0 || done.Results != results {
		t.Errorf("final line counts %d results; %d results and %d context lines were sent", done.Results, results, context)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestServeAliases: served lines take other agents' names for options as
// the tools do (TestArgumentAliases holds the two to the same answers);
// names that conflict get the tools' reason, and a line holding a key
// twice is never made into one the module would take.
func TestServeAliases(t *testing.T) {
	dir := testtree.New(t, map[string]string{"a.go": "TODO\n"})
	r := newRunner(t, host.NewConfig().WithRoot("/w", dir))
	for _, tc := range []struct {
		name, line, want string
	}{
		{name: "conflicting names", line: `{"v":1,"id":"1","grep":{"pattern":"x","-A":1,"after_context":2}}`,
			want: `"-A\" and \"after_context\" both set after_context`},
		{name: "a key twice, beside an alias", line: `{"v":1,"id":"2","grep":{"pattern":"x","-i":true,"pattern":"TODO"}}`,
			want: `"code":"invalid_argument"`},
		{name: "the tool twice", line: `{"v":1,"id":"3","grep":{"pattern":"x","-i":true},"grep":{"pattern":"TODO"}}`,
			want: `"code":"invalid_argument"`},
	} {
		var out bytes.Buffer
		if err := r.Serve(context.Background(), strings.NewReader(tc.line+"\n"), &out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), tc.want) || strings.Contains(out.String(), `"item"`) {
			t.Errorf("%s: %s", tc.name, out.String())
		}
	}
}
