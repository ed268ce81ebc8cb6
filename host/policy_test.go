package host_test

import (
	"bytes"
	"context"
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
