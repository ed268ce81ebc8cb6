package match

import (
	"strings"

	"github.com/rootbound/rootbound/guest/meter"
)

// Filter picks files by a list of globs, with ripgrep's -g semantics: a
// glob that starts with "!" excludes what it matches; the last glob that
// matches a path decides; a path no glob matches is taken unless some glob
// is an inclusion. So "*.go" takes only Go files, "!*_test.go" everything
// but Go tests, and "*.go", "!*_test.go" Go files that are not tests.
type Filter struct {
	globs    []*Glob
	exclude  []bool
	includes bool
}

// CompileFilter compiles globs in order. An empty list takes every path.
func CompileFilter(globs []string) (*Filter, error) {
	f := &Filter{}
	for _, g := range globs {
		pattern, exclude := strings.CutPrefix(g, "!")
		compiled, err := CompileGlob(pattern)
		if err != nil {
			if pe, ok := err.(*PatternError); ok {
				pe.Pattern = g
			}
			return nil, err
		}
		f.globs = append(f.globs, compiled)
		f.exclude = append(f.exclude, exclude)
		f.includes = f.includes || !exclude
	}
	return f, nil
}

// SetMeter charges every glob's matching to m.
func (f *Filter) SetMeter(m *meter.Meter) {
	for _, g := range f.globs {
		g.Meter = m
	}
}

// Match reports whether rel, a path relative to the search root, is taken.
func (f *Filter) Match(rel string) bool {
	for i := len(f.globs) - 1; i >= 0; i-- {
		if f.globs[i].Match(rel) {
			return !f.exclude[i]
		}
	}
	return !f.includes
}
