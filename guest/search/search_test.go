package search_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/rootbound/rootbound/guest/match"
	"github.com/rootbound/rootbound/guest/search"
	"github.com/rootbound/rootbound/internal/testtree"
)

func lines(t *testing.T, pattern, text string) []string {
	t.Helper()
	m, err := match.CompileLine(pattern, false, "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	err = search.Lines([]byte(text), m, nil, true, func(n int, line []byte, col int) bool {
		got = append(got, fmt.Sprintf("%d:%d:%s", n, col, line))
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestLines(t *testing.T) {
	tests := []struct {
		name, pattern, text string
		want                []string
	}{
		{name: "simple", pattern: "b", text: "a\nb\nc\nb", want: []string{"2:0:b", "4:0:b"}},
		{name: "column", pattern: "x", text: "aax\n", want: []string{"1:2:aax"}},
		{name: "empty file", pattern: "^", text: "", want: nil},
		{name: "every line", pattern: "^", text: "a\n\nb\n", want: []string{"1:0:a", "2:0:", "3:0:b"}},
		{name: "no line past final newline", pattern: "^$", text: "a\n", want: nil},
		{name: "class never spans lines", pattern: `a[^z]b`, text: "a\nb\naxb", want: []string{"3:0:axb"}},
		{name: "whitespace never spans lines", pattern: `a\s+b`, text: "a\nb", want: nil},
		{name: "dollar before newline", pattern: `b$`, text: "ab\nbc", want: []string{"1:1:ab"}},
		{name: "crlf is content", pattern: `b$`, text: "ab\r\n", want: nil},
		{name: "one report per line", pattern: "a", text: "aaa\n", want: []string{"1:0:aaa"}},
		{name: "column of the real match, not of the literal", pattern: `needle\d`, text: "needlex needle7\n", want: []string{"1:8:needlex needle7"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := lines(t, tt.pattern, tt.text)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRead(t *testing.T) {
	big := strings.Repeat("x", 600<<10)
	dir := testtree.New(t, map[string]string{
		"text":     "hello\n",
		"empty":    "",
		"binary":   "ab\x00cd",
		"late-nul": strings.Repeat("a", 9000) + "\x00",
		"big":      big,
		"link":     "->text",
	})
	if err := mkfifo(filepath.Join(dir, "fifo")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		file    string
		maxSize int64
		want    string
		err     error
	}{
		{name: "text", file: "text", maxSize: 100, want: "hello\n"},
		{name: "empty", file: "empty", maxSize: 100, want: ""},
		{name: "binary", file: "binary", maxSize: 100, err: search.ErrBinary},
		{name: "nul after the sniff window is text", file: "late-nul", maxSize: 1 << 20, want: strings.Repeat("a", 9000) + "\x00"},
		{name: "grows past the first buffer", file: "big", maxSize: 1 << 20, want: big},
		{name: "too large", file: "big", maxSize: 1000, err: search.ErrTooLarge},
		{name: "at the cap", file: "text", maxSize: 6, want: "hello\n"},
		{name: "one under the cap", file: "text", maxSize: 5, err: search.ErrTooLarge},
		{name: "grown to exactly the cap", file: "big", maxSize: 600 << 10, want: big},
		{name: "one past a grown cap", file: "big", maxSize: 600<<10 - 1, err: search.ErrTooLarge},
		{name: "symlink not followed", file: "link", maxSize: 100, err: syscall.ELOOP},
		{name: "a FIFO is opened without blocking and refused", file: "fifo", maxSize: 100, err: search.ErrSpecial},
	}
	var r search.Reader
	grew := 0
	r.BeforeGrow = func() { grew++ }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, _, err := r.Read(filepath.Join(dir, tt.file), tt.maxSize, 8192, nil)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("err = %v, want %v", err, tt.err)
				}
				return
			}
			if err != nil || string(data) != tt.want {
				t.Fatalf("Read = %d bytes, %v; want %d bytes", len(data), err, len(tt.want))
			}
		})
	}
	if grew == 0 {
		t.Error("BeforeGrow never ran")
	}
	if _, _, err := r.Read(filepath.Join(dir, "missing"), 10, 10, nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// naive is the oracle: Go's regexp run on each line by itself.
func naive(re *regexp.Regexp, text string) []string {
	var out []string
	if text == "" {
		return nil
	}
	for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if loc := re.FindStringIndex(l); loc != nil {
			out = append(out, fmt.Sprintf("%d:%d", i+1, loc[0]))
		}
	}
	return out
}

// FuzzLines checks Lines (line numbers and match columns, through the
// matcher's prefilters and lazy DFA) against Go's regexp run line by line.
func FuzzLines(f *testing.F) {
	for _, seed := range []struct{ p, text string }{
		{`func \w+_init\(`, "x\nfunc a_init(\nfunc _init(\n"},
		{`(?i)deadline\s+exceeded`, "DEADLINE  Exceeded\ndeadline\nexceeded\n"},
		{`(?i)mask`, "MASK\nma\u212Ak\n"},
		{`ab+c`, "abbbc\nac\n"},
		{`^$`, "\n\n"},
		{`a[^b]*c`, "a\nc\nazc\n"},
	} {
		f.Add(seed.p, seed.text, false)
		f.Add(seed.p, seed.text, true)
	}
	f.Fuzz(func(t *testing.T, pattern, text string, fold bool) {
		caseMode := match.CaseSensitive
		if fold {
			caseMode = match.CaseInsensitive
		}
		m, err := match.CompileLine(pattern, false, caseMode)
		if err != nil {
			return
		}
		if fold {
			pattern = "(?i)" + pattern
		}
		re, err := regexp.Compile(pattern)
		if err != nil {
			t.Fatalf("CompileLine took %q, regexp refuses it: %v", pattern, err)
		}
		var got []string
		err = search.Lines([]byte(text), m, nil, true, func(n int, _ []byte, col int) bool {
			got = append(got, fmt.Sprintf("%d:%d", n, col))
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		if want := naive(re, text); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("Lines = %v, regexp line by line = %v", got, want)
		}
	})
}
