package rootbound

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestArchitecture: ARCHITECTURE.md's block of imports names every package
// of the module and exactly its imports of ours, as go list gives them on
// this system.
func TestArchitecture(t *testing.T) {
	const module = "github.com/rootbound/rootbound"
	doc, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, _ := strings.Cut(string(doc), "Imports go one way")
	_, block, _ = strings.Cut(block, "```\n")
	block, _, _ = strings.Cut(block, "```")
	said := map[string][]string{}
	remark := regexp.MustCompile(`\s*\(.*\)$`)
	for line := range strings.Lines(block) {
		pkg, deps, ok := strings.Cut(remark.ReplaceAllString(strings.TrimSpace(line), ""), "->")
		if !ok {
			t.Fatalf("ARCHITECTURE.md: %q is not PACKAGE -> IMPORTS", line)
		}
		var list []string
		if deps = strings.TrimSpace(deps); deps != "nothing of ours" {
			for _, d := range strings.Split(deps, ", ") {
				list = append(list, expand(d)...)
			}
		}
		slices.Sort(list)
		said[strings.TrimSpace(pkg)] = list
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...").Output()
	if err != nil {
		t.Fatal(err)
	}
	short := func(p string) string {
		if p == module {
			return "."
		}
		return strings.TrimPrefix(p, module+"/")
	}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		pkg := short(fields[0])
		var ours []string
		for _, imp := range fields[1:] {
			if imp == module || strings.HasPrefix(imp, module+"/") {
				ours = append(ours, short(imp))
			}
		}
		slices.Sort(ours)
		got, ok := said[pkg]
		switch {
		case !ok:
			t.Errorf("ARCHITECTURE.md does not name %s (it imports %v)", pkg, ours)
		case !slices.Equal(got, ours):
			t.Errorf("ARCHITECTURE.md: %s -> %v; go list: %v", pkg, got, ours)
		}
		delete(said, pkg)
	}
	for pkg := range said {
		t.Errorf("ARCHITECTURE.md names %s, which go list does not", pkg)
	}
}

// expand spells out "a/{b,c}" as "a/b", "a/c".
func expand(s string) []string {
	pre, rest, ok := strings.Cut(s, "{")
	if !ok {
		return []string{s}
	}
	alts, post, _ := strings.Cut(rest, "}")
	var out []string
	for _, a := range strings.Split(alts, ",") {
		out = append(out, pre+a+post)
	}
	return out
}
