package match

import (
	"errors"
	"strings"
	"testing"
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
		{name: "doublestar zero dirs", pattern: "**/SKILL.md", path: "SKILL.md", want: true},
		{name: "braces", pattern: "*.{ts,tsx}", path: "a/b.tsx", want: true},
		{name: "class", pattern: "[a-c]*.md", path: "d/b.md", want: true},
		{name: "negated class", pattern: "[!a-c]*.md", path: "d/b.md", want: false},
		{name: "question", pattern: "?.txt", path: "ab.txt", want: false},
		{name: "leading slash anchors", pattern: "/top.txt", path: "top.txt", want: true},
		{name: "leading slash no depth", pattern: "/top.txt", path: "x/top.txt", want: false},
		{name: "spaces and unicode", pattern: "héllo wörld*", path: "d/héllo wörld.txt", want: true},
		{name: "hidden file", pattern: ".env*", path: ".env.example", want: true},
		{name: "case sensitive", pattern: "*.GO", path: "a.go", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := CompileGlob(tt.pattern)
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
	for _, p := range []string{"", "/", "[a", "{a,b", "a\x00b", "a\\", string(make([]byte, MaxPatternBytes+1))} {
		_, err := CompileGlob(p)
		var pe *PatternError
		if !errors.As(err, &pe) {
			t.Errorf("CompileGlob(%q) = %v, want a *PatternError", p, err)
		}
	}
}

func TestCompileLine(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		literal bool
		caseMod string
		line    string
		want    bool
	}{
		{name: "regex", pattern: `fo+\(`, line: "x foo( y", want: true},
		{name: "literal metachars", pattern: `a.b(`, literal: true, line: "a.b(", want: true},
		{name: "literal not regex", pattern: `a.b`, literal: true, line: "axb", want: false},
		{name: "sensitive default", pattern: "Foo", line: "foo", want: false},
		{name: "insensitive", pattern: "Foo", caseMod: CaseInsensitive, line: "fOO", want: true},
		{name: "insensitive literal", pattern: "F.o", literal: true, caseMod: CaseInsensitive, line: "f.O", want: true},
		{name: "smart lower folds", pattern: "foo", caseMod: CaseSmart, line: "FOO", want: true},
		{name: "smart upper sensitive", pattern: "Foo", caseMod: CaseSmart, line: "foo", want: false},
		{name: "smart escape is not upper", pattern: `\Wfoo`, caseMod: CaseSmart, line: " FOO", want: true},
		{name: "anchors per line", pattern: "^b$", line: "b", want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := CompileLine(tt.pattern, tt.literal, tt.caseMod)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.MatchLine([]byte(tt.line)); got != tt.want {
				t.Errorf("MatchLine(%q) = %v, want %v", tt.line, got, tt.want)
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
		{name: "newline literal", pattern: `a\nb`, pattErr: true},
		{name: "newline in literal", pattern: "a\nb", literal: true, pattErr: true},
		{name: "bad case mode", pattern: "a", caseMode: "upper"},
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

func FuzzCompileGlob(f *testing.F) {
	for _, s := range []string{"*.go", "src/**/*.{ts,tsx}", "[a-z]?", "{a,{b,c}}", "\\*", "[", "**/"} {
		f.Add(s, "src/a/b.go")
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		g, err := CompileGlob(pattern)
		if err != nil {
			return
		}
		g.Match(path)
	})
}

func FuzzCompileLine(f *testing.F) {
	for _, s := range []string{`\w+_init\(`, "foo", "(?i)x", "[[:alpha:]]", "a{2,3}", "^$"} {
		f.Add(s, false, "smart", "foo_init(x)\nbar")
	}
	f.Fuzz(func(t *testing.T, pattern string, literal bool, caseMode, text string) {
		m, err := CompileLine(pattern, literal, caseMode)
		if err != nil {
			return
		}
		if s, e := m.Find([]byte(text)); s > e || e > len(text) {
			t.Fatalf("Find = %d, %d on %d bytes", s, e, len(text))
		}
		m.MatchLine([]byte(text))
	})
}

func TestIndexRare(t *testing.T) {
	tests := []struct{ buf, lit string }{
		{"errors.New(x)", "errors.New"},
		{"xxerrors.Nex errors.New", "errors.New"},
		{"", "ab"},
		{"a", "ab"},
		{"ab", "ab"},
		{"zzzzab", "ab"},
		{"abzzzz", "ab"},
		{"NNNN", "N."},
		{"aaa.N", ".N"},
	}
	for _, tt := range tests {
		lit := []byte(tt.lit)
		want := strings.Index(tt.buf, tt.lit)
		if got := indexRare([]byte(tt.buf), lit, rareOffset(lit)); got != want {
			t.Errorf("indexRare(%q, %q) = %d, want %d", tt.buf, tt.lit, got, want)
		}
	}
}

func FuzzIndexRare(f *testing.F) {
	f.Add("errors.New(x) errors.New", "errors.New")
	f.Fuzz(func(t *testing.T, buf, lit string) {
		if lit == "" {
			return
		}
		b := []byte(lit)
		if got, want := indexRare([]byte(buf), b, rareOffset(b)), strings.Index(buf, lit); got != want {
			t.Fatalf("indexRare(%q, %q) = %d, want %d", buf, lit, got, want)
		}
	})
}
