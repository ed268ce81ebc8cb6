package match

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestWildmatchGitCases runs git's own wildmatch cases.
func TestWildmatchGitCases(t *testing.T) {
	f, err := os.Open("testdata/wildmatch.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		want, rest, _ := strings.Cut(line, " ")
		dec := json.NewDecoder(strings.NewReader(rest))
		var text, pattern string
		if err := dec.Decode(&text); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if err := dec.Decode(&pattern); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		n++
		if got := CompileWildmatch(pattern).Match(text, nil); got != (want == "1") {
			t.Errorf("wildmatch(%q, %q) = %v, git says %s", pattern, text, got, want)
		}
		if got := gitDowild([]byte(pattern), []byte(text)) == wmMatch; got != (want == "1") {
			t.Errorf("the port of dowild: (%q, %q) = %v, git says %s", pattern, text, got, want)
		}
	}
	if n < 150 {
		t.Fatalf("only %d cases", n)
	}
}

func TestWildmatchBytes(t *testing.T) {
	for _, tc := range []struct {
		pattern, text string
		want          bool
	}{
		{pattern: "?", text: "é", want: false}, // two bytes
		{pattern: "??", text: "é", want: true},
		{pattern: "[\xc3][\xa9]", text: "é", want: true},
		{pattern: "*.txt", text: "naïve.txt", want: true},
		{pattern: "[[:alpha:]]", text: "\xe9", want: false},
		{pattern: "[[:space:]]", text: "\v", want: false}, // git's ctype
		{pattern: "[[:space:]]", text: "\r", want: true},
		// As git 2.52 (git before it matched the literal start of an
		// ignore file's path pattern on its own, and said yes to both).
		{pattern: "foo**/bar", text: "foobar", want: false},
		{pattern: "foo**/bar", text: "foo/x/bar", want: false},
	} {
		if got := CompileWildmatch(tc.pattern).Match(tc.text, nil); got != tc.want {
			t.Errorf("%q on %q = %v, want %v", tc.pattern, tc.text, got, tc.want)
		}
	}
}

// FuzzWildmatch holds the DFA translation to a line-by-line port of git's
// wildmatch.c (dowild, WM_PATHNAME), which backtracks and so runs only on
// short inputs.
func FuzzWildmatch(f *testing.F) {
	for _, s := range [][2]string{
		{"foo/**/bar", "foo/bar"}, {"**/bar*", "foo/bar/baz"}, {"[[:]ab]", "[ab]"},
		{"a[]-]b", "a-b"}, {"[!------]", "a"}, {"*/\\\\", "XXX/\\"}, {"foo**/bar", "foobar"},
		{"**\\/x", "a/x"}, {"[\\1-\\3]", "2"}, {"[[-\\]]", "\\"}, {"[a-e-n]", "-"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		if len(pattern) > 16 || len(text) > 16 || strings.IndexByte(pattern+text, 0) >= 0 {
			return
		}
		want := gitDowild([]byte(pattern), []byte(text)) == wmMatch
		if got := CompileWildmatch(pattern).Match(text, nil); got != want {
			t.Fatalf("wildmatch(%q, %q) = %v, git's algorithm says %v", pattern, text, got, want)
		}
	})
}

const (
	wmMatch           = 0
	wmNoMatch         = 1
	wmAbortAll        = -1
	wmAbortToStarStar = -2
)

