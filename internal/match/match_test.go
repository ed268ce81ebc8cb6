package match

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rootbound/rootbound/internal/meter"
)

func TestGlob(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		path    string
		want    bool
	}{
		{name: "basename at depth", pattern: "*.go", path: "a/b/c.go", want: true},
		{name: "basename no cross", pattern: "*.go", path: "a.go/x", want: false},
		{name: "path star one level", pattern: "src/*.go", path: "src/a.go", want: true},
		{name: "path star no slash", pattern: "src/*.go", path: "src/x/a.go", want: false},
		{name: "doublestar any depth", pattern: "src/**/*.go", path: "src/x/y/a.go", want: true},
		{name: "doublestar zero dirs between", pattern: "src/**/*.go", path: "src/a.go", want: true},
		{name: "doublestar zero dirs", pattern: "**/SKILL.md", path: "SKILL.md", want: true},
		{name: "doublestar at the end", pattern: "src/**", path: "src/a/b/c", want: true},
		{name: "doublestar alone", pattern: "**", path: "a/b/c", want: true},
		{name: "doublestar inside a name is a star", pattern: "a**b/c", path: "axxb/c", want: true},
		{name: "doublestar inside a name does not cross", pattern: "a**b/c", path: "ax/xb/c", want: false},
		{name: "braces", pattern: "*.{ts,tsx}", path: "a/b.tsx", want: true},
		{name: "nested braces", pattern: "*.{c,{h,hpp}}", path: "a/b.hpp", want: true},
		{name: "empty alternative", pattern: "a{,b}.txt", path: "a.txt", want: true},
		{name: "braces with paths", pattern: "{src,lib}/**/*.rs", path: "lib/x/y.rs", want: true},
		{name: "class", pattern: "[a-c]*.md", path: "d/b.md", want: true},
		{name: "negated class", pattern: "[!a-c]*.md", path: "d/b.md", want: false},
		{name: "caret negates too", pattern: "[^a-c]*.md", path: "d/x.md", want: true},
		{name: "class never matches a slash", pattern: "a[/]b", path: "a/b", want: false},
		{name: "negated class never matches a slash", pattern: "a[!x]b", path: "a/b", want: false},
		{name: "bracket first is literal", pattern: "[]a]", path: "]", want: true},
		{name: "posix class", pattern: "v[[:digit:]].txt", path: "v7.txt", want: true},
		{name: "posix class miss", pattern: "v[[:digit:]].txt", path: "vx.txt", want: false},
		{name: "question", pattern: "?.txt", path: "ab.txt", want: false},
		{name: "escaped star", pattern: `a\*`, path: "a*", want: true},
		{name: "escaped star is literal", pattern: `a\*`, path: "ab", want: false},
		{name: "regex characters are literal", pattern: "a+(b).txt", path: "a+(b).txt", want: true},
		{name: "leading slash anchors", pattern: "/top.txt", path: "top.txt", want: true},
		{name: "leading slash no depth", pattern: "/top.txt", path: "x/top.txt", want: false},
		{name: "spaces and unicode", pattern: "héllo wörld*", path: "d/héllo wörld.txt", want: true},
		{name: "hidden file", pattern: ".env*", path: ".env.example", want: true},
		{name: "case sensitive", pattern: "*.GO", path: "a.go", want: false},
		{name: "star matches a newline in a name", pattern: "a*b", path: "a\nb", want: true},
		{name: "whole name only", pattern: "*.go", path: "a.go.txt", want: false},
		{name: "exponential braces, linear here", pattern: strings.Repeat("{,}", 40) + "zz", path: strings.Repeat("z", 200), want: false},
		{name: "exponential braces still match", pattern: strings.Repeat("{,}", 40) + "zz", path: "zz", want: true},
		{name: "many stars", pattern: strings.Repeat("*a", 40) + "b", path: strings.Repeat("a", 250), want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := CompileGlob(tt.pattern, false)
			if err != nil {
				t.Fatal(err)
			}
			if got := g.Match(tt.path); got != tt.want {
				t.Errorf("CompileGlob(%q).Match(%q) = %v, want %v", tt.pattern, tt.path, got, tt.want)
			}
		})
	}
}

