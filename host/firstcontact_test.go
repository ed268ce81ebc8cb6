package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/internal/options"
	"github.com/rootbound/rootbound/internal/testtree"
)

// The bugs a first contact with the library met, each held by a test.

// TestErrClosed: a call on a closed Runner says so in a way errors.Is sees.
func TestErrClosed(t *testing.T) {
	r, err := host.NewRunner(context.Background(), host.NewConfig().WithRoot("/w", t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.PrepareGlob(host.GlobArgs{Pattern: "*"})
	if err != nil {
		t.Fatal(err)
	}
	r.Close(context.Background())
	_, err = r.Glob(context.Background(), host.GlobArgs{Pattern: "*"})
	if !errors.Is(err, host.ErrClosed) {
		t.Errorf("Glob on a closed runner: %v, want ErrClosed", err)
	}
	if _, err := p.Run(context.Background()); !errors.Is(err, host.ErrClosed) {
		t.Errorf("a prepared call run after Close: %v, want ErrClosed", err)
	}
	var e *host.Error
	if !errors.As(err, &e) {
		t.Errorf("%v is not a *host.Error", err)
	}
}

// TestZeroPrepared: a Prepared that no Prepare made fails closed, with a
// typed error, and reads nothing.
func TestZeroPrepared(t *testing.T) {
	for name, p := range map[string]*host.Prepared{"zero": {}, "nil": nil} {
		res, err := p.Run(context.Background())
		var e *host.Error
		if !errors.As(err, &e) || e.Code != host.CodeInvalidArgument || res == nil || res.Done.Status != host.StatusFailed {
			t.Errorf("%s Prepared: %v, %+v", name, err, res)
		}
		if _, err := p.RunEach(context.Background(), func(host.Item) error { return nil }); err == nil {
			t.Errorf("%s Prepared: RunEach ran", name)
		}
	}
}

// TestAuditOfRefusedCalls: a call Tools.Call refuses before it runs is
// audited with the pattern and path it asked for.
func TestAuditOfRefusedCalls(t *testing.T) {
	var got []host.AuditRecord
	r := newRunner(t, host.NewConfig().WithRoot("/w", t.TempDir()).WithAudit(func(a host.AuditRecord) { got = append(got, a) }))
	tools := host.NewTools(r)
	tools.Call(context.Background(), "grep", []byte(`{"pattern":"TODO(","path":"src"}`))
	tools.Call(context.Background(), "glob", []byte(`{"pattern":"*.go","path":"src","max_results":0}`))
	if len(got) != 2 {
		t.Fatalf("%d audit records, want 2", len(got))
	}
	for _, a := range got {
		if a.Status != host.StatusFailed || a.Path != "src" || a.Pattern == "" || a.Code == "" {
			t.Errorf("audit record %s (%+v), want the pattern, the path and the code", a, a)
		}
	}
}

// TestEachReturnsEverything: GlobEach and GrepEach hold nothing, so they
// hand over every result unless the call sets a cap (Glob and Grep keep
// the default 100).
func TestEachReturnsEverything(t *testing.T) {
	files := map[string]string{}
	for i := range 250 {
		files[fmt.Sprintf("f%03d.txt", i)] = "x\n"
	}
	r := newRunner(t, host.NewConfig().WithRoot("/w", testtree.New(t, files)))
	ctx := context.Background()
	count := func(n *int) func(host.Item) error { return func(host.Item) error { *n++; return nil } }
	var globbed, grepped, capped int
	if _, err := r.GlobEach(ctx, host.GlobArgs{Pattern: "*.txt"}, count(&globbed)); err != nil {
		t.Fatal(err)
	}
	if _, err := r.GrepEach(ctx, host.GrepArgs{Pattern: "x"}, count(&grepped)); err != nil {
		t.Fatal(err)
	}
	res, err := r.GrepEach(ctx, host.GrepArgs{Pattern: "x", MaxResults: 7}, count(&capped))
	if err != nil {
		t.Fatal(err)
	}
	if globbed != 250 || grepped != 250 || capped != 7 || !res.Done.Truncated {
		t.Errorf("GlobEach %d, GrepEach %d, GrepEach with a cap of 7: %d (truncated %v); want 250, 250, 7 (true)", globbed, grepped, capped, res.Done.Truncated)
	}
	if res, _ := r.Glob(ctx, host.GlobArgs{Pattern: "*.txt"}); len(res.Items) != 100 {
		t.Errorf("Glob kept %d results, want the default 100", len(res.Items))
	}
}

// TestNoBinariesTracked: the repository tracks no compiled test binary or
// other executable (the committed module, host/rootbound.wasm, aside).
func TestNoBinariesTracked(t *testing.T) {
	out, err := exec.Command("git", "-C", "..", "ls-files", "-z").Output()
	if err != nil {
		t.Skip("not a git checkout:", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if strings.HasSuffix(name, ".test") {
			t.Errorf("%s is tracked: a compiled test binary", name)
			continue
		}
		f, err := os.Open("../" + name)
		if err != nil {
			continue // deleted in the work tree
		}
		head := make([]byte, 4)
		n, _ := f.Read(head)
		f.Close()
		if bytes.Equal(head[:n], []byte("\x7fELF")) {
			t.Errorf("%s is tracked: an executable", name)
		}
	}
}

// TestHostPathsMapped: a path argument, or a glob's leading directory,
// written as a host path inside a root's directory is taken as the same
// place below the root's name, whether the directory was given through a
// symbolic link or not; any other absolute path stays refused, naming the
// roots.
func TestHostPathsMapped(t *testing.T) {
	dir := testtree.New(t, map[string]string{"src/a.go": "package a // TODO\n"})
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, host.NewConfig().WithRoot("/workspace", link).WithRoot("/docs", t.TempDir()))
	tools := host.NewTools(r)
	for _, tc := range []struct {
		tool, args, want string
	}{
		{"grep", `{"pattern":"TODO","path":"` + link + `/src","output_mode":"content"}`, "in \"/workspace/src\":\nsrc/a.go:1:package a // TODO\n"},
		{"grep", `{"pattern":"TODO","path":"` + real + `"}`, "\nsrc/a.go\n"},
		{"glob", `{"pattern":"` + real + `/src/*.go"}`, "\nsrc/a.go\n"},
		{"glob", `{"pattern":"*.go","path":"` + filepath.Dir(real) + `"}`, "[Error (outside_root): path " + `"` + filepath.Dir(real) + `" is outside the readable roots (/workspace, /docs)]`},
	} {
		if text, _ := tools.Call(context.Background(), tc.tool, []byte(tc.args)); !strings.Contains(text, tc.want) {
			t.Errorf("%s %s:\n%s\nwant %q", tc.tool, tc.args, text, tc.want)
		}
	}
}

// TestArgumentAliases: the names Claude Code's and gemini-cli's tools give
// arguments are taken as the options they mean; an unknown name is refused
// with the list of the tool's arguments; description goes into the audit.
func TestArgumentAliases(t *testing.T) {
	var audit []host.AuditRecord
	dir := testtree.New(t, map[string]string{"src/a.go": "a\nTODO x\nb\n", "src/b.txt": "todo\n", "docs/c.md": "TODO\n"})
	r := newRunner(t, host.NewConfig().WithRoot("/w", dir).WithAudit(func(a host.AuditRecord) { audit = append(audit, a) }))
	tools := host.NewTools(r)
	calledAliases := ""
	for _, tc := range []struct {
		name, tool, alias, canonical string
	}{
		{"-i", "grep", `{"pattern":"todo","-i":true}`, `{"pattern":"todo","case":"insensitive"}`},
		{"-i false", "grep", `{"pattern":"todo","-i":false}`, `{"pattern":"todo"}`},
		{"-n", "grep", `{"pattern":"TODO","output_mode":"content","-n":true}`, `{"pattern":"TODO","output_mode":"content"}`},
		{"-A -B -C", "grep", `{"pattern":"TODO","output_mode":"content","-A":1,"-B":1}`, `{"pattern":"TODO","output_mode":"content","after_context":1,"before_context":1}`},
		{"-C", "grep", `{"pattern":"TODO","output_mode":"content","-C":1}`, `{"pattern":"TODO","output_mode":"content","context":1}`},
		{"head_limit", "grep", `{"pattern":"TODO","head_limit":1}`, `{"pattern":"TODO","max_results":1}`},
		{"head_limit 0", "glob", `{"pattern":"*","head_limit":0}`, `{"pattern":"*"}`},
		{"include", "grep", `{"pattern":"TODO","include":"*.go"}`, `{"pattern":"TODO","glob":"*.go"}`},
		{"dir_path", "glob", `{"pattern":"*","dir_path":"src"}`, `{"pattern":"*","path":"src"}`},
		{"case_sensitive grep", "grep", `{"pattern":"todo","case_sensitive":false}`, `{"pattern":"todo","case":"insensitive"}`},
		{"case_sensitive glob", "glob", `{"pattern":"*.GO","case_sensitive":false}`, `{"pattern":"*.GO","case_insensitive":true}`},
		{"respect_git_ignore", "glob", `{"pattern":"*","respect_git_ignore":false}`, `{"pattern":"*","no_ignore":true}`},
		{"description", "glob", `{"pattern":"*","description":"find the sources"}`, `{"pattern":"*"}`},
		{"description", "grep", `{"pattern":"x","description":"d"}`, `{"pattern":"x"}`},
		{"description", "read", `{"path":"src/a.go","description":"d"}`, `{"path":"src/a.go"}`},
		{"description", "list", `{"description":"d"}`, `{}`},
		{"description", "stat", `{"path":"src/a.go","description":"d"}`, `{"path":"src/a.go"}`},
		{"head_limit", "glob", `{"pattern":"*","head_limit":1}`, `{"pattern":"*","max_results":1}`},
		{"dir_path", "grep", `{"pattern":"TODO","dir_path":"src"}`, `{"pattern":"TODO","path":"src"}`},
		{"dir_path", "list", `{"dir_path":"src"}`, `{"path":"src"}`},
		{"respect_git_ignore", "grep", `{"pattern":"TODO","respect_git_ignore":false}`, `{"pattern":"TODO","no_ignore":true}`},
		{"respect_git_ignore", "list", `{"respect_git_ignore":false}`, `{"no_ignore":true}`},
		{"include_pattern", "grep", `{"pattern":"TODO","include_pattern":"*.go"}`, `{"pattern":"TODO","glob":"*.go"}`},
		{"names_only", "grep", `{"pattern":"TODO","names_only":true}`, `{"pattern":"TODO","output_mode":"files_with_matches"}`},
		{"names_only false", "grep", `{"pattern":"TODO","names_only":false}`, `{"pattern":"TODO","output_mode":"content"}`},
		{"total_max_matches", "grep", `{"pattern":"TODO","total_max_matches":1}`, `{"pattern":"TODO","max_results":1}`},
		{"max_matches_per_file", "grep", `{"pattern":"[a-z]","output_mode":"content","max_matches_per_file":1}`, `{"pattern":"[a-z]","output_mode":"content","max_count":1}`},
		{"fixed_strings", "grep", `{"pattern":"x.","fixed_strings":true}`, `{"pattern":"x.","literal":true}`},
		{"after before", "grep", `{"pattern":"TODO","output_mode":"content","after":1,"before":1}`, `{"pattern":"TODO","output_mode":"content","after_context":1,"before_context":1}`},
		{"after alone: lines, as gemini-cli answers", "grep", `{"pattern":"TODO","after":1}`, `{"pattern":"TODO","output_mode":"content","after_context":1}`},
		{"before, files asked for", "grep", `{"pattern":"TODO","before":1,"output_mode":"files_with_matches"}`, `{"pattern":"TODO","output_mode":"files_with_matches"}`},
		{"file_path", "read", `{"file_path":"src/a.go"}`, `{"path":"src/a.go"}`},
		{"absolute_path", "read", `{"absolute_path":"/w/src/a.go"}`, `{"path":"/w/src/a.go"}`},
		{"start_line end_line", "read", `{"file_path":"src/a.go","start_line":2,"end_line":3}`, `{"path":"src/a.go","offset":2,"limit":2}`},
		{"end_line alone", "read", `{"file_path":"src/a.go","end_line":2}`, `{"path":"src/a.go","limit":2}`},
		{"ignore", "list", `{"ignore":["*.txt"],"depth":2}`, `{"exclude":["*.txt"],"depth":2}`},
	} {
		for _, name := range aliasNames(tc.alias, tc.canonical) {
			calledAliases += "|" + tc.tool + " " + name + "|"
		}
		got, _ := tools.Call(context.Background(), tc.tool, []byte(tc.alias))
		want, _ := tools.Call(context.Background(), tc.tool, []byte(tc.canonical))
		if got != want || strings.HasPrefix(got, "[Error") {
			t.Errorf("%s: %s gives\n%s\nwant, as %s,\n%s", tc.name, tc.alias, got, tc.canonical, want)
		}
		// A program speaking the protocol for a model (serve) is
		// understood as the tools understand it.
		serve := func(args string) string {
			var out bytes.Buffer
			line := `{"v":1,"id":"1","` + tc.tool + `":` + args + "}\n"
			if err := r.Serve(context.Background(), strings.NewReader(line), &out); err != nil {
				t.Fatal(err)
			}
			return out.String()
		}
		if got, want := serve(tc.alias), serve(tc.canonical); got != want || strings.Contains(got, `"error"`) {
			t.Errorf("%s: served, %s gives\n%s\nwant, as %s,\n%s", tc.name, tc.alias, got, tc.canonical, want)
		}
	}
	// Every agent's spelling of every tool that takes it is called above.
	for _, a := range options.Aliases {
		for _, tool := range options.All {
			if a.Tools&tool == 0 || a.Name == "-n" {
				continue
			}
			if !strings.Contains(calledAliases, "|"+options.Names[tool]+" "+a.Name+"|") {
				t.Errorf("no test calls %s with %q (%s)", options.Names[tool], a.Name, a.From)
			}
		}
	}
	found := false
	for _, a := range audit {
		found = found || a.Description == "find the sources" && strings.Contains(a.String(), `description="find the sources"`)
	}
	if !found {
		t.Error("no audit record carries the description")
	}
	for _, tc := range []struct{ tool, args, want string }{
		{"grep", `{"pattern":"x","-A":1,"after_context":2}`, `"-A" and "after_context" both set after_context`},
		{"read", `{"path":"src/a.go","offset":0}`, `offset: lines are numbered from 1 here`},
		{"grep", `{"pattern":"x","-i":true,"case_sensitive":true}`, `both set case`},
		{"grep", `{"pattern":"x","-A":"two"}`, `after_context: want an integer, not a string (given as "-A")`},
		{"grep", `{"pattern":"x","recursive":true,"Path":"a"}`, `unknown arguments "Path", "recursive"; the arguments are pattern, literal, path, glob,`},
		{"glob", `{"pattern":"x","include":"*.go"}`, `unknown argument "include"; the arguments are pattern, path,`},
	} {
		if text, _ := tools.Call(context.Background(), tc.tool, []byte(tc.args)); !strings.Contains(text, tc.want) {
			t.Errorf("%s %s:\n%s\nwant %q", tc.tool, tc.args, text, tc.want)
		}
	}
}

// aliasNames returns the names of alias's arguments that canonical lacks:
// what a row of TestArgumentAliases calls.
func aliasNames(alias, canonical string) []string {
	var a, c map[string]any
	json.Unmarshal([]byte(alias), &a)
	json.Unmarshal([]byte(canonical), &c)
	var names []string
	for k := range a {
		if _, ok := c[k]; !ok {
			names = append(names, k)
		}
	}
	return names
}

// TestGlobHint: a glob with "/" that finds nothing, where "**/" before it
// would, says so.
func TestGlobHint(t *testing.T) {
	r := newRunner(t, host.NewConfig().WithRoot("/w", testtree.New(t, map[string]string{"skills/pdf/SKILL.md": "x", "README.md": "x"})))
	tools := host.NewTools(r)
	for _, tc := range []struct{ args, want string }{
		{`{"pattern":"*/SKILL.md"}`, `[Hint: a pattern with / matches the path from the search path, and * never crosses a /: "**/*/SKILL.md" matches skills/pdf/SKILL.md.]`},
		{`{"pattern":"nope/*.md"}`, "No files match \"nope/*.md\" in \"/w\".\n"},
		{`{"pattern":"*.txt"}`, "No files match \"*.txt\" in \"/w\".\n"},
	} {
		text, _ := tools.Call(context.Background(), "glob", []byte(tc.args))
		if !strings.Contains(text, tc.want) || tc.want[0] == 'N' && strings.Contains(text, "Hint") {
			t.Errorf("%s:\n%s\nwant %q", tc.args, text, tc.want)
		}
	}
}

// TestWords: counts read as words (no "1 files"), a pattern is quoted as
// it was typed, the header and the notices name the search root alike, and
// no error speaks of Go: no package prefix, no Go type.
func TestWords(t *testing.T) {
	dir := testtree.New(t, map[string]string{"x.go": "WithRoot(\nWithRoot(\n", "y.go": "WithRoot(\n"})
	r := newRunner(t, host.NewConfig().WithRoot("/workspace", dir))
	tools := host.NewTools(r)
	call := func(tool, args string) string {
		text, _ := tools.Call(context.Background(), tool, []byte(args))
		return text
	}
	text := call("grep", `{"pattern":"WithRoot\\(","output_mode":"content","max_results":1}`)
	for _, want := range []string{
		"The first matching line for \"WithRoot\\(\" in \"/workspace\":\n",
		"[Truncated: showing the first result; more than 1 line matches in /workspace:",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("%s\nwant %q", text, want)
		}
	}
	if text := call("glob", `{"pattern":"*.go","max_results":1}`); !strings.Contains(text, "more than 1 file matches \"*.go\" in /workspace") {
		t.Errorf("%s\nwant one file, in /workspace", text)
	}
	for _, args := range [][2]string{
		{"grep", `{"pattern":"x","max_results":"5"}`},
		{"grep", `{"pattern":"x","type":"nope"}`},
		{"grep", `{"pattern":"("}`},
		{"glob", `{"pattern":"[z-a]"}`},
		{"glob", `{"pattern":"*","sort":"size"}`},
		{"grep", `{"pattern":"x","context":2000}`},
	} {
		text := call(args[0], args[1])
		if !strings.HasPrefix(text, "[Error (") {
			t.Errorf("%s %s: %s, want an error", args[0], args[1], text)
		}
		for _, bad := range []string{"host:", "match:", "ignore:", "protocol:", "json:", "Go struct", "of type int", "server:"} {
			if strings.Contains(text, bad) {
				t.Errorf("%s %s: %q speaks of Go (%q)", args[0], args[1], text, bad)
			}
		}
	}
	var got []byte
	for _, line := range []string{
		`{"v":1,"id":"1","grep":{"pattern":"x","max_results":"5"}}`,
		`{"v":1,"id":"2","grep":{"pattern":"x","bogus":1}}`,
	} {
		var out bytes.Buffer
		if err := r.Serve(context.Background(), strings.NewReader(line+"\n"), &out); err != nil {
			t.Fatal(err)
		}
		got = append(got, out.Bytes()...)
	}
	for _, want := range []string{`grep.max_results: want an integer, not a string`, `unknown field \"grep.bogus\" (the fields here: pattern,`} {
		if !bytes.Contains(got, []byte(want)) {
			t.Errorf("Serve:\n%s\nwant %q", got, want)
		}
	}
	if bytes.Contains(got, []byte("Go struct")) {
		t.Errorf("Serve speaks of Go:\n%s", got)
	}
}
