package search_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rootbound/rootbound/internal/match"
	"github.com/rootbound/rootbound/internal/nofollow"
	"github.com/rootbound/rootbound/internal/search"
	"github.com/rootbound/rootbound/internal/testtree"
)

// sink writes what a search sends as rg prints it, with the first
// match's column: "N:col:line" for a match, "N-line" for context.
type sink struct{ got []string }

func (s *sink) Matched(n int, line []byte, spans [][2]int, starts int) bool {
	col := -1
	if len(spans) > 0 {
		col = spans[0][0]
	}
	s.got = append(s.got, fmt.Sprintf("%d:%d:%s", n, col, line))
	return true
}

func (s *sink) Context(n int, line []byte) bool {
	s.got = append(s.got, fmt.Sprintf("%d-%s", n, line))
	return true
}

func lines(t *testing.T, pattern, text string) []string {
	t.Helper()
	return searchWith(t, []string{pattern}, match.Options{}, search.Options{Spans: true}, text)
}

func searchWith(t *testing.T, patterns []string, mo match.Options, so search.Options, text string) []string {
	t.Helper()
	m, err := match.Compile(patterns, mo)
	if err != nil {
		t.Fatal(err)
	}
	var s sink
	if err := new(search.Searcher).Search([]byte(text), m, so, nil, &s); err != nil {
		t.Fatal(err)
	}
	return s.got
}

func TestSearchOptions(t *testing.T) {
	text := "a1\nb\nc\na2\nd\ne\nf\ng\na3\n"
	tests := []struct {
		name     string
		patterns []string
		mo       match.Options
		so       search.Options
		text     string
		want     []string
	}{
		{name: "after", patterns: []string{"a"}, so: search.Options{After: 1}, text: text,
			want: []string{"1:-1:a1", "2-b", "4:-1:a2", "5-d", "9:-1:a3"}},
		{name: "before", patterns: []string{"a"}, so: search.Options{Before: 2}, text: text,
			want: []string{"1:-1:a1", "2-b", "3-c", "4:-1:a2", "7-f", "8-g", "9:-1:a3"}},
		{name: "context overlapping", patterns: []string{"a"}, so: search.Options{Before: 3, After: 3}, text: text,
			want: []string{"1:-1:a1", "2-b", "3-c", "4:-1:a2", "5-d", "6-e", "7-f", "8-g", "9:-1:a3"}},
		{name: "invert", patterns: []string{"a|b"}, so: search.Options{Invert: true}, text: "a\nx\nb\ny",
			want: []string{"2:-1:x", "4:-1:y"}},
		{name: "invert with context", patterns: []string{"a"}, so: search.Options{Invert: true, Before: 1}, text: "a\nx\na\na\ny\n",
			want: []string{"1-a", "2:-1:x", "4-a", "5:-1:y"}},
		{name: "max count", patterns: []string{"a"}, so: search.Options{MaxCount: 2, After: 1}, text: text,
			want: []string{"1:-1:a1", "2-b", "4:-1:a2", "5-d"}},
		{name: "all spans", patterns: []string{"o"}, so: search.Options{Spans: true}, text: "foo bar boo\n",
			want: []string{"1:1:foo bar boo"}},
		{name: "several patterns", patterns: []string{"b", "d"}, text: text, want: []string{"2:-1:b", "5:-1:d"}},
		{name: "word", patterns: []string{"foo"}, mo: match.Options{Word: true}, so: search.Options{Spans: true}, text: "foobar\nbar foo.\nfoo_x\n",
			want: []string{"2:4:bar foo."}},
		{name: "word, pattern starting with a non-word character", patterns: []string{"-x"}, mo: match.Options{Word: true}, so: search.Options{Spans: true}, text: "-x\na-x\na -x\n",
			want: []string{"1:0:-x", "3:2:a -x"}},
		{name: "crlf", patterns: []string{"b;$"}, mo: match.Options{CRLF: true}, so: search.Options{Spans: true}, text: "a;\r\nb;\r\n",
			want: []string{"2:0:b;\r"}},
		{name: "multiline", patterns: []string{`a\nb`}, mo: match.Options{Multiline: true}, so: search.Options{Spans: true}, text: "x\na\nb\ny\n",
			want: []string{"2:0:a", "3:0:b"}},
		{name: "multiline dot matches newline", patterns: []string{`start.*?end`}, mo: match.Options{Multiline: true}, so: search.Options{Spans: true, After: 1}, text: "start\nmid\nend\nafter\nz\n",
			want: []string{"1:0:start", "2:0:mid", "3:0:end", "4-after"}},
		{name: "multiline, two matches on one line", patterns: []string{`x\n?y`}, mo: match.Options{Multiline: true}, so: search.Options{Spans: true}, text: "x\nyxy\n",
			want: []string{"1:0:x", "2:0:yxy"}},
		{name: "unicode word", patterns: []string{`^\w+$`}, text: "σίσυφος\nStraße\nİstanbul\n中文\na b\n",
			want: []string{"1:-1:σίσυφος", "2:-1:Straße", "3:-1:İstanbul", "4:-1:中文"}},
		{name: "unicode boundary", patterns: []string{`\bΣ`}, text: "ΣΊΣΥΦΟΣ\nxΣ\n", want: []string{"1:-1:ΣΊΣΥΦΟΣ"}},
		{name: "ascii with (?-u)", patterns: []string{`(?-u)^\w+$`}, text: "σίσυφος\nabc\n", want: []string{"2:-1:abc"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := searchWith(t, tt.patterns, tt.mo, tt.so, tt.text)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
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
	hasFIFO := true
	if err := mkfifo(filepath.Join(dir, "fifo")); errors.Is(err, errors.ErrUnsupported) {
		hasFIFO = false
	} else if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		file    string
		maxSize int64
		want    string
		err     error
		link    bool // a *nofollow.LinkError
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
		{name: "symlink not followed", file: "link", maxSize: 100, link: true},
		{name: "a FIFO is opened without blocking and refused", file: "fifo", maxSize: 100, err: search.ErrSpecial},
	}
	tree, err := nofollow.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	var r search.Reader
	grew := 0
	r.BeforeGrow = func() { grew++ }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.file == "fifo" && !hasFIFO {
				t.Skip("no FIFOs on this system")
			}
			data, _, err := r.Read(tree, tt.file, tt.maxSize, 8192, nil)
			if tt.link {
				var le *nofollow.LinkError
				if !errors.As(err, &le) {
					t.Fatalf("err = %v, want a *nofollow.LinkError", err)
				}
				return
			}
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
	if _, _, err := r.Read(tree, "missing", 10, 10, nil); !errors.Is(err, os.ErrNotExist) {
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
// uFlag finds a flag group that sets or clears u.
var uFlag = regexp.MustCompile(`\(\?[a-zA-Z-]*u`)

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
		// ASCII classes, as Go's regexp has them (match's own fuzzing
		// holds the Unicode ones to it).
		m, err := match.Compile([]string{"(?-u)" + pattern}, match.Options{Case: caseMode})
		if err != nil || !utf8.ValidString(text) { // Go's regexp matches bytes that are not UTF-8 as U+FFFD (match's fuzzing holds those)
			return
		}
		if fold {
			pattern = "(?i)" + pattern
		}
		re, err := regexp.Compile(pattern)
		if err != nil && uFlag.MatchString(pattern) {
			return // ripgrep's u flag, which Go's regexp has not
		}
		if err != nil {
			t.Fatalf("Compile took %q, regexp refuses it: %v", pattern, err)
		}
		var s sink
		if err := new(search.Searcher).Search([]byte(text), m, search.Options{Spans: true}, nil, &s); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, g := range s.got {
			n, col, _ := strings.Cut(g, ":")
			col, _, _ = strings.Cut(col, ":")
			got = append(got, n+":"+col)
		}
		if want := naive(re, text); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("Lines = %v, regexp line by line = %v", got, want)
		}
	})
}

