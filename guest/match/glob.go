// Package match compiles the patterns of a call: globs, which pick files by
// name or path, and regular expressions or literals, which find lines. It does
// no I/O, so every parser here is fuzzed without a file system.
//
// Globs use github.com/bmatcuk/doublestar: "*", "?", "**", "[a-z]", "{a,b}",
// with "*" never crossing "/". Regular expressions are Go's RE2 syntax.
package match

import (
	"fmt"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// MaxPatternBytes bounds any pattern. Longer ones are refused: no source
// tree needs them, and a bound keeps matching cost predictable.
const MaxPatternBytes = 4096

// PatternError is a pattern that does not compile.
type PatternError struct {
	Kind    string // "glob" or "regex"
	Pattern string
	Reason  string
}

func (e *PatternError) Error() string {
	p := e.Pattern
	if len(p) > 80 {
		p = p[:80] + "…"
	}
	return fmt.Sprintf("match: invalid %s %q: %s", e.Kind, p, e.Reason)
}

// Glob is a compiled glob. Without "/" it matches a base name at any depth;
// with "/" it matches the whole path relative to the search root (a leading
// "/" only anchors and is dropped).
type Glob struct {
	pattern  string
	basename bool
}

// CompileGlob validates pattern and returns its matcher.
func CompileGlob(pattern string) (*Glob, error) {
	bad := func(reason string) error { return &PatternError{Kind: "glob", Pattern: pattern, Reason: reason} }
	switch {
	case pattern == "":
		return nil, bad("empty pattern")
	case len(pattern) > MaxPatternBytes:
		return nil, bad(fmt.Sprintf("longer than %d bytes", MaxPatternBytes))
	case strings.IndexByte(pattern, 0) >= 0:
		return nil, bad("contains a NUL byte")
	}
	p := strings.TrimPrefix(pattern, "/")
	if p == "" {
		return nil, bad("matches no file")
	}
	if !doublestar.ValidatePattern(p) {
		return nil, bad("unbalanced [ ] or { }, or a trailing \\")
	}
	return &Glob{pattern: p, basename: !strings.Contains(pattern, "/")}, nil
}

// Match reports whether rel, a slash-separated path relative to the search
// root, matches.
func (g *Glob) Match(rel string) bool {
	if g.basename {
		rel = path.Base(rel)
	}
	return doublestar.MatchUnvalidated(g.pattern, rel)
}

// String returns the pattern as given.
func (g *Glob) String() string { return g.pattern }
