package ignore

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rootbound/rootbound/internal/match"
	"github.com/rootbound/rootbound/internal/meter"
)

// Types picks files by ripgrep's file types (typeTable, the whole of
// ripgrep 13's list): Keep takes only files of the kept types, Drop leaves
// out files of the dropped ones, and a file of both is left out. As in
// ripgrep, types say nothing of directories.
type Types struct {
	keep, drop *match.Glob // nil: no type named
}

// CompileTypes compiles the types named. An unknown name is an error that
// lists the known names closest to it.
func CompileTypes(keep, drop []string) (*Types, error) {
	t := &Types{}
	var err error
	if t.keep, err = typesGlob(keep); err != nil {
		return nil, err
	}
	if t.drop, err = typesGlob(drop); err != nil {
		return nil, err
	}
	return t, nil
}

// typesGlob is one glob, "{g1,g2,...}", of every glob of the types named:
// a base name is matched once, by one DFA, however many types there are.
func typesGlob(names []string) (*match.Glob, error) {
	if len(names) == 0 {
		return nil, nil
	}
	var globs []string
	for _, n := range names {
		g := TypeGlobs(n)
		if g == nil {
			return nil, fmt.Errorf("unknown file type %q (known types include %s; ripgrep's names)", n, strings.Join(closeTypes(n), ", "))
		}
		globs = append(globs, g...)
	}
	slices.Sort(globs)
	globs = slices.Compact(globs)
	return match.CompileGlobAny(globs, false)
}

// closeTypes names a few known types near n: those it starts or ends
// with, or that start with it, then those sharing its first letter.
func closeTypes(n string) []string {
	var near, first []string
	for _, t := range typeTable {
		switch {
		case n == "":
		case strings.HasPrefix(n, t.name) || strings.HasPrefix(t.name, n) || strings.HasSuffix(n, t.name):
			near = append(near, t.name)
		case t.name[0] == n[0]:
			first = append(first, t.name)
		}
	}
	out := append(near, first...)
	if len(out) == 0 {
		out = []string{"go", "py", "js", "ts", "rust", "java", "c", "cpp", "md"}
	}
	return out[:min(len(out), 8)]
}

// SetMeter charges matching to m.
func (t *Types) SetMeter(m *meter.Meter) {
	for _, g := range []*match.Glob{t.keep, t.drop} {
		if g != nil {
			g.Meter = m
		}
	}
}

// Empty reports whether no type was named.
func (t *Types) Empty() bool { return t.keep == nil && t.drop == nil }

// Match reports whether a file named name (its base name) is taken.
func (t *Types) Match(name string) bool {
	if t.drop != nil && t.drop.Match(name) {
		return false
	}
	return t.keep == nil || t.keep.Match(name)
}

// fileType is a type's name and its globs.
type fileType struct {
	name  string
	globs []string
}

// TypeNames lists the known types, sorted.
func TypeNames() []string {
	names := make([]string, len(typeTable))
	for i, t := range typeTable {
		names[i] = t.name
	}
	return names
}

// TypeGlobs returns the globs of the type name (nil for an unknown name).
func TypeGlobs(name string) []string {
	i, ok := slices.BinarySearchFunc(typeTable, name, func(t fileType, n string) int { return strings.Compare(t.name, n) })
	if !ok {
		return nil
	}
	return slices.Clone(typeTable[i].globs)
}