// FuzzSearchOptions holds context, invert and the per-file count to an
// oracle that works on whole lines: Go's regexp decides which lines match,
// the first max count of the hits (inverted: of the other lines) are the
// matching lines, and every other line within before or after lines of
// one is context, each line once, in order.
func FuzzSearchOptions(f *testing.F) {
	f.Add("a", "a1\nb\nc\na2\nd\ne\nf\ng\na3\n", uint8(1), uint8(2), false, uint8(0))
	f.Add("^$", "\n\nx\n\n", uint8(3), uint8(0), true, uint8(2))
	f.Add("b|c", "a\nb\nc\nd", uint8(0), uint8(9), false, uint8(1))
	f.Fuzz(func(t *testing.T, pattern, text string, before, after uint8, invert bool, maxCount uint8) {
		o := search.Options{Before: int(before % 8), After: int(after % 8), Invert: invert, MaxCount: int(maxCount % 5)}
		m, err := match.Compile([]string{"(?-u)" + pattern}, match.Options{Case: match.CaseSensitive})
		if err != nil || !utf8.ValidString(text) { // as FuzzLines
			return
		}
		re, err := regexp.Compile(pattern)
		if err != nil && uFlag.MatchString(pattern) {
			return // ripgrep's u flag, which Go's regexp has not
		}
		if err != nil {
			t.Fatalf("Compile took %q, regexp refuses it: %v", pattern, err)
		}
		var s sink
		if err := new(search.Searcher).Search([]byte(text), m, o, nil, &s); err != nil {
			t.Fatal(err)
		}
		var lines []string
		if text != "" {
			lines = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		}
		hit := make([]bool, len(lines))
		taken := 0
		for i, l := range lines {
			if re.MatchString(l) != invert && (o.MaxCount == 0 || taken < o.MaxCount) {
				hit[i] = true
				taken++
			}
		}
		var want []string
		for i, l := range lines {
			near := false
			for j := max(0, i-o.After); j <= min(len(lines)-1, i+o.Before); j++ {
				near = near || hit[j]
			}
			switch {
			case hit[i]:
				want = append(want, fmt.Sprintf("%d:%s", i+1, l))
			case near:
				want = append(want, fmt.Sprintf("%d-%s", i+1, l))
			}
		}
		var got []string
		for _, g := range s.got {
			if n, rest, ok := strings.Cut(g, ":"); ok && !strings.Contains(n, "-") {
				_, l, _ := strings.Cut(rest, ":")
				g = n + ":" + l
			}
			got = append(got, g)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("options %+v:\nSearch %q\noracle %q", o, got, want)
		}
	})
}
