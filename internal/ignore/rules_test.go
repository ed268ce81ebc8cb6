package ignore

import (
	"strings"
	"testing"

	"github.com/rootbound/rootbound/internal/match"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name  string
		file  string
		path  string
		isDir bool
		want  Verdict
	}{
		{name: "name at any depth", file: "a.log\n", path: "x/y/a.log", want: Ignore},
		{name: "trailing slash: directories only", file: "build/\n", path: "build", want: None},
		{name: "trailing slash, a directory", file: "build/\n", path: "x/build", isDir: true, want: Ignore},
		{name: "anchored", file: "/a\n", path: "x/a", want: None},
		{name: "anchored at the file's directory", file: "/a\n", path: "a", want: Ignore},
		{name: "middle slash anchors", file: "x/a\n", path: "y/x/a", want: None},
		{name: "last match wins", file: "*.log\n!keep.log\n", path: "keep.log", want: Keep},
		{name: "last match wins, again", file: "!keep.log\n*.log\n", path: "keep.log", want: Ignore},
		{name: "comment", file: "#a\n", path: "#a", want: None},
		{name: "escaped hash", file: "\\#a\n", path: "#a", want: Ignore},
		{name: "escaped bang", file: "\\!a\n", path: "!a", want: Ignore},
		{name: "trailing spaces trimmed", file: "a  \n", path: "a", want: Ignore},
		{name: "escaped trailing space kept", file: "a\\ \n", path: "a ", want: Ignore},
		{name: "escaped trailing space, not the name without it", file: "a\\ \n", path: "a", want: None},
		{name: "CRLF", file: "a\r\nb\r\n", path: "b", want: Ignore},
		{name: "byte order mark", file: "\xef\xbb\xbfa\n", path: "a", want: Ignore},
		{name: "no final newline", file: "a", path: "a", want: Ignore},
		{name: "double star", file: "a/**/b\n", path: "a/x/y/b", want: Ignore},
		{name: "double star, no directory", file: "a/**/b\n", path: "a/b", want: Ignore},
		{name: "class", file: "[[:digit:]]*\n", path: "9z", want: Ignore},
		{name: "negated class", file: "[!a]\n", path: "a", want: None},
		{name: "suffix rule", file: "*.min.js\n", path: "x/app.min.js", want: Ignore},
		{name: "tabs are not trimmed", file: "a\t\n", path: "a", want: None},
		{name: "a rule at the bound of a rule's length", file: strings.Repeat("?", MaxRuleBytes) + "\n", path: strings.Repeat("a", MaxRuleBytes), want: Ignore},
		{name: "a rule past it is not applied", file: "*.log\n" + strings.Repeat("*", MaxRuleBytes+1) + "\n!a.log\n", path: "a.log", want: Keep},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, _ := Parse([]byte(tc.file), "f").Match(tc.path, tc.isDir, nil); got != tc.want {
				t.Errorf("%q on %q: %v, want %v", tc.file, tc.path, got, tc.want)
			}
		})
	}
}

// TestLongRules counts the rules too long to apply, and where the first is.
func TestLongRules(t *testing.T) {
	long := strings.Repeat("[a]", MaxRuleBytes)
	r := Parse([]byte("a\n"+long+"\nb\n"+long+"\n"), "f")
	if r.Long != 2 || r.FirstLong != 2 || r.Len() != 2 {
		t.Errorf("Long %d FirstLong %d Len %d, want 2 2 2", r.Long, r.FirstLong, r.Len())
	}
}

// FuzzRules holds the lookups (names, paths, suffixes) that skip matching
// to matching every rule, last first, as git does.
func FuzzRules(f *testing.F) {
	f.Add("*.log\n!keep.log\nbuild/\n/dist\na/**/b\n", "keep.log", false)
	f.Add("x\n*x\n!x/\n", "a/x", true)
	f.Add("*.o.*\n*.tab.[ch]\n[[:alpha:]]x*\n\\#*#\n", "y.tab.c", false)
	f.Add("a[]]b*c\\*d?e\n", "a]bxc*dze", false)
	f.Fuzz(func(t *testing.T, file, path string, isDir bool) {
		if len(file) > 512 || path == "" || strings.HasPrefix(path, "/") || strings.HasSuffix(path, "/") || strings.Contains(path, "//") {
			return
		}
		r := Parse([]byte(file), "f")
		got, gotRule := r.Match(path, isDir, nil)
		want, wantRule := None, -1
		base := path[strings.LastIndexByte(path, '/')+1:]
		for i := len(r.rules) - 1; i >= 0; i-- {
			ru := r.rules[i]
			subject := path
			if ru.basename {
				subject = base
			}
			if ru.dirOnly && !isDir || !match.CompileWildmatch(ru.pattern).Match(subject, nil) {
				continue
			}
			want, wantRule = Ignore, i
			if ru.negative {
				want = Keep
			}
			break
		}
		if got != want || gotRule != wantRule {
			t.Fatalf("%q on %q: %v (rule %d), matching each rule says %v (rule %d)", file, path, got, gotRule, want, wantRule)
		}
	})
}

// TestMiddle: the text a wildcard pattern's matches all hold, which the
// rules compare before the matcher (FuzzRules holds it to the matcher).
func TestMiddle(t *testing.T) {
	for _, tt := range []struct{ pattern, want string }{
		{pattern: "*.o.*", want: ".o."},
		{pattern: "*.tab.[ch]", want: ".tab."},
		{pattern: "buf_*_table.c", want: "_table.c"},
		{pattern: "a[]]bcd*e", want: "bcd"},
		{pattern: "a[!x]bc?de", want: "bc"},
		{pattern: "ab\\*cd*", want: "ab"},
		{pattern: "[[:alpha:]]xyz*", want: ""},
		{pattern: "abc[de", want: ""},
		{pattern: "*", want: ""},
	} {
		if got := middle(tt.pattern); got != tt.want {
			t.Errorf("middle(%q) = %q, want %q", tt.pattern, got, tt.want)
		}
	}
}
