package host_test

import (
	"bytes"
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/internal/testtree"
)

// TestRootPolicy: a root's deny list and hidden policy hold for every
// call, whatever it asks, and through Serve, whatever a request line says.
func TestRootPolicy(t *testing.T) {
	dir := testtree.New(t, map[string]string{
		"a.go":           "TODO\n",
		".env":           "TODO\n",
		"secrets/key":    "TODO\n",
		"cert.pem":       "TODO\n",
		"tmp/scratch.go": "TODO\n",
	})
	yes := true
	r := newRunner(t, host.NewConfig().WithRoot("/workspace", dir).WithRootPolicy("/workspace", host.RootPolicy{
		HideHidden: true,
		Deny:       []string{"secrets/", "*.pem"},
		Ignore:     []host.IgnoreRules{{Kind: "global", Rules: "tmp/\n"}},
	}))
	ctx := context.Background()
	res, err := r.Grep(ctx, host.GrepArgs{Pattern: "TODO", Hidden: &yes, NoIgnore: true})
	if err != nil || !slices.Equal(paths(res), []string{"a.go", "tmp/scratch.go"}) {
		t.Errorf("grep: %v %q", err, paths(res))
	}
	if s := res.Done.Skipped; s.Denied != 2 || s.Hidden != 1 || s.Ignored != 0 {
		t.Errorf("skipped %+v", s)
	}
	res, _ = r.Glob(ctx, host.GlobArgs{Pattern: "*"})
	if !slices.Equal(paths(res), []string{"a.go"}) || res.Done.Skipped.Ignored != 1 {
		t.Errorf("glob: %q, %+v", paths(res), res.Done.Skipped)
	}
	for _, p := range []string{"secrets", "cert.pem", ".env"} {
		if _, err := r.Grep(ctx, host.GrepArgs{Pattern: "TODO", Path: p}); code(err) != host.CodeOutsideRoot {
			t.Errorf("path %s: %v, want outside_root", p, err)
		}
	}
	var out bytes.Buffer
	line := `{"v":1,"id":"1","grep":{"pattern":"TODO"},"policy":[{"root":"/workspace"}]}` + "\n"
	if err := r.Serve(ctx, strings.NewReader(line), &out); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); strings.Contains(s, "cert.pem") || strings.Contains(s, "secrets") || !strings.Contains(s, `"denied":2`) {
		t.Errorf("Serve let a request line set the policy:\n%s", s)
	}
	if _, err := host.NewRunner(ctx, host.NewConfig().WithRoot("/w", dir).WithRootPolicy("/x", host.RootPolicy{})); err == nil {
		t.Error("a policy for a root that does not exist was taken")
	}
}

// TestOutsideIgnoreRules: the rules of the directories above a root, as
// ripgrep reads them: .gitignore up to the repository's top, .ignore and
// .rgignore beyond it, the repository's info/exclude, the global excludes.
func TestOutsideIgnoreRules(t *testing.T) {
	top := testtree.New(t, map[string]string{
		".ignore":                 "*.tmp\n",
		"repo/.git/info/exclude":  "*.swp\n",
		"repo/.gitignore":         "/sub/gen/\n",
		"repo/sub/a.go":           "x\n",
		"repo/sub/gen/g.go":       "x\n",
		"repo/sub/x.tmp":          "x\n",
		"repo/sub/x.swp":          "x\n",
		"repo/sub/x.bak":          "x\n",
		"config/git/ignore":       "*.bak\n",
		"outside-repo/.gitignore": "never read: above the repository\n",
		"outside-repo/.rgignore":  "!keep\n",
	})
	// The tree's top has a .gitignore above the repository: not read.
	os.WriteFile(filepath.Join(top, ".gitignore"), []byte("*.go\n"), 0o644)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(top, "config"))
	t.Setenv("HOME", filepath.Join(top, "config"))
	root := filepath.Join(top, "repo", "sub")
	rules, err := host.OutsideIgnoreRules(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rules {
		if strings.Contains(r.Source, top) {
			t.Errorf("a source names a host path: %q", r.Source)
		}
		got = append(got, r.Kind+" "+r.Base+" "+r.Source)
	}
	want := []string{
		"gitignore sub ../.gitignore",
		"exclude sub ../.git/info/exclude",
		"ignore repo/sub ../../.ignore",
		"global sub the global excludes (core.excludesFile)",
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("missing %q in %q", w, got)
		}
	}
	r := newRunner(t, host.NewConfig().WithRoot("/workspace", root).WithRootPolicy("/workspace", host.RootPolicy{Ignore: rules}))
	res, err := r.Glob(context.Background(), host.GlobArgs{Pattern: "*"})
	if err != nil || !slices.Equal(paths(res), []string{"a.go"}) || res.Done.Skipped.Ignored != 4 {
		t.Errorf("glob with the outside rules: %v %q %+v", err, paths(res), res.Done.Skipped)
	}
}

// TestDefaultSkips: node_modules, __pycache__ and .venv are left out of
// every root by default, where no ignore file names them, and counted as
// ignored; a call's no_ignore takes them in, a .gitignore can take one
// back, and WithDefaultSkips(false) turns them off.
func TestDefaultSkips(t *testing.T) {
	tree := map[string]string{
		"src/a.js":                "needle\n",
		"node_modules/p/index.js": "needle\n",
		"web/node_modules/q.js":   "needle\n",
		"__pycache__/a.pyc":       "needle\n",
		".venv/lib/site.py":       "needle\n",
	}
	ctx := context.Background()
	for _, tt := range []struct {
		name      string
		cfg       func(host.Config) host.Config
		extra     map[string]string
		args      host.GlobArgs
		want      []string
		ignored   int64
		ignoredBy string
	}{
		{name: "left out by default, counted", want: []string{"src/a.js"}, ignored: 4},
		{name: "no_ignore takes them in", args: host.GlobArgs{NoIgnore: true},
			want: []string{".venv/lib/site.py", "__pycache__/a.pyc", "node_modules/p/index.js", "src/a.js", "web/node_modules/q.js"}},
		{name: "a .gitignore takes one back", extra: map[string]string{".gitignore": "!node_modules/\n"},
			want: []string{".gitignore", "node_modules/p/index.js", "src/a.js", "web/node_modules/q.js"}, ignored: 2},
		{name: "off", cfg: func(c host.Config) host.Config { return c.WithDefaultSkips(false) },
			want: []string{".venv/lib/site.py", "__pycache__/a.pyc", "node_modules/p/index.js", "src/a.js", "web/node_modules/q.js"}},
		{name: "a path inside one is searched, and says why it would be left out", args: host.GlobArgs{Path: "node_modules"},
			want: []string{"node_modules/p/index.js"}, ignoredBy: "default skips"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			files := maps.Clone(tree)
			maps.Copy(files, tt.extra)
			cfg := host.NewConfig().WithRoot("/w", testtree.New(t, files))
			if tt.cfg != nil {
				cfg = tt.cfg(cfg)
			}
			r, err := host.NewRunner(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close(ctx)
			args := tt.args
			args.Pattern, args.Sort = "*", host.SortPath
			res, err := r.Glob(ctx, args)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range res.Items {
				got = append(got, string(it.Path))
			}
			if !slices.Equal(got, tt.want) || res.Done.Skipped.Ignored != tt.ignored || !strings.Contains(res.Done.IgnoredBy, tt.ignoredBy) {
				t.Errorf("got %q, %d ignored (%q); want %q, %d ignored (%q)", got, res.Done.Skipped.Ignored, res.Done.IgnoredBy, tt.want, tt.ignored, tt.ignoredBy)
			}
		})
	}
}
