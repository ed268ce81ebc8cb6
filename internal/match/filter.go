package match

import (
	"strings"

	"github.com/rootbound/rootbound/internal/meter"
)

// Filter picks files by a list of globs, with ripgrep's -g semantics: a
// glob that starts with "!" excludes what it matches; the last glob that
// matches a path decides; a file no glob matches is taken unless some glob
// is an inclusion. So "*.go" takes only Go files, "!*_test.go" everything
// but Go tests, and "*.go", "!*_test.go" Go files that are not tests.
type Filter struct {
	globs    []*Glob
	exclude  []bool
	includes bool
}

// CompileFilter compiles globs in order; fold matches without regard to
// case. An empty list takes every path. It charges m (which may be nil)
// as it compiles, and stops with m's error: compiling a long list is work
// a call's deadline sees.
func CompileFilter(globs []string, fold bool, m *meter.Meter) (*Filter, error) {
	f := &Filter{}
	for _, g := range globs {
		if err := m.Spend(compileCost * len(g)); err != nil {
			return nil, err
		}
		pattern, exclude := strings.CutPrefix(g, "!")
		compiled, err := CompileGlob(pattern, fold)
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

// compileCost is what compiling a glob charges a meter, per byte: compiling
// takes about as long as scanning that many bytes.
const compileCost = 64

// SetMeter charges every glob's matching to m.
func (f *Filter) SetMeter(m *meter.Meter) {
	for _, g := range f.globs {
		g.Meter = m
	}
}

// Then returns a filter of f's globs, then g's: the last that matches a
// path decides. Either may be nil (no globs).
func (f *Filter) Then(g *Filter) *Filter {
	switch {
	case f == nil:
		return g
	case g == nil:
		return f
	}
	return &Filter{globs: append(f.globs[:len(f.globs):len(f.globs)], g.globs...),
		exclude: append(f.exclude[:len(f.exclude):len(f.exclude)], g.exclude...), includes: f.includes || g.includes}
}

// Decision is what a Filter says of a path.
type Decision uint8

const (
	Undecided Decision = iota // no glob matches, and the path is not left out for it
	Take                      // the last glob that matches is an inclusion
	Drop                      // the last glob that matches is an exclusion, or none matches a file and some glob is an inclusion
)

// Decide says what the globs say of rel, a path relative to the search
// root, as ripgrep's overrides do: a file no glob matches is dropped when
// some glob is an inclusion, a directory is not (its files may match).
// alt, when not empty, is the same path as results show it, which a glob
// may match instead.
func (f *Filter) Decide(rel, alt string, isDir bool) Decision {
	for i := len(f.globs) - 1; i >= 0; i-- {
		if f.globs[i].Match(rel) || alt != "" && f.globs[i].Match(alt) {
			if f.exclude[i] {
				return Drop
			}
			return Take
		}
	}
	if f.includes && !isDir {
		return Drop
	}
	return Undecided
}