func TestGlobInvalid(t *testing.T) {
	for _, p := range []string{"", "/", "[a", "{a,b", "a}", "a\x00b", "a\\", "[z-a]", "[[:nope:]]", "\xff", strings.Repeat("a", MaxExprBytes+1)} {
		_, err := CompileGlob(p, false)
		var pe *PatternError
		if !errors.As(err, &pe) {
			t.Errorf("CompileGlob(%q) = %v, want a *PatternError", p, err)
		}
	}
}

// nextLines lists the numbers of the lines NextLine finds in text.
func nextLines(t testing.TB, m Matcher, text string) []int {
	var got []int
	buf := []byte(text)
	number, counted := 1, 0
	for pos := 0; pos < len(buf); {
		start, end, err := m.NextLine(buf, pos, nil)
		if err != nil {
			t.Fatal(err)
		}
		if start < 0 {
			break
		}
		if start < pos || end < start || end > len(buf) || (end < len(buf) && buf[end] != '\n') {
			t.Fatalf("NextLine(%d) = %d, %d: not a line at or after %d", pos, start, end, pos)
		}
		number += strings.Count(text[counted:start], "\n")
		counted = start
		got = append(got, number)
		pos = end + 1
	}
	return got
}

func TestCompileLine(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		literal bool
		caseMod string
		text    string
		want    []int // matching line numbers
	}{
		{name: "regex", pattern: `fo+\(`, text: "x foo( y", want: []int{1}},
		{name: "literal metachars", pattern: `a.b(`, literal: true, text: "a.b(", want: []int{1}},
		{name: "literal not regex", pattern: `a.b`, literal: true, text: "axb", want: nil},
		{name: "sensitive default", pattern: "Foo", text: "foo", want: nil},
		{name: "insensitive", pattern: "Foo", caseMod: CaseInsensitive, text: "fOO", want: []int{1}},
		{name: "insensitive literal", pattern: "F.o", literal: true, caseMod: CaseInsensitive, text: "f.O", want: []int{1}},
		{name: "smart lower folds", pattern: "foo", caseMod: CaseSmart, text: "FOO", want: []int{1}},
		{name: "smart upper sensitive", pattern: "Foo", caseMod: CaseSmart, text: "foo", want: nil},
		{name: "smart escape is not upper", pattern: `\Wfoo`, caseMod: CaseSmart, text: " FOO", want: []int{1}},
		{name: "anchors per line", pattern: "^b$", text: "a\nb\nbb", want: []int{2}},
		{name: "text anchors are line anchors", pattern: `\Ab\z`, text: "a\nb\nbb", want: []int{2}},
		{name: "never across lines", pattern: `a[^z]*c`, text: "ab\nbc\nabc", want: []int{3}},
		{name: "dot never across lines", pattern: `(?s)a.c`, text: "a\nc\nabc", want: []int{3}},
		{name: "space class never across lines", pattern: `a\s*c`, text: "a\nc", want: nil},
		{name: "word boundary at a line end", pattern: `ab\b`, text: "ab\nabc", want: []int{1}},
		{name: "empty match on every line", pattern: `x*`, text: "a\n\nb\n", want: []int{1, 2, 3}},
		{name: "no line after the final newline", pattern: `^$`, text: "a\n", want: nil},
		{name: "empty lines", pattern: `^$`, text: "\n\na", want: []int{1, 2}},
		{name: "required literal, miss then hit", pattern: `\w+_init\(`, text: "_init(\nfoo_init(", want: []int{2}},
		{name: "alternation", pattern: `TODO|FIXME`, text: "a\nFIXME b\nTODO", want: []int{2, 3}},
		{name: "unicode", pattern: `ΣΊΣ`, caseMod: CaseInsensitive, text: "x\nσίσ\n", want: []int{2}},
		{name: "long run", pattern: `[a-z]{1000}[0-9]`, text: strings.Repeat("a", 5000) + "\n" + strings.Repeat("b", 1000) + "7", want: []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := CompileLine(tt.pattern, tt.literal, tt.caseMod)
			if err != nil {
				t.Fatal(err)
			}
			if got := nextLines(t, m, tt.text); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("lines %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCompileLineInvalid(t *testing.T) {
	tests := []struct {
		name, pattern string
		literal       bool
		caseMode      string
		pattErr       bool
	}{
		{name: "empty", pattern: "", pattErr: true},
		{name: "unclosed group", pattern: "(a", pattErr: true},
		{name: "huge repeat", pattern: "a{1001}", pattErr: true},
		{name: "nested repeat too large", pattern: "(a{1000}){1000}", pattErr: true},
		{name: "program too large", pattern: "(abcdefghijk){1000}", pattErr: true},
		{name: "classes too large", pattern: `[a-z]{1000}[0-9]{1000}[a-z]{1000}[0-9]{1000}[a-z]{1000}[0-9]{1000}[a-z]{1000}[0-9]{1000}[a-z]{1000}[0-9]{1000}[a-z]{1000}`, pattErr: true},
		{name: "newline literal", pattern: `a\nb`, pattErr: true},
		{name: "newline in literal", pattern: "a\nb", literal: true, pattErr: true},
		{name: "bad case mode", pattern: "a", caseMode: "upper"},
		{name: "regex too long", pattern: strings.Repeat("a", MaxExprBytes+1), pattErr: true},
		{name: "fixed string too long", pattern: strings.Repeat("a", MaxPatternBytes+1), literal: true, pattErr: true},
		{name: "too many Unicode classes", pattern: strings.Repeat(`\w`, MaxUnicodeClasses+1), pattErr: true},
		{name: "too many Unicode properties", pattern: strings.Repeat(`[\pL\pN]`, MaxUnicodeClasses/2+1), pattErr: true},
		{name: "properties and Perl classes count together", pattern: strings.Repeat(`\pL\d`, MaxUnicodeClasses/2+1), pattErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := CompileLine(tt.pattern, tt.literal, tt.caseMode)
			if err == nil {
				t.Fatal("compiled, want an error")
			}
			var pe *PatternError
			if errors.As(err, &pe) != tt.pattErr {
				t.Errorf("error %v: PatternError=%v, want %v", err, !tt.pattErr, tt.pattErr)
			}
		})
	}
}

// TestPatternBytesBound: at their bounds a glob, a regex, a fixed string
// and a set of globs each longer than one glob may be, compile.
func TestPatternBytesBound(t *testing.T) {
	if _, err := CompileGlob(strings.Repeat("a", MaxExprBytes), false); err != nil {
		t.Error(err)
	}
	if _, err := CompileLine(strings.Repeat("a", MaxExprBytes), false, ""); err != nil {
		t.Error(err)
	}
	if _, err := CompileLine(strings.Repeat("a", MaxPatternBytes), true, ""); err != nil {
		t.Error(err)
	}
	g, err := CompileGlobAny([]string{strings.Repeat("a", MaxExprBytes), "*.go", "*.c"}, false)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"x.go": true, "x.c": true, strings.Repeat("a", MaxExprBytes): true, "x.h": false} {
		if g.Match(name) != want {
			t.Errorf("Match(%.20q) = %v, want %v", name, !want, want)
		}
	}
	if _, err := CompileGlobAny([]string{"*.go", strings.Repeat("a", MaxExprBytes+1)}, false); err == nil {
		t.Error("CompileGlobAny took a glob over MaxExprBytes")
	}
}

