package match

import (
	"bytes"
	"github.com/rootbound/rootbound/internal/meter"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestBacktrackAsPike: the backtracker finds what the Pike VM finds (the
// match, and capture group 1 as -w reads it), from every position of
// every text, over generated patterns and texts of a small alphabet where
// matches overlap and assertions decide; the Pike VM is held to Go's
// regexp by FuzzCompileLine.
func TestBacktrackAsPike(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	atoms := []string{"a", "b", "ab", "é", ".", `\w`, `\W`, "[ab]", "(a|bc)", "(?:ca)+", "b?", "c*", "a{2}", "a{1,3}?",
		`\b`, `\B`, "^", "$", " ", "(b+)", "(a*)", "[^a]"}
	for i := range 4000 {
		var p strings.Builder
		for range 1 + rng.IntN(6) {
			p.WriteString(atoms[rng.IntN(len(atoms))])
		}
		if rng.IntN(4) == 0 {
			p.WriteString("|" + atoms[rng.IntN(len(atoms))] + atoms[rng.IntN(len(atoms))])
		}
		o := Options{Word: i%5 == 0}
		if i%3 == 0 {
			o.Case = CaseInsensitive
		}
		m, err := Compile([]string{p.String()}, o)
		if err != nil {
			continue
		}
		var rm *regexMatcher
		switch m := m.(type) {
		case *regexMatcher:
			rm = m
		case *wordMatcher:
			rm = m.regexMatcher
		default:
			continue
		}
		for range 4 {
			var text []byte
			for range rng.IntN(24) {
				text = append(text, "abcAB \xe9\xc3\xa9_"[rng.IntN(10)])
			}
			for from := 0; from <= len(text); from++ {
				ps, pe, pg, _ := rm.pike.find(text, from, nil)
				if !rm.backtrack.fits(text, from) {
					continue
				}
				bs, be, bg, _ := rm.backtrack.find(text, from, nil)
				if ps != bs || pe != be || (ps >= 0 && pg != bg) {
					t.Fatalf("%q (%+v) in %q from %d: backtracker %d %d %v, Pike VM %d %d %v", p.String(), o, text, from, bs, be, bg, ps, pe, pg)
				}
			}
		}
	}
}

// TestBacktrackBound: a text too long for the bitmap is the Pike VM's,
// and the backtracker's work on one that fits, for a pattern whose paths
// are exponential in number, stays within the program times the text (as
// charged to the meter).
func TestBacktrackBound(t *testing.T) {
	m, err := Compile([]string{`(a|aa)*b`}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rm := m.(*regexMatcher)
	insts := len(rm.backtrack.prog.Inst)
	long := []byte(strings.Repeat("a", maxBacktrack/insts))
	if rm.backtrack.fits(long, 0) {
		t.Fatalf("a text of %d bytes fits the bitmap", len(long))
	}
	text := long[:len(long)-1]
	if !rm.backtrack.fits(text, 0) {
		t.Fatalf("a text of %d bytes does not fit", len(text))
	}
	checks := 0
	mt := meter.New(func() error { checks++; return nil })
	if s, _, _, err := rm.backtrack.find(text, 0, mt); s >= 0 || err != nil {
		t.Fatalf("a match where there is none: %d %v", s, err)
	}
	if bound := insts * (len(text) + 1) * 2; checks*meter.Interval > bound {
		t.Errorf("%d checks of %d units for %d instructions over %d bytes, over %d", checks, meter.Interval, insts, len(text), bound)
	}
}

// TestSetPrefilter: a skip scan of the byte sets every match holds finds
// the lines Go's regexp finds, line by line, over generated texts where
// the sets' bytes are common and candidates overlap.
func TestSetPrefilter(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for _, pattern := range []string{`[0-9]{4}[-/][0-9]{2}`, `[a-c]{8}`, `x[ab]{5}y`, `\b[0-9a-f]{8}\b`, `[A-Z]{3}_[0-9]{4}`, `[0-9]{6}x+`, `[a-c]{4}/[0-9]{4}`} {
		m, err := Compile([]string{pattern}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rm := m.(*regexMatcher)
		if rm.prefilter == nil || rm.prefilter.skip == nil {
			t.Fatalf("%s: no skip scan", pattern)
		}
		re := regexp.MustCompile(pattern)
		for range 300 {
			var text []byte
			for range rng.IntN(400) {
				text = append(text, "0123-/abcxyAZ_ \n=:(["[rng.IntN(20)])
			}
			var want []string
			for _, line := range bytes.SplitAfter(text, []byte("\n")) {
				if re.Match(bytes.TrimSuffix(line, []byte("\n"))) {
					want = append(want, string(bytes.TrimSuffix(line, []byte("\n"))))
				}
			}
			var got []string
			for from := 0; from < len(text); {
				s, e, err := m.NextLine(text, from, nil)
				if err != nil {
					t.Fatal(err)
				}
				if s < 0 {
					break
				}
				got = append(got, string(text[s:e]))
				from = e + 1
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s in %q: lines %q, Go's regexp %q", pattern, text, got, want)
			}
		}
	}
}
