package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rootbound/rootbound/internal/meter"
	"github.com/rootbound/rootbound/internal/testtree"
	"github.com/rootbound/rootbound/protocol"
)

var tree = map[string]string{
	"README.md":            "# demo\nhello world\n",
	"src/main.go":          "package main\n\nfunc main() {\n\tprintln(\"hello\")\n}\n",
	"src/util/strings.go":  "package util\n// Hello again\nfunc Hello() {}\n",
	"src/bin.dat":          "hello\x00binary",
	"docs/a b/é.md":        "hello from unicode\n",
	".github/workflows/ci": "run: hello\n",
	".git/HEAD":            "hello from git\n",
	"long.txt":             strings.Repeat("a", 400) + "NEEDLE" + strings.Repeat("b", 400) + "\n",
	"escape":               "->/etc/passwd",
	"bom.txt":              "\uFEFFmarker\n",
	"long2.txt":            "needlex" + strings.Repeat("y", 200_000) + "needle7" + strings.Repeat("z", 1000) + "\n",
}

// serve runs requests against a fresh server over tree and returns the
// answer lines, each re-encoded compactly, per request.
// answer runs one request line on s and returns the answer's bytes.
func answer(t *testing.T, s *Server, req any) []byte {
	t.Helper()
	line, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := s.Serve(bytes.NewReader(append(line, '\n')), &out); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func serve(t *testing.T, roots []Root, reqs ...string) [][]protocol.Line {
	t.Helper()
	s, err := New(roots)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := s.Serve(strings.NewReader(strings.Join(reqs, "\n")+"\n"), &out); err != nil {
		t.Fatal(err)
	}
	var answers [][]protocol.Line
	var cur []protocol.Line
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		var line protocol.Line
		if err := json.Unmarshal([]byte(l), &line); err != nil {
			t.Fatalf("bad line %q: %v", l, err)
		}
		cur = append(cur, line)
		if line.Done != nil {
			answers = append(answers, cur)
			cur = nil
		}
	}
	if len(cur) != 0 || len(answers) != len(reqs) {
		t.Fatalf("%d answers for %d requests (%d dangling lines)", len(answers), len(reqs), len(cur))
	}
	return answers
}