// TestUnicodeClassBound: at the bound a pattern compiles; an escaped
// backslash before p is no property.
func TestUnicodeClassBound(t *testing.T) {
	for _, p := range []string{strings.Repeat(`[\pL\pN]`, MaxUnicodeClasses/2), strings.Repeat(`\w`, MaxUnicodeClasses),
		strings.Repeat(`\\p`, 100), `(?-u)` + strings.Repeat(`\w`, 100)} {
		if _, err := CompileLine(p, false, ""); err != nil {
			t.Errorf("%.40s: %v", p, err)
		}
	}
}

// TestMeterStopsLongWork gives the worst patterns found so far a meter that
// fails at its second check: each search must stop there, however long the
// line, instead of running to the end.
func TestMeterStopsLongWork(t *testing.T) {
	stop := errors.New("stop")
	long := strings.Repeat("abcdefghij", 100_000) // 1 MB, one line
	for _, pattern := range []string{`[a-z]{1000}[0-9]`, `(a|b)*a(a|b){20}x`, `\w+\s\w+$`, `(.*)*z`, `[^\n]*q[^\n]*y`} {
		t.Run(pattern, func(t *testing.T) {
			m, err := CompileLine(pattern, false, "")
			if err != nil {
				t.Fatal(err)
			}
			checks := 0
			mt := meter.New(func() error {
				if checks++; checks > 1 {
					return stop
				}
				return nil
			})
			_, _, err = m.NextLine([]byte(long), 0, mt)
			if err != nil && !errors.Is(err, stop) {
				t.Fatal(err)
			}
			checks = 0
			mt = meter.New(func() error {
				if checks++; checks > 1 {
					return stop
				}
				return nil
			})
			if _, _, err := m.LocateAt([]byte(long), 0, mt); err != nil && !errors.Is(err, stop) {
				t.Fatal(err)
			}
		})
	}
}

