package page

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A file is its lines: 'm' a match, '.' a line that is not.
type file string

// An answer is the lines written: "path:n" for a result, "path-n" for context,
// after "--" when it starts a group.
type answer struct {
	lines     []string
	results   int
	truncated bool
	capped    bool
}

// lineBytes is what each item line weighs against MaxOutput.
const lineBytes = 10

// drive feeds files to a page as a searcher and the module's sink do: a
// match is a result, a line within Before or After of any match is
// context, each in line order; it writes what the page says to.
func drive(l Limits, files []file) answer {
	p := New[string](l)
	var a answer
	write := func(path string, n int, s string) bool {
		brk := p.Break(path, n)
		if !p.Fits(lineBytes, path, n) {
			return false
		}
		if brk {
			a.lines = append(a.lines, "--")
		}
		a.lines = append(a.lines, s)
		return true
	}
	for i, f := range files {
		path := fmt.Sprint("f", i)
		p.File()
		for n := 1; n <= len(f); n++ {
			if f[n-1] == 'm' {
				fate := p.Next()
				if fate == Skipped {
					continue
				}
				if fate == Past {
					goto end
				}
				for _, h := range p.Held(n) {
					if !write(path, h.Line, h.V) {
						goto end
					}
				}
				if !write(path, n, fmt.Sprintf("%s:%d", path, n)) {
					goto end
				}
				p.Sent(n)
				continue
			}
			if !nearMatch(f, n, l.Before, l.After) {
				continue
			}
			if s := fmt.Sprintf("%s-%d", path, n); p.Context(n, s) && !write(path, n, s) {
				goto end
			}
		}
	}
end:
	a.results, a.truncated, a.capped = p.Results(), p.Truncated(), p.Capped()
	return a
}

// nearMatch reports whether line n of f is within before lines before a
// match or after lines after one: a searcher reports it as context.
func nearMatch(f file, n, before, after int) bool {
	for m := max(1, n-after); m <= min(len(f), n+before); m++ {
		if f[m-1] == 'm' && m != n {
			return true
		}
	}
	return false
}

// oracle is the answer by definition: the results numbered Offset to
// Offset+Max-1 over all files, each with the lines within Before and
// After of it in its file; the answer ends at the first result past them;
// groups break where a line does not follow the last; at most
// MaxOutput/lineBytes lines.
func oracle(l Limits, files []file) answer {
	var a answer
	var out []line
	seq := 0
	for i, f := range files {
		path := fmt.Sprint("f", i)
		var page []int // this file's results on the page
		for n := 1; n <= len(f); n++ {
			if f[n-1] != 'm' {
				continue
			}
			if seq == l.Offset+l.Max {
				a.truncated = true
				// The lines before the result past the page: those after
				// a result on it.
				out = append(out, fileLines(path, f, page, l, n)...)
				goto capped
			}
			if seq >= l.Offset {
				page = append(page, n)
			}
			seq++
		}
		out = append(out, fileLines(path, f, page, l, len(f)+1)...)
	}
capped:
	if l.MaxOutput > 0 && int64(len(out))*lineBytes > l.MaxOutput {
		out = out[:l.MaxOutput/lineBytes]
		a.truncated, a.capped = true, true
	}
	for i, o := range out {
		if l.Before+l.After > 0 && i > 0 && (o.path != out[i-1].path || o.n != out[i-1].n+1) {
			a.lines = append(a.lines, "--")
		}
		sep := "-"
		if o.result {
			sep = ":"
			a.results++
		}
		a.lines = append(a.lines, fmt.Sprint(o.path, sep, o.n))
	}
	return a
}

// line is a line of the oracle's answer.
type line struct {
	path   string
	n      int
	result bool
}

// fileLines are the lines of f before line end that are results on the
// page or within its context.
func fileLines(path string, f file, page []int, l Limits, end int) []line {
	var out []line
	for n := 1; n < end; n++ {
		result := slices.Contains(page, n)
		near := slices.ContainsFunc(page, func(r int) bool { return n >= r-l.Before && n <= r+l.After })
		if result || f[n-1] != 'm' && near {
			out = append(out, line{path, n, result})
		}
	}
	return out
}

func TestPage(t *testing.T) {
	for _, tc := range []struct {
		name  string
		l     Limits
		files []file
		want  string
	}{
		{name: "all", l: Limits{Max: 10}, files: []file{".m.m", "m"}, want: "f0:2 f0:4 f1:1"},
		{name: "offset skips", l: Limits{Offset: 2, Max: 10}, files: []file{".m.m", "mm"}, want: "f1:1 f1:2"},
		{name: "max truncates", l: Limits{Max: 2}, files: []file{"mmm"}, want: "f0:1 f0:2 truncated"},
		{name: "max reached exactly", l: Limits{Max: 2}, files: []file{"mm.."}, want: "f0:1 f0:2"},
		{name: "context and breaks", l: Limits{Max: 10, Before: 1, After: 1}, files: []file{"..m....m", ".m"},
			want: "f0-2 f0:3 f0-4 -- f0-7 f0:8 -- f1-1 f1:2"},
		{name: "a skipped result's context is not sent", l: Limits{Offset: 1, Max: 10, Before: 1, After: 1}, files: []file{"m...m"},
			want: "f0-4 f0:5"},
		{name: "after-context of the last result before the one past the page", l: Limits{Max: 1, After: 2}, files: []file{"m..m"},
			want: "f0:1 f0-2 f0-3 truncated"},
		{name: "the output cap", l: Limits{Max: 10, MaxOutput: 25}, files: []file{"mmm"}, want: "f0:1 f0:2 truncated capped"},
		{name: "the cap on a context line", l: Limits{Max: 10, After: 2, MaxOutput: 25}, files: []file{"m.m"}, want: "f0:1 f0-2 truncated capped"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, want := drive(tc.l, tc.files), oracle(tc.l, tc.files)
			if s := show(got); s != tc.want {
				t.Errorf("got  %s\nwant %s", s, tc.want)
			}
			if show(got) != show(want) {
				t.Errorf("the oracle says %s", show(want))
			}
		})
	}
}

func show(a answer) string {
	s := strings.Join(a.lines, " ")
	if a.truncated {
		s += " truncated"
	}
	if a.capped {
		s += " capped"
	}
	return strings.TrimSpace(s)
}

// FuzzPage holds a page to the oracle's definition of an answer, over
// any files, offset, max, context and output cap.
func FuzzPage(f *testing.F) {
	f.Add([]byte{0, 3, 1, 1, 0}, "..m....m|.m")
	f.Add([]byte{1, 1, 0, 2, 3}, "m..m|mm.m")
	f.Fuzz(func(t *testing.T, params []byte, tree string) {
		if len(params) < 5 || len(tree) > 200 {
			return
		}
		l := Limits{Offset: int(params[0] % 8), Max: 1 + int(params[1]%8), Before: int(params[2] % 4), After: int(params[3] % 4), MaxOutput: int64(params[4]%16) * 7}
		var files []file
		for _, s := range strings.Split(tree, "|") {
			files = append(files, file(strings.Map(func(r rune) rune {
				if r == 'm' {
					return 'm'
				}
				return '.'
			}, s)))
		}
		got, want := drive(l, files), oracle(l, files)
		if show(got) != show(want) || got.results != want.results {
			t.Fatalf("%+v %q:\ngot  %s (%d results)\nwant %s (%d results)", l, tree, show(got), got.results, show(want), want.results)
		}
	})
}