// brief renders an answer's items compactly: "path", "path:n:text" or "path#count".
func brief(lines []protocol.Line) []string {
	var out []string
	for _, l := range lines {
		switch {
		case l.Item != nil && l.Item.Text != nil:
			out = append(out, string(l.Item.Path)+":"+itoa(l.Item.LineNumber)+":"+string(*l.Item.Text))
		case l.Item != nil && l.Item.Count > 0:
			out = append(out, string(l.Item.Path)+"#"+itoa(l.Item.Count))
		case l.Item != nil:
			out = append(out, string(l.Item.Path))
		}
	}
	return out
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestServe(t *testing.T) {
	dir := testtree.New(t, tree)
	other := testtree.New(t, map[string]string{"notes/hello.txt": "hello\n"})
	roots := []Root{{Name: "/workspace", Dir: dir}, {Name: "/notes", Dir: other}}
	tests := []struct {
		name   string
		req    string
		want   []string
		status string
		code   string
		trunc  bool
	}{
		{name: "glob basename", req: `"glob":{"pattern":"*.go"}`, want: []string{"src/main.go", "src/util/strings.go"}, status: "complete"},
		{name: "glob path", req: `"glob":{"pattern":"src/*.go"}`, want: []string{"src/main.go"}, status: "complete"},
		{name: "glob hidden found, .git never", req: `"glob":{"pattern":"*"}`, want: []string{".github/workflows/ci", "README.md", "bom.txt", "docs/a b/é.md", "long.txt", "long2.txt", "src/bin.dat", "src/main.go", "src/util/strings.go"}, status: "complete"},
		{name: "glob under path", req: `"glob":{"pattern":"*.go","path":"src/util"}`, want: []string{"src/util/strings.go"}, status: "complete"},
		{name: "glob relative to search root", req: `"glob":{"pattern":"util/*.go","path":"src"}`, want: []string{"src/util/strings.go"}, status: "complete"},
		{name: "glob other root", req: `"glob":{"pattern":"*.txt","path":"/notes"}`, want: []string{"/notes/notes/hello.txt"}, status: "complete"},
		{name: "glob default root by name", req: `"glob":{"pattern":"main.go","path":"/workspace/src"}`, want: []string{"src/main.go"}, status: "complete"},
		{name: "glob no match", req: `"glob":{"pattern":"*.rs"}`, status: "complete"},
		{name: "glob truncated", req: `"glob":{"pattern":"*","max_results":2}`, want: []string{".github/workflows/ci", "README.md"}, status: "complete", trunc: true},
		{name: "glob exactly max is not truncated", req: `"glob":{"pattern":"*.go","max_results":2}`, want: []string{"src/main.go", "src/util/strings.go"}, status: "complete"},
		{name: "grep files", req: `"grep":{"pattern":"hello"}`, want: []string{".github/workflows/ci", "README.md", "docs/a b/é.md", "src/main.go"}, status: "complete"},
		{name: "grep insensitive", req: `"grep":{"pattern":"hello","case":"insensitive","path":"src"}`, want: []string{"src/main.go", "src/util/strings.go"}, status: "complete"},
		{name: "grep smart", req: `"grep":{"pattern":"Hello","case":"smart","path":"src"}`, want: []string{"src/util/strings.go"}, status: "complete"},
		{name: "grep content", req: `"grep":{"pattern":"Hello","output_mode":"content"}`, want: []string{"src/util/strings.go:2:// Hello again", "src/util/strings.go:3:func Hello() {}"}, status: "complete"},
		{name: "grep count", req: `"grep":{"pattern":"Hello","output_mode":"count"}`, want: []string{"src/util/strings.go#2"}, status: "complete"},
		{name: "grep glob filter", req: `"grep":{"pattern":"hello","glob":"*.md"}`, want: []string{"README.md", "docs/a b/é.md"}, status: "complete"},
		{name: "grep literal", req: `"grep":{"pattern":"main()","literal":true,"output_mode":"content"}`, want: []string{"src/main.go:3:func main() {"}, status: "complete"},
		{name: "grep long line snippet", req: `"grep":{"pattern":"NEEDLE","output_mode":"content"}`, want: []string{"long.txt:1:…" + strings.Repeat("a", 150) + "NEEDLE" + strings.Repeat("b", 144) + "…"}, status: "complete"},
		{name: "grep content truncated", req: `"grep":{"pattern":"Hello","output_mode":"content","max_results":1}`, want: []string{"src/util/strings.go:2:// Hello again"}, status: "complete", trunc: true},
		{name: "invalid glob", req: `"glob":{"pattern":"{a"}`, status: "failed", code: "invalid_pattern"},
		{name: "invalid regex", req: `"grep":{"pattern":"(a"}`, status: "failed", code: "invalid_pattern"},
		{name: "invalid mode", req: `"grep":{"pattern":"a","output_mode":"lines"}`, status: "failed", code: "invalid_argument"},
		{name: "max results too high", req: `"glob":{"pattern":"a","max_results":1000001}`, status: "failed", code: "invalid_argument"},
		{name: "max results negative", req: `"glob":{"pattern":"a","max_results":-1}`, status: "failed", code: "invalid_argument"},
		{name: "dotdot escapes", req: `"glob":{"pattern":"*","path":"../"}`, status: "failed", code: "outside_root"},
		{name: "dotdot inside is fine", req: `"glob":{"pattern":"*.go","path":"src/util/.."}`, want: []string{"src/main.go", "src/util/strings.go"}, status: "complete"},
		{name: "absolute host path", req: `"glob":{"pattern":"*","path":"/etc"}`, status: "failed", code: "outside_root"},
		{name: "root name prefix is not a root", req: `"glob":{"pattern":"*","path":"/workspace-evil"}`, status: "failed", code: "outside_root"},
		{name: "root dotdot escapes", req: `"glob":{"pattern":"*","path":"/workspace/../notes/../etc"}`, status: "failed", code: "outside_root"},
		{name: "missing path", req: `"glob":{"pattern":"*","path":"nope"}`, status: "failed", code: "not_found"},
		{name: "file path globbed", req: `"glob":{"pattern":"*.md","path":"README.md"}`, want: []string{"README.md"}, status: "complete"},
		{name: "file path grepped", req: `"grep":{"pattern":"hello","path":"src/main.go","output_mode":"content"}`, want: []string{"src/main.go:4:\tprintln(\"hello\")"}, status: "complete"},
		{name: "file path of another root", req: `"grep":{"pattern":"hello","path":"/notes/notes/hello.txt"}`, want: []string{"/notes/notes/hello.txt"}, status: "complete"},
		{name: ".git by path", req: `"grep":{"pattern":"x","path":".git"}`, status: "failed", code: "outside_root"},
		{name: ".git through ..", req: `"grep":{"pattern":"x","path":"src/../.git/objects"}`, status: "failed", code: "outside_root"},
		{name: ".git by root name", req: `"glob":{"pattern":"*","path":"/workspace/.git/HEAD"}`, status: "failed", code: "outside_root"},
		{name: "glob excludes", req: `"grep":{"pattern":"hello","glob":["!*.md","!ci"]}`, want: []string{"src/main.go"}, status: "complete"},
		{name: "glob includes and excludes", req: `"grep":{"pattern":"ello","case":"insensitive","glob":["*.go","!strings.go"]}`, want: []string{"src/main.go"}, status: "complete"},
		{name: "smart case sees classes", req: `"grep":{"pattern":"[H]ello","case":"smart","output_mode":"count"}`, want: []string{"src/util/strings.go#2"}, status: "complete"},
		{name: "bom is not text", req: `"grep":{"pattern":"^marker","output_mode":"content"}`, want: []string{"bom.txt:1:marker"}, status: "complete"},
		{name: "snippet holds the real match", req: `"grep":{"pattern":"needle\\d","output_mode":"content"}`, want: []string{"long2.txt:1:…" + strings.Repeat("y", 150) + "needle7" + strings.Repeat("z", 143) + "…"}, status: "complete"},
		{name: "deadline too far", req: `"glob":{"pattern":"*"},"limits":{"deadline_ms":9223372036854}`, status: "failed", code: "invalid_argument"},
		{name: "symlink path", req: `"glob":{"pattern":"*","path":"escape"}`, status: "failed", code: "symlink"},
		{name: "nul in path", req: `"glob":{"pattern":"*","path":"a\u0000b"}`, status: "failed", code: "invalid_argument"},
		{name: "budget", req: `"glob":{"pattern":"*"},"limits":{"max_entries":4}`, want: []string{".github/workflows/ci"}, status: "partial", code: "budget"},
		{name: "byte budget", req: `"grep":{"pattern":"hello"},"limits":{"max_bytes":12}`, want: []string{".github/workflows/ci"}, status: "partial", code: "budget"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans := serve(t, roots, `{"v":1,"id":"x",`+tt.req+`}`)[0]
			done := ans[len(ans)-1].Done
			if got := brief(ans); strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("results %q, want %q", got, tt.want)
			}
			if done.Status != tt.status {
				t.Errorf("status %s, want %s (error %v)", done.Status, tt.status, done.Error)
			}
			code := ""
			if done.Error != nil {
				code = done.Error.Code
				if strings.Contains(done.Error.Message, dir) {
					t.Errorf("message leaks the host path: %s", done.Error.Message)
				}
			}
			if code != tt.code {
				t.Errorf("code %q, want %q", code, tt.code)
			}
			if done.Truncated != tt.trunc || (tt.trunc && done.NextOffset != len(tt.want)) {
				t.Errorf("truncated %v (next offset %d), want %v", done.Truncated, done.NextOffset, tt.trunc)
			}
			if done.Results != len(tt.want) {
				t.Errorf("done.results %d, want %d", done.Results, len(tt.want))
			}
			for _, l := range ans {
				if l.ID != "x" {
					t.Errorf("line id %q, want x", l.ID)
				}
			}
		})
	}
}