// TestLocate holds Locate to Go's regexp, which finds the same leftmost-first
// match.
func TestLocate(t *testing.T) {
	for _, tt := range []struct{ pattern, line string }{
		{`abcd|c`, "xabcd"},
		{`a+`, "baaab"},
		{`a*?`, "aaa"},
		{`(a|ab)(c|bcd)`, "abcd"},
		{`\bfoo\b`, "foobar foo"},
		{`$`, "abc"},
		{`^`, "abc"},
		{`needle\d`, "needlex " + strings.Repeat("y", 1000) + " needle7"},
		{`é+`, "xééy"},
	} {
		m, err := CompileLine(tt.pattern, false, "")
		if err != nil {
			t.Fatal(err)
		}
		s, e, err := m.LocateAt([]byte(tt.line), 0, nil)
		want := regexp.MustCompile(tt.pattern).FindStringIndex(tt.line)
		if err != nil || want == nil || s != want[0] || e != want[1] {
			t.Errorf("Locate(%q, %q) = %d, %d, %v; regexp says %v", tt.pattern, tt.line, s, e, err, want)
		}
	}
}

// globOracle reports whether path.Match can judge pattern as a glob: no
// braces, no "**", no class that could take a "/" (path.Match's can), no
// "!" negation (path.Match negates with "^" only).
func globOracle(pattern string) bool {
	if strings.ContainsAny(pattern, "{}!") || strings.Contains(pattern, "**") || strings.HasPrefix(pattern, "/") {
		return false
	}
	if _, err := path.Match(pattern, ""); err != nil {
		return false
	}
	in := false
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; {
		case c == '\\':
			i++
		case c == '[':
			if in {
				return false
			}
			in = true
		case c == ']':
			in = false
		case in && (c == '/' || c == '-' || c == ':'):
			return false // a range could take "/", and [: starts a POSIX class here
		}
	}
	return true
}

func FuzzCompileGlob(f *testing.F) {
	for _, s := range []string{"*.go", "src/*/*.go", "[a-z]?", "a\\*", "?x*y", "[^ab]c", "{a,{b,c}}", "**/"} {
		f.Add(s, "src/a/b.go")
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		start := time.Now()
		g, err := CompileGlob(pattern, false)
		if err != nil {
			return
		}
		got := g.Match(name)
		if d := time.Since(start); d > time.Second {
			t.Fatalf("CompileGlob(%q) and one match took %v", pattern, d)
		}
		if !globOracle(pattern) {
			return
		}
		target := name
		if !strings.Contains(pattern, "/") {
			target = path.Base(name)
		}
		if want, _ := path.Match(pattern, target); got != want {
			t.Fatalf("CompileGlob(%q).Match(%q) = %v, path.Match says %v", pattern, name, got, want)
		}
	})
}

