package match

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// dfaPatterns are the literal-free patterns of BenchmarkDFA (issue 50):
// what agents write that no literal narrows, so the DFA reads every byte.
var dfaPatterns = []struct{ name, expr string }{
	{"digits", `[0-9]{4}[-/][0-9]{2}[-/][0-9]{2}`},
	{"hex", `\b[0-9a-f]{40}\b`},
	{"words", `\w+\s*[=:]\s*\w+[(\[]`},
	{"line", `^\s*[a-z]+\s*$`},
	{"unicode", `\p{Lu}\p{Ll}+\p{Nd}`},
}

// dfaText is the Go tree's source, up to 64 MiB, read once.
var dfaText []byte

func loadDFAText(b *testing.B) []byte {
	if dfaText == nil {
		dfaText = goSource(b, "src", 64<<20)
	}
	return dfaText
}

// goSource is the Go files under GOROOT's directory sub, up to max bytes
// (GOROOT from the environment, as a wasm run is given it, else from the
// go command); a benchmark without them is skipped.
func goSource(b *testing.B, sub string, max int) []byte {
	goroot := os.Getenv("GOROOT")
	if goroot == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			b.Skip(err)
		}
		goroot = strings.TrimSpace(string(out))
	}
	var text []byte
	filepath.WalkDir(filepath.Join(goroot, sub), func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".go") && len(text) < max {
			data, _ := os.ReadFile(path)
			text = append(text, data...)
		}
		return nil
	})
	if len(text) == 0 {
		b.Skip("no Go source under GOROOT")
	}
	return text
}

// eachLine hands each line of text m matches to f, as grep -n finds them:
// each matching line, the search going on after it.
func eachLine(b *testing.B, m Matcher, text []byte, f func(line []byte)) {
	for from := 0; from < len(text); {
		start, end, err := m.NextLine(text, from, nil)
		if err != nil {
			b.Fatal(err)
		}
		if end < 0 {
			break
		}
		f(text[start:end])
		from = end + 1
	}
}

// BenchmarkLocate times what grep -n adds to a line search where many
// lines match: where each match is in each matching line (LocateAt from
// the line's start, then after each match), over the Go tree's source's
// first 16 MiB. MB/s is the text's bytes over the time, the line search
// included (make bench -run dfa runs it natively and in wasm).
func BenchmarkLocate(b *testing.B) {
	text := loadDFAText(b)
	text = text[:min(len(text), 16<<20)]
	for _, p := range []struct{ name, expr string }{
		{"words", `\w+\s*[=:]\s*\w+[(\[]`},
		{"call", `[a-z]+\.[A-Z]\w*\(`},
	} {
		m, err := Compile([]string{p.expr}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			spans := 0
			for range b.N {
				spans = 0
				eachLine(b, m, text, func(line []byte) {
					for at := 0; at <= len(line); {
						s, e, err := m.LocateAt(line, at, nil)
						if err != nil {
							b.Fatal(err)
						}
						if s < 0 {
							break
						}
						spans++
						at = max(e, s+1)
					}
				})
			}
			b.ReportMetric(float64(spans), "spans")
		})
	}
}

// BenchmarkDFA times the search of a line matcher over the Go tree's
// source with each of dfaPatterns, as grep -n runs it: each matching line
// found, the search going on after it. MB/s is the text's bytes over the
// time (make bench -run dfa runs it natively and in wasm).
func BenchmarkDFA(b *testing.B) { benchLines(b, true) }

// BenchmarkSearch is BenchmarkDFA with each matcher as compiled: a skip
// scan of the byte sets every match holds, where one moves far enough
// (need.go, skip.go), finds the lines the DFA then reads.
func BenchmarkSearch(b *testing.B) { benchLines(b, false) }

// benchLines times the line search of each of dfaPatterns over the Go
// tree's source, by the DFA alone or by the matcher as compiled.
func benchLines(b *testing.B, alone bool) {
	text := loadDFAText(b)
	for _, p := range dfaPatterns {
		m, err := Compile([]string{p.expr}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		rm, ok := m.(*regexMatcher)
		if !ok {
			b.Fatalf("%s: not a regex matcher (%T)", p.expr, m)
		}
		if alone {
			rm.prefilter = nil
		}
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			lines := 0
			for range b.N {
				lines = 0
				eachLine(b, m, text, func([]byte) { lines++ })
			}
			b.ReportMetric(float64(lines), "lines")
		})
	}
}

// TestDFALines holds the line matcher's DFA to Go's regexp, line by line,
// on what the fuzz targets' short texts seldom reach: long texts (the
// idle states' passes over what keeps them, across chunks), every kind of
// start, characters that are not ASCII, and a pattern of thousands of
// states whose cache is cleared and refilled during the scan.
func TestDFALines(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	var ab, mixed strings.Builder
	for range 20_000 {
		ab.WriteByte("ab"[rnd.IntN(2)])
		if rnd.IntN(5000) == 0 {
			ab.WriteByte('\n')
		}
	}
	words := []string{"alpha", "Beta", "γάμμα", "ΔΕΛΤΑ", "x = f(y)", "2024-01-15", "0x1f", "  ", "\t", "deadbeef0123456789abcdef0123456789abcdef", "Ünï9", "_k"}
	for range 30_000 {
		mixed.WriteString(words[rnd.IntN(len(words))])
		mixed.WriteByte(" \n,;"[rnd.IntN(4)])
	}
	for _, c := range []struct{ expr, text string }{
		{`(a|b)*a(a|b){12}$`, ab.String()}, // 8,192 states: the cache is cleared as it scans
		{`[0-9]{4}[-/][0-9]{2}[-/][0-9]{2}`, mixed.String()},
		{`\b[0-9a-f]{40}\b`, mixed.String()},
		{`\w+\s*[=:]\s*\w+[(\[]`, mixed.String()},
		{`^\s*[a-z]+\s*$`, mixed.String()},
		{`\p{Lu}\p{Ll}+\p{Nd}`, mixed.String()},
		{`^[\p{Greek}\s]+$`, mixed.String()},
		{`[^\x00-\x7f]{3}`, mixed.String()},
		{`ta\b`, mixed.String()},
		{`(?i)ünï`, mixed.String()},
	} {
		m, err := Compile([]string{c.expr}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		expr, _, _ := unicodePerl(c.expr)
		re := regexp.MustCompile(expr)
		var want []int
		for i, line := range strings.Split(strings.TrimSuffix(c.text, "\n"), "\n") {
			if re.MatchString(line) {
				want = append(want, i+1)
			}
		}
		if got := nextLines(t, m, c.text); !slices.Equal(got, want) {
			t.Errorf("%s: %d lines, regexp says %d (first difference at %v)", c.expr, len(got), len(want), firstDiff(got, want))
		}
		if rm := m.(*regexMatcher); c.expr == `(a|b)*a(a|b){12}$` && rm.dfa.clears == 0 {
			t.Errorf("%s: the cache was never cleared", c.expr)
		}
	}
}

func firstDiff(a, b []int) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return min(a[i], b[i])
		}
	}
	return -1
}

// BenchmarkCompile is what a grep's pattern costs before it reads a byte,
// and what the host pays to ask whether the index narrows it
// (host.Runner.narrows): \w's Unicode class is most of it.
func BenchmarkCompile(b *testing.B) {
	for _, p := range dfaPatterns {
		b.Run(p.name, func(b *testing.B) {
			for range b.N {
				if _, err := Compile([]string{p.expr}, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