func TestServeCounts(t *testing.T) {
	dir := testtree.New(t, tree)
	ans := serve(t, []Root{{Name: "/w", Dir: dir}}, `{"v":1,"id":"1","grep":{"pattern":"hello"}}`)[0]
	d := ans[len(ans)-1].Done
	want := protocol.Skipped{Binary: 1, Symlink: 1}
	if d.Skipped != want {
		t.Errorf("skipped %+v, want %+v", d.Skipped, want)
	}
	if d.Stats.Files != 9 || d.Stats.FilesRead != 9 {
		t.Errorf("stats %+v, want 9 files, 9 read", d.Stats)
	}
}

func TestServeProtocolErrors(t *testing.T) {
	dir := testtree.New(t, tree)
	huge := `{"v":1,"id":"big","glob":{"pattern":"` + strings.Repeat("a", protocol.MaxLineBytes) + `"}}`
	ans := serve(t, []Root{{Name: "/w", Dir: dir}},
		`{"v":1,"id":"1","glob":{"pattern":"*.go"}`, // truncated
		`{"v":1,"id":"2","glob":{"pattern":"*.go","follow":true}}`,
		huge,
		`{"v":1,"id":"3","glob":{"pattern":"*.go"}}`, // and the next request works
	)
	for i, a := range ans[:3] {
		if d := a[len(a)-1].Done; d.Status != "failed" || d.Error.Code != "invalid_argument" {
			t.Errorf("answer %d: %+v, want failed invalid_argument", i, d)
		}
	}
	if ans[1][0].ID != "2" {
		t.Errorf("a rejected request keeps its id: got %q", ans[1][0].ID)
	}
	if got := brief(ans[3]); len(got) != 2 {
		t.Errorf("request after bad input: %q", got)
	}
}