// FuzzCompileLine holds the matcher to Go's regexp (strings.Index for a
// case-sensitive literal), line by line: NextLine must find exactly the
// lines the oracle matches, and Locate the same match.
func FuzzCompileLine(f *testing.F) {
	for _, s := range []string{`\w+_init\(`, "foo", "(?i)x", "[[:alpha:]]", "a{2,3}", "^$", `\bb`, `a[^x]*c`, `(a|ab)(c|bcd)`, `TODO|FIXME`, `\Ax\z`} {
		f.Add(s, false, false, "foo_init(x)\nbar\n\nabcd\nab\nc TODO")
	}
	f.Fuzz(func(t *testing.T, pattern string, literal, fold bool, text string) {
		caseMode := CaseSensitive
		if fold {
			caseMode = CaseInsensitive
		}
		m, err := CompileLine(pattern, literal, caseMode)
		if err != nil {
			return
		}
		if !literal && !utf8.ValidString(text) {
			// Go's regexp reads a byte that is not UTF-8 as U+FFFD, which
			// "." and classes match; ripgrep, and we, match no such byte.
			for _, line := range strings.Split(text, "\n") {
				if s, e, err := m.LocateAt([]byte(line), 0, nil); err == nil && s >= 0 && !utf8.ValidString(line[s:e]) {
					t.Fatalf("%q matched %q, which is not UTF-8", pattern, line[s:e])
				}
			}
			return
		}
		find := func(line string) []int {
			if i := strings.Index(line, pattern); i >= 0 {
				return []int{i, i + len(pattern)}
			}
			return nil
		}
		if !literal || fold {
			var expr string
			if literal {
				expr = regexp.QuoteMeta(pattern)
			} else {
				// The oracle gets ripgrep's Unicode classes as text; its \b
				// stays ASCII, so text with other letters is not compared
				// where \b counts.
				var ascii bool
				expr, ascii, _ = unicodePerl(pattern)
				if !ascii && strings.Contains(pattern, `\`) && !isASCII(text) && (strings.Contains(pattern, `\b`) || strings.Contains(pattern, `\B`)) {
					return
				}
			}
			if fold {
				expr = "(?i)" + expr
			}
			re, err := regexp.Compile(expr)
			if err != nil {
				t.Fatalf("CompileLine took %q, regexp refuses it: %v", pattern, err)
			}
			find = re.FindStringIndex
		}
		var want []int
		if text != "" {
			for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
				if loc := find(line); loc != nil {
					want = append(want, i+1)
					s, e, err := m.LocateAt([]byte(line), 0, nil)
					if err != nil || s != loc[0] || e != loc[1] {
						t.Fatalf("Locate(%q) = %d, %d, %v; the oracle says %v", line, s, e, err, loc)
					}
				}
			}
		}
		if got := nextLines(t, m, text); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("lines %v, regexp says %v", got, want)
		}
	})
}

// FuzzPrefilter holds the prefilter to strings.Index: from any position,
// it finds the first place where one of up to three literals occurs.
func FuzzPrefilter(f *testing.F) {
	f.Add("errors.New(x) errors.New TODO", "errors.New", "TODO", "", 0)
	f.Add("aaaaab", "ab", "aab", "b", 2)
	f.Fuzz(func(t *testing.T, buf, a, b, c string, from int) {
		var lits []literal
		var strs []string
		for _, s := range []string{a, b, c} {
			if len(s) >= minLiteral {
				lits = append(lits, exact([]byte(s)))
				strs = append(strs, s)
			}
		}
		p := newPrefilter(lits)
		if p == nil {
			return
		}
		ps := []*prefilter{p}
		if len(lits) == 1 { // the skip scan too, whichever this build chooses
			sp := *p
			sp.skip = newSkipTable(sp.plain[0])
			ps = append(ps, &sp)
		}
		from = max(0, min(from, len(buf)))
		for _, p := range ps {
			// Several searches through one buffer, as NextLine makes them.
			for pos := from; pos <= len(buf); {
				want := -1
				for _, s := range strs {
					if i := strings.Index(buf[pos:], s); i >= 0 && (want < 0 || pos+i < want) {
						want = pos + i
					}
				}
				got, err := p.find([]byte(buf), pos, nil)
				if err != nil || got != want {
					t.Fatalf("find(%q, %d) with %q (skip scan: %v) = %d, %v; want %d", buf, pos, strs, p.skip != nil, got, err, want)
				}
				if got < 0 {
					break
				}
				pos = got + 1
			}
		}
	})
}

// TestSkipScanLong: the skip scan across chunk boundaries and with shifts
// capped at 255 (a literal longer than that), against bytes.Index.
func TestSkipScanLong(t *testing.T) {
	long := strings.Repeat("ab", 200) + "z" // 401 bytes
	for _, tt := range []struct {
		name, lit string
		at        []int // where the literal is put in a text of scanChunk*2+100 bytes
	}{
		{name: "across a chunk boundary", lit: "flash_probe_gpio_init", at: []int{scanChunk - 5}},
		{name: "at the end", lit: "flash_probe_gpio_init", at: []int{2*scanChunk + 100 - 21}},
		{name: "twice", lit: "needle", at: []int{7, scanChunk + 3}},
		{name: "longer than 255", lit: long, at: []int{scanChunk - 200, scanChunk + 1000}},
		{name: "nowhere", lit: "absent literal"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text := bytes.Repeat([]byte("x_init a "), (2*scanChunk+100)/9+1)[:2*scanChunk+100]
			for _, at := range tt.at {
				copy(text[at:], tt.lit)
			}
			p := newPrefilter([]literal{exact([]byte(tt.lit))})
			p.skip = newSkipTable(p.plain[0])
			var got, want []int
			for pos := 0; ; {
				i, err := p.find(text, pos, nil)
				if err != nil {
					t.Fatal(err)
				}
				j := bytes.Index(text[pos:], []byte(tt.lit))
				if j >= 0 {
					j += pos
				}
				got, want = append(got, i), append(want, j)
				if i < 0 || j < 0 {
					break
				}
				pos = i + 1
			}
			if !slices.Equal(got, want) {
				t.Fatalf("found at %v, want %v", got, want)
			}
		})
	}
}

// TestSkipPays: the rule chooses the skip scan for literals whose rarest
// byte is common and not for those with a rare one (figures in
// RATIONALE.md, "Why a skip scan beside IndexByte?").
func TestSkipPays(t *testing.T) {
	for _, tt := range []struct {
		lit  string
		want bool
	}{
		{"flash_probe_gpio_init", true},
		{"CanonicalMIMEHeaderKey", true},
		{"return", false},
		{"needle", true},
		{"TODO", false},
		{"Printf", false},
		{"FIXME", false},
	} {
		p := newPrefilter([]literal{exact([]byte(tt.lit))})
		if got := skipPays(newSkipTable(p.plain[0]), uint64(byteFreq[p.scans[0].c])); got != tt.want {
			t.Errorf("skipPays(%q) = %v, want %v", tt.lit, got, tt.want)
		}
	}
}

// BenchmarkFindLiteral times the two scans of one literal over the Go
// tree's source, as many times as it holds them: run it as wasm too
// (GOOS=wasip1 GOARCH=wasm go test -c, then a wazero run) to see why the
// module takes the skip scan where skipPays says so.
func BenchmarkFindLiteral(b *testing.B) {
	text := goSource(b, "src/net", 8<<20)
	for _, lit := range []string{"flash_probe_gpio_init", "CanonicalMIMEHeaderKey", "return", "TODO", "err", "Printf"} {
		byteScan := newPrefilter([]literal{exact([]byte(lit))})
		byteScan.skip = nil
		skipScan := *byteScan
		skipScan.skip = newSkipTable(byteScan.plain[0])
		for _, v := range []struct {
			name string
			p    *prefilter
		}{{"byte", byteScan}, {"skip", &skipScan}} {
			b.Run(lit+"/"+v.name, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for range b.N {
					for pos := 0; ; {
						i, _ := v.p.find(text, pos, nil)
						if i < 0 {
							break
						}
						pos = i + 1
					}
				}
			})
		}
	}
}

// TestFoldLiteral: a case-insensitive literal covers every case variant,
// and stops at runes whose variants differ in length.
func TestFoldLiteral(t *testing.T) {
	for _, tt := range []struct {
		runes string
		in    []string // must all be found by the literal at 0
		n     int      // its length in positions
	}{
		{"error", []string{"error", "ERROR", "ErRoR"}, 5},
		{"σίσυφος", []string{"ΣΊΣΥΦΟΣ", "σίσυφος", "ΣΊΣΥΦΟς"}, 14},
		{"kit", []string{"it", "IT"}, 2}, // k folds to the Kelvin sign, 3 bytes: the run starts after it
	} {
		l := foldLiteral([]rune(tt.runes))
		if len(l) != tt.n {
			t.Errorf("foldLiteral(%q) has %d positions, want %d", tt.runes, len(l), tt.n)
		}
		for _, s := range tt.in {
			if !l.at([]byte(s), 0) {
				t.Errorf("foldLiteral(%q) does not find %q", tt.runes, s)
			}
		}
	}
}

// FuzzWord holds -w (the pattern alone first, then the wrapped pattern) to
// Go's regexp running ripgrep's wrapping, `(?:^|\W)(pattern)(?:$|\W)`, on
// each line: the same lines, and the first match where its group is. ASCII
// classes ((?-u)), as Go's regexp has them.
func FuzzWord(f *testing.F) {
	for _, s := range []string{"err", `\w+`, "a|ab", "x*", `\.go`, "b.", "-", `\bq`} {
		f.Add(s, "err errors\nmy_err (err)\nab abc a\n.go x.go\n-a- -\nbb b b\n")
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		m, err := Compile([]string{"(?-u)" + pattern}, Options{Word: true})
		if err != nil || !utf8.ValidString(text) { // Go's regexp matches bytes that are not UTF-8 as U+FFFD; FuzzCompileLine holds those
			return
		}
		re, err := regexp.Compile(`(?:^|\W)(` + pattern + `)(?:$|\W)`)
		if err != nil {
			t.Fatalf("Compile took %q, regexp refuses it wrapped: %v", pattern, err)
		}
		var want []int
		if text != "" {
			for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
				loc := re.FindStringSubmatchIndex(line)
				if loc == nil {
					continue
				}
				want = append(want, i+1)
				s, e, err := m.LocateAt([]byte(line), 0, nil)
				if err != nil || s != loc[2] || e != loc[3] {
					t.Fatalf("LocateAt(%q) = %d, %d, %v; the oracle says %v", line, s, e, err, loc[2:4])
				}
			}
		}
		if got := nextLines(t, m, text); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("lines %v, regexp says %v", got, want)
		}
	})
}

// CompileLine compiles one pattern, as most tests here want it.
func CompileLine(pattern string, literal bool, caseMode string) (Matcher, error) {
	return Compile([]string{pattern}, Options{Literal: literal, Case: caseMode})
}

// TestInvalidUTF8 holds bytes that are not UTF-8 to ripgrep's rule: no
// ".", class or complement matches one (Go's regexp reads one as U+FFFD),
// and a literal of its bytes does. A glob takes them as fd's does (a name
// is bytes): * and ? match one.
func TestInvalidUTF8(t *testing.T) {
	for _, tt := range []struct {
		glob, name string
	}{{"bad*.txt", "bad\xffname.txt"}, {"bad?name.txt", "bad\xffname.txt"}, {"bad[!x]name.txt", "bad\xffname.txt"}} {
		if g, err := CompileGlob(tt.glob, false); err != nil || !g.Match(tt.name) {
			t.Errorf("glob %q does not match %q (%v)", tt.glob, tt.name, err)
		}
	}
	for _, tt := range []struct {
		pattern string
		literal bool
		line    string
		want    bool
	}{
		{pattern: "a.b", line: "a\xffb"},
		{pattern: "a.b", line: "a\xc3\xa9b", want: true},
		{pattern: "a[^x]b", line: "a\xffb"},
		{pattern: `a\Wb`, line: "a\xffb"},
		{pattern: `a\W*b`, line: "a\xff\xfeb"},
		{pattern: "a.*b", line: "a\xffb"},
		{pattern: "a.*b", line: "a\xff ab", want: true},
		{pattern: `a\x{FFFD}b`, line: "a\xffb"},
		{pattern: `a\x{FFFD}b`, line: "a\uFFFDb", want: true},
		{pattern: "\xffb", literal: true, line: "a\xffb", want: true},
	} {
		m, err := CompileLine(tt.pattern, tt.literal, "")
		if err != nil {
			t.Fatal(err)
		}
		s, _, err := m.LocateAt([]byte(tt.line), 0, nil)
		if err != nil || (s >= 0) != tt.want {
			t.Errorf("%q in %q: at %d, want a match %v", tt.pattern, tt.line, s, tt.want)
		}
	}
}

// TestRegexErrorWording: a pattern that does not parse is named once, with
// the part at fault when it is a part of it.
func TestRegexErrorWording(t *testing.T) {
	for _, tc := range []struct {
		name     string
		patterns []string
		want     string
	}{
		{name: "the whole pattern at fault", patterns: []string{"("}, want: `invalid regex "(": missing closing )`},
		{name: "a part at fault", patterns: []string{"ab[c"}, want: `invalid regex "ab[c": missing closing ] at "[c"`},
		{name: "Perl syntax", patterns: []string{"a(?<"}, want: `invalid regex "a(?<": invalid or unsupported Perl syntax at "(?<"`},
		{name: "the second of two", patterns: []string{"x", "y)"}, want: `invalid regex "y)": unexpected )`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile(tc.patterns, Options{})
			if err == nil || err.Error() != tc.want {
				t.Errorf("Compile(%q) = %v, want %s", tc.patterns, err, tc.want)
			}
		})
	}
}

// TestRequiredClasses: what the index asks for takes small ASCII classes
// as positions and joins adjacent ones into one literal (need.go).
func TestRequiredClasses(t *testing.T) {
	for _, c := range []struct {
		name, pattern string
		opts          Options
		want          string // Required, %q
	}{
		{name: "literal", pattern: "CanonicalMIME", want: `[["C" "a" "n" "o" "n" "i" "c" "a" "l" "M" "I" "M" "E"]]`},
		{name: "classes around a literal", pattern: `[A-C]{2}_[0-9]{2}`, want: `[["ABC" "ABC" "_" "0123456789" "0123456789"]]`},
		{name: "a class too wide ends nothing, a plus ends a run", pattern: `x[ab]+yz`, want: `[["ab" "y" "z"]]`},
		{name: "assertions are no position", pattern: `\bab\b-c`, want: `[["a" "b" "-" "c"]]`},
		{name: "case folded", pattern: `(?i)ab[0-1]`, want: `[["Aa" "Bb" "01"]]`},
		{name: "alternation", pattern: `ab[cd]|x[yz]z`, want: `[["a" "b" "cd"] ["x" "yz" "z"]]`},
		{name: "a branch with none", pattern: `abc|\d+`},
		{name: "a Unicode class is no position", pattern: `\w\w\w`},
		{name: "a class with a non-ASCII member is no position", pattern: `[aé]bc`, want: `[["b" "c"]]`},
		{name: "optional parts end a run", pattern: `abc?de`, want: `[["a" "b"]]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := Compile([]string{c.pattern}, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprintf("%q", Required(m))
			if c.want == "" {
				c.want = "[]"
			}
			if got != c.want {
				t.Errorf("Required(%s) = %s, want %s", c.pattern, got, c.want)
			}
		})
	}
}

// TestPrefilterYields: several scans whose bytes are common in source code
// leave the line to the DFA (maxScanFreq); rare ones, or one scan, keep
// the prefilter.
func TestPrefilterYields(t *testing.T) {
	for _, c := range []struct {
		name, pattern string
		prefilter     bool
	}{
		{name: "rare bytes", pattern: "TODO|FIXME", prefilter: true},
		{name: "one scan of a common byte", pattern: "xxx", prefilter: true},
		{name: "common bytes, case folded", pattern: "(?i)todo|fixme|xxx"},
		{name: "common bytes", pattern: "(?i)error|warning"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := Compile([]string{c.pattern}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			has := false
			switch m := m.(type) {
			case *literalMatcher:
				has = true
			case *regexMatcher:
				has = m.prefilter != nil
			}
			if has != c.prefilter {
				t.Errorf("%s: prefilter %v, want %v", c.pattern, has, c.prefilter)
			}
		})
	}
}
