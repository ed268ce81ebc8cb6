package host_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/internal/testtree"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestText renders real calls and compares them with golden files in
// testdata/render (rewrite them with -update).
func TestText(t *testing.T) {
	dir := testtree.New(t, map[string]string{
		"a.go":                  "package a\n// TODO: one\n",
		"b.go":                  "package b\n// TODO: two\n// TODO: three\n",
		"bin.dat":               "TODO\x00",
		"x\nsrc/main.go:1:fake": "TODO forged\n",
		"esc\x1b[31m.txt":       "TODO \x1b[2J clear\n",
		"link":                  "->a.go",
		".gitignore":            "build/\n*.log\n",
		"build/out.go":          "TODO built\n",
		"x.log":                 "TODO log\n",
		".hidden/h.go":          "TODO hidden\n",
		"key.pem":               "TODO key\n",
	})
	r := newRunner(t, host.NewConfig().WithRoot("/workspace", dir))
	hiding := newRunner(t, host.NewConfig().WithRoot("/workspace", dir).
		WithRootPolicy("/workspace", host.RootPolicy{HideHidden: true, Deny: []string{"*.pem"}}))
	no := false
	ctx := context.Background()
	calls := []struct {
		name string
		run  func() (*host.Result, error)
	}{
		{"glob", func() (*host.Result, error) { return r.Glob(ctx, host.GlobArgs{Pattern: "*.go"}) }},
		{"glob_none", func() (*host.Result, error) { return r.Glob(ctx, host.GlobArgs{Pattern: "*.rs"}) }},
		{"glob_truncated", func() (*host.Result, error) { return r.Glob(ctx, host.GlobArgs{Pattern: "*", MaxResults: 2}) }},
		{"glob_invalid", func() (*host.Result, error) { return r.Glob(ctx, host.GlobArgs{Pattern: "[a"}) }},
		{"grep_files", func() (*host.Result, error) { return r.Grep(ctx, host.GrepArgs{Pattern: "TODO"}) }},
		{"grep_content", func() (*host.Result, error) {
			return r.Grep(ctx, host.GrepArgs{Pattern: "TODO", OutputMode: "content"})
		}},
		{"grep_count", func() (*host.Result, error) { return r.Grep(ctx, host.GrepArgs{Pattern: "TODO", OutputMode: "count"}) }},
		{"grep_none", func() (*host.Result, error) { return r.Grep(ctx, host.GrepArgs{Pattern: "FIXME", Path: "."}) }},
		{"grep_outside", func() (*host.Result, error) { return r.Grep(ctx, host.GrepArgs{Pattern: "x", Path: "../.."}) }},
		{"glob_left_out", func() (*host.Result, error) { return r.Glob(ctx, host.GlobArgs{Pattern: "*.go", Hidden: &no}) }},
		{"glob_none_left_out", func() (*host.Result, error) { return r.Glob(ctx, host.GlobArgs{Pattern: "*.log"}) }},
		{"grep_policy", func() (*host.Result, error) { return hiding.Grep(ctx, host.GrepArgs{Pattern: "TODO"}) }},
		{"grep_named_ignored", func() (*host.Result, error) { return r.Grep(ctx, host.GrepArgs{Pattern: "TODO", Path: "build"}) }},
		{"grep_max_columns_preview", func() (*host.Result, error) {
			return r.Grep(ctx, host.GrepArgs{Pattern: "TODO", OutputMode: "content", MaxColumns: 10, MaxColumnsPreview: true, Glob: host.Strings{"*.go"}})
		}},
		{"grep_context", func() (*host.Result, error) {
			return r.Grep(ctx, host.GrepArgs{Pattern: "one|three", OutputMode: "content", Context: 1, Glob: host.Strings{"*.go"}})
		}},
		{"grep_only_matching", func() (*host.Result, error) {
			return r.Grep(ctx, host.GrepArgs{Pattern: `T\w+`, OutputMode: "content", OnlyMatching: true, Glob: host.Strings{"b.go"}})
		}},
		{"grep_page", func() (*host.Result, error) {
			return r.Grep(ctx, host.GrepArgs{Pattern: "TODO", OutputMode: "content", MaxResults: 2, Offset: 1})
		}},
		{"grep_count_matches", func() (*host.Result, error) {
			return r.Grep(ctx, host.GrepArgs{Pattern: "O", OutputMode: "count_matches", Glob: host.Strings{"*.go"}})
		}},
		{"grep_bad_combination", func() (*host.Result, error) {
			return r.Grep(ctx, host.GrepArgs{Pattern: "x", Invert: true, Multiline: true})
		}},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			res, _ := c.run()
			got := res.Text()
			if strings.Contains(got, dir) {
				t.Fatalf("text names the host directory:\n%s", got)
			}
			golden := filepath.Join("testdata", "render", c.name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if got != string(want) {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