func TestServeDeadline(t *testing.T) {
	spec := map[string]string{}
	for i := 0; i < 3000; i++ {
		spec["d/"+itoa(i)] = "x\n"
	}
	dir := testtree.New(t, spec)
	s, _ := New([]Root{{Name: "/w", Dir: dir}})
	start := time.Now()
	// The clock stands still for the request and the two directories, then
	// jumps past the deadline: the next look (after 256 entries) ends the call.
	ticks := 0
	s.now = func() time.Time {
		if ticks++; ticks <= 3 {
			return start
		}
		return start.Add(time.Hour)
	}
	var out bytes.Buffer
	_ = s.Serve(strings.NewReader(`{"v":1,"id":"1","glob":{"pattern":"*","max_results":10000},"limits":{"deadline_ms":1000}}`+"\n"), &out)
	var last protocol.Line
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	_ = json.Unmarshal([]byte(lines[len(lines)-1]), &last)
	if last.Done.Status != "partial" || last.Done.Error.Code != "deadline" || last.Done.Results == 0 || last.Done.Results >= 3000 {
		t.Errorf("done %+v, want partial with some results and a deadline error", last.Done)
	}
}

func TestServeNonUTF8(t *testing.T) {
	dir := testtree.New(t, map[string]string{"bad\xffname.txt": "hello\n", "latin1.txt": "caf\xe9 hello\n"})
	s, _ := New([]Root{{Name: "/w", Dir: dir}})
	var out bytes.Buffer
	_ = s.Serve(strings.NewReader(`{"v":1,"id":"1","glob":{"pattern":"*"}}`+"\n"+`{"v":1,"id":"2","grep":{"pattern":"hello","output_mode":"content"}}`+"\n"), &out)
	want := []string{
		// Listed, with its name as base64 bytes.
		`{"id":"1","item":{"path":{"bytes":"YmFk/25hbWUudHh0"}}}`,
		`{"id":"1","item":{"path":{"text":"latin1.txt"}}}`,
		// Searched, as rg searches it (natively; through the wazero host's
		// mount by its escaped name: the conformance case names-not-utf8).
		`{"id":"2","item":{"path":{"bytes":"YmFk/25hbWUudHh0"},"line_number":1,"text":{"text":"hello"},"submatches":[{"start":0,"end":5}]}}`,
		// A line that is not UTF-8 travels as bytes.
		`{"id":"2","item":{"path":{"text":"latin1.txt"},"line_number":1,"text":{"bytes":"Y2Fm6SBoZWxsbw=="},"submatches":[{"start":5,"end":10}]}}`,
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if !strings.Contains(l, `"done"`) {
			got = append(got, l)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestFileErrorIsNotCancel: a file's own error, whatever its errno (a
// /sys file fails to read with EOPNOTSUPP), is a problem record and the
// search goes on; only the clock says the host cancelled.
func TestFileErrorIsNotCancel(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.ENOTSUP, syscall.EIO, syscall.EACCES, syscall.ECANCELED} {
		var out bytes.Buffer
		bw := bufio.NewWriter(&out)
		c := &call{enc: protocol.NewEncoder(bw), bw: bw, now: time.Now}
		c.meter = meter.New(c.checkClock)
		if err := c.problem("sys/phys_port_name", &fs.PathError{Op: "read", Path: "/x", Err: errno}); err != nil {
			t.Errorf("%v ended the search: %v", errno, err)
		}
		if c.done.Skipped.Unreadable != 1 {
			t.Errorf("%v: unreadable %d, want 1", errno, c.done.Skipped.Unreadable)
		}
	}
}

func TestNewRefusesRoots(t *testing.T) {
	for _, names := range [][]string{
		{"/workspace", "/workspace/src"}, {"/a/b", "/a"}, {"/w", "/w"}, {"relative"}, {"/"}, {"/w/../x"}, {"/repo/.git"},
	} {
		var roots []Root
		for _, n := range names {
			roots = append(roots, Root{Name: n, Dir: t.TempDir()})
		}
		if _, err := New(roots); err == nil {
			t.Errorf("New(%v) took them, want an error", names)
		}
	}
	if _, err := New([]Root{{Name: "/workspace", Dir: t.TempDir()}, {Name: "/workspace-src", Dir: t.TempDir()}}); err != nil {
		t.Errorf("siblings sharing a prefix: %v", err)
	}
}

// TestServeBounds: lists past their bounds are refused before anything is
// compiled; an ignore rule too long to apply is a problem of the answer,
// and the file's other rules apply.
func TestServeBounds(t *testing.T) {
	long := strings.Repeat("*", 5000)
	dir := testtree.New(t, map[string]string{".gitignore": "a.log\n" + long + "\n", "a.log": "x\n", "b.txt": "x\n"})
	roots := []Root{{Name: "/w", Dir: dir}}
	many := make([]string, protocol.MaxListItems+1)
	for i := range many {
		many[i] = `"*.go"`
	}
	big := `"` + strings.Repeat("a", 4000) + `"`
	bigList := strings.TrimSuffix(strings.Repeat(big+",", protocol.MaxListBytes/4000+1), ",")
	for _, req := range []string{
		`"grep":{"pattern":"x","glob":[` + strings.Join(many, ",") + `]}`,
		`"grep":{"pattern":"x","glob":[` + bigList + `]}`,
		`"glob":{"pattern":"x","exclude":[` + strings.Join(many, ",") + `]}`,
		`"grep":{"pattern":"x","patterns":[` + strings.Join(many, ",") + `]}`,
		`"glob":{"pattern":"x","type":[` + strings.Join(many, ",") + `]}`,
	} {
		ans := serve(t, roots, `{"v":1,"id":"x",`+req+`}`)[0]
		if d := ans[len(ans)-1].Done; d.Error == nil || d.Error.Code != protocol.CodeInvalidArgument {
			t.Errorf("%.60s: %+v, want invalid_argument", req, d)
		}
	}
	ans := serve(t, roots, `{"v":1,"id":"x","glob":{"pattern":"*"}}`)[0]
	if got := brief(ans); strings.Join(got, " ") != ".gitignore b.txt" {
		t.Errorf("results %q, want .gitignore b.txt (a.log ignored by the rule that applies)", got)
	}
	if p := ans[0].Problem; p == nil || !strings.Contains(p.Message, "longer than 4096 bytes (the first on line 2) not applied") {
		t.Errorf("first line %+v, want a problem naming the long rule", ans[0])
	}
}
