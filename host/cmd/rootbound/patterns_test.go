package main

import (
	"regexp"
	"testing"

	"github.com/rootbound/rootbound/internal/match"
)

// TestRegexGlob: a glob written as fd's regular expression is read as one,
// and the glob it is turned into matches the names the expression matches
// (Go's regexp, searching a part of a name as fd's does, is the oracle).
func TestRegexGlob(t *testing.T) {
	names := []string{"zip.go", "zipfile.go", "azip.go", "zip.go.bak", "zip", "zipgo", "a.go", ".go", "b.rs", "zip_test.go",
		"Zip.go", "a+b", "ab", "x$", "main.c", "a.b.c", "[x].go", "-z.go"}
	for _, tc := range []struct {
		pattern string
		regex   bool // read as a regular expression
		glob    string
	}{
		{pattern: `^zip.*\.go$`, regex: true, glob: "zip*.go"},
		{pattern: `zip.*\.go`, regex: true, glob: "*zip*.go*"},
		{pattern: `\.go$`, regex: true, glob: "*.go"},
		{pattern: `^zip`, regex: true, glob: "zip*"},
		{pattern: `^[^a].*\.go$`, regex: true, glob: "[!a]*.go"},
		{pattern: `^.+\.c$`, regex: true, glob: "?*.c"},
		{pattern: `^a\+b$`, regex: true, glob: "a+b"},
		{pattern: `^\[x\]\.go$`, regex: true, glob: `\[x\].go`},
		{pattern: `^(zip|foo)\.go$`, regex: true},
		{pattern: `a+b`, regex: true},
		{pattern: `\d+\.go`, regex: true},
		{pattern: "*.go"},
		{pattern: "zip"},
		{pattern: "**/.*"},
		{pattern: "{a,b}.go"},
	} {
		g, isRegex, ok := regexGlob(tc.pattern)
		if isRegex != tc.regex || ok != (tc.glob != "") || g != tc.glob {
			t.Errorf("regexGlob(%q) = %q, %v, %v; want %q, %v", tc.pattern, g, isRegex, ok, tc.glob, tc.regex)
			continue
		}
		if !ok {
			continue
		}
		re := regexp.MustCompile(tc.pattern)
		m, err := match.CompileGlob(g, false)
		if err != nil {
			t.Fatalf("%q: %v", g, err)
		}
		for _, n := range names {
			if re.MatchString(n) != m.Match(n) {
				t.Errorf("%q: %s matches %q: %v; the glob %s: %v", tc.pattern, "the expression", n, re.MatchString(n), g, m.Match(n))
			}
		}
	}
}