// gitDowild is wildmatch.c's dowild with WM_PATHNAME, step for step.
func gitDowild(p, text []byte) int {
	at := func(s []byte, i int) byte {
		if i < len(s) {
			return s[i]
		}
		return 0
	}
	pi, ti := 0, 0
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pch := p[pi]
		tch := at(text, ti)
		if tch == 0 && pch != '*' {
			return wmAbortAll
		}
		switch pch {
		case '\\':
			pi++
			if tch != at(p, pi) {
				return wmNoMatch
			}
			continue
		case '?':
			if tch == '/' {
				return wmNoMatch
			}
			continue
		case '*':
			matchSlash := false
			pi++
			if at(p, pi) == '*' {
				prevP := pi - 2
				for pi++; at(p, pi) == '*'; pi++ {
				}
				if (prevP < 0 || p[prevP] == '/') &&
					(at(p, pi) == 0 || at(p, pi) == '/' || at(p, pi) == '\\' && at(p, pi+1) == '/') {
					if at(p, pi) == '/' && gitDowild(p[pi+1:], text[ti:]) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				}
			}
			if at(p, pi) == 0 {
				if !matchSlash && bytes.IndexByte(text[ti:], '/') >= 0 {
					return wmNoMatch
				}
				return wmMatch
			} else if !matchSlash && at(p, pi) == '/' {
				slash := bytes.IndexByte(text[ti:], '/')
				if slash < 0 {
					return wmNoMatch
				}
				ti += slash
				continue
			}
			for {
				if tch == 0 {
					break
				}
				if c := at(p, pi); c != '*' && c != '?' && c != '[' && c != '\\' {
					for tch = at(text, ti); tch != 0 && (matchSlash || tch != '/'); tch = at(text, ti) {
						if tch == c {
							break
						}
						ti++
					}
					if tch != c {
						return wmNoMatch
					}
				}
				if m := gitDowild(p[pi:], text[ti:]); m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarStar {
						return m
					}
				} else if !matchSlash && tch == '/' {
					return wmAbortToStarStar
				}
				ti++
				tch = at(text, ti)
			}
			return wmAbortAll
		case '[':
			pi++
			pch = at(p, pi)
			if pch == '^' {
				pch = '!'
			}
			negated := pch == '!'
			if negated {
				pi++
				pch = at(p, pi)
			}
			var prevCh byte
			matched := false
			for {
				if pch == 0 {
					return wmAbortAll
				}
				switch {
				case pch == '\\':
					pi++
					pch = at(p, pi)
					if pch == 0 {
						return wmAbortAll
					}
					if tch == pch {
						matched = true
					}
				case pch == '-' && prevCh != 0 && at(p, pi+1) != 0 && at(p, pi+1) != ']':
					pi++
					pch = at(p, pi)
					if pch == '\\' {
						pi++
						pch = at(p, pi)
						if pch == 0 {
							return wmAbortAll
						}
					}
					if tch <= pch && tch >= prevCh {
						matched = true
					}
					pch = 0
				case pch == '[' && at(p, pi+1) == ':':
					pi += 2
					s := pi
					for pch = at(p, pi); pch != 0 && pch != ']'; pch = at(p, pi) {
						pi++
					}
					if pch == 0 {
						return wmAbortAll
					}
					i := pi - s - 1
					if i < 0 || p[pi-1] != ':' {
						pi = s - 2
						pch = '['
						if tch == pch {
							matched = true
						}
						break
					}
					in, known := cClass(string(p[s:s+i]), tch)
					if !known {
						return wmAbortAll
					}
					matched = matched || in
					pch = 0
				default:
					if tch == pch {
						matched = true
					}
				}
				prevCh = pch
				pi++
				if pch = at(p, pi); pch == ']' {
					break
				}
			}
			if matched == negated || tch == '/' {
				return wmNoMatch
			}
			continue
		default:
			if tch != pch {
				return wmNoMatch
			}
			continue
		}
	}
	if ti < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

// cClass is git's ctype (ctype.c) for the classes wildmatch knows.
func cClass(name string, c byte) (in, known bool) {
	const (
		upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		lower = "abcdefghijklmnopqrstuvwxyz"
		digit = "0123456789"
		punct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
	)
	has := func(set string) bool { return c != 0 && strings.IndexByte(set, c) >= 0 }
	switch name {
	case "alnum":
		return has(upper + lower + digit), true
	case "alpha":
		return has(upper + lower), true
	case "blank":
		return has(" \t"), true
	case "cntrl":
		return c < 32 || c == 127, true
	case "digit":
		return has(digit), true
	case "graph":
		return has(upper + lower + digit + punct), true
	case "lower":
		return has(lower), true
	case "print":
		return has(upper + lower + digit + punct + " "), true
	case "punct":
		return has(punct), true
	case "space":
		return has(" \t\n\r"), true
	case "upper":
		return has(upper), true
	case "xdigit":
		return has(digit + "abcdefABCDEF"), true
	}
	return false, false
}
