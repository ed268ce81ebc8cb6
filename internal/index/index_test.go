package index

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/internal/match"
)

func lit(s string) [][]byte {
	l := make([][]byte, len(s))
	for i := range len(s) {
		l[i] = []byte{s[i]}
	}
	return l
}

func TestCandidates(t *testing.T) {
	docs := []string{
		"func main() { return }",  // 0
		"package returns",         // 1
		"TODO: fix",               // 2
		"FIXME later",             // 3
		"re",                      // 4: too short for any trigram
		"Return of the jedi",      // 5
		"nothing here at all ...", // 6
	}
	for _, tt := range []struct {
		name   string
		lits   [][][]byte
		freeze int // freeze after this many documents (0: never)
		remove []Doc
		want   []Doc
		all    bool
	}{
		{name: "one literal", lits: [][][]byte{lit("return")}, want: []Doc{0, 1}},
		{name: "alternation", lits: [][][]byte{lit("TODO"), lit("FIXME")}, want: []Doc{2, 3}},
		{name: "case variants", lits: [][][]byte{{{'r', 'R'}, {'e'}, {'t'}, {'u'}, {'r'}, {'n'}}}, want: []Doc{0, 1, 5}},
		{name: "short literal asks nothing", lits: [][][]byte{lit("re")}, all: true},
		{name: "one short literal of two asks nothing", lits: [][][]byte{lit("return"), lit("re")}, all: true},
		{name: "no literal", lits: nil, all: true},
		{name: "no document", lits: [][][]byte{lit("zebra")}, want: nil},
		{name: "frozen and live", lits: [][][]byte{lit("return"), lit("FIXME")}, freeze: 2, want: []Doc{0, 1, 3}},
		{name: "frozen twice", lits: [][][]byte{lit("return")}, freeze: 1, want: []Doc{0, 1}},
		{name: "removed", lits: [][][]byte{lit("return")}, freeze: 1, remove: []Doc{0}, want: []Doc{1}},
		{name: "too many variants leave a position out", lits: [][][]byte{{[]byte("abcde"), []byte("abcde"), []byte("abcde"), {'z'}}}, want: nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ix := New()
			for i, d := range docs {
				if got := ix.Add([]byte(d)); got != Doc(i) {
					t.Fatalf("Add = %d, want %d", got, i)
				}
				if tt.freeze > 0 && (i+1)%tt.freeze == 0 {
					ix.Freeze()
				}
			}
			for _, d := range tt.remove {
				ix.Remove(d)
			}
			got, all := ix.Candidates(Literals(tt.lits))
			if all != tt.all || !slices.Equal(got, tt.want) {
				t.Errorf("Candidates = %v, all %v; want %v, all %v", got, all, tt.want, tt.all)
			}
		})
	}
}

// TestTooManyVariants: a position of more than maxVariants trigrams is
// left out, so the query asks for the other positions only.
func TestTooManyVariants(t *testing.T) {
	ix := New()
	ix.Add([]byte("abcxyzq"))
	ix.Add([]byte("xyzq"))
	wide := [][]byte{[]byte("abcdefghi"), []byte("abcdefghi"), []byte("abcdefghi")} // 729 variants
	q := Literals([][][]byte{append(wide, lit("xyzq")...)})
	if got, all := ix.Candidates(q); all || !slices.Equal(got, []Doc{0}) {
		t.Errorf("Candidates = %v, all %v; want [0]", got, all)
	}
}

// soundness checks the index's one promise: a document in which m finds a
// match (or Go's regexp, for re) is a candidate.
func soundness(t *testing.T, pattern string, o match.Options, docs [][]byte, freezeAt int) {
	t.Helper()
	m, err := match.Compile([]string{pattern}, o)
	if err != nil {
		return
	}
	var re *regexp.Regexp
	if !o.Literal && !o.Multiline {
		prefix := ""
		if o.Case == match.CaseInsensitive {
			prefix = "(?i)"
		}
		re, _ = regexp.Compile(prefix + pattern)
	}
	ix := New()
	for i, d := range docs {
		ix.Add(d)
		if i == freezeAt {
			ix.Freeze()
		}
	}
	cands, all := ix.Candidates(Literals(match.Required(m)))
	for i, d := range docs {
		if all || slices.Contains(cands, Doc(i)) {
			continue
		}
		if s, _, _ := m.NextLine(d, 0, nil); s >= 0 {
			t.Fatalf("pattern %q (%+v): document %d %q matches but is not a candidate (required %q)", pattern, o, i, d, match.Required(m))
		}
		if re != nil {
			for _, line := range bytes.Split(d, []byte("\n")) {
				if re.Match(line) {
					t.Fatalf("pattern %q (%+v): document %d %q matches by Go's regexp but is not a candidate", pattern, o, i, d)
				}
			}
		}
	}
}

func FuzzIndex(f *testing.F) {
	f.Add("return", uint8(0), []byte("x return y\nreturned\nRETURN"), uint64(1))
	f.Add("TODO|FIXME", uint8(0), []byte("todo\nFIX ME\nFIXME: now"), uint64(2))
	f.Add(`\w+_init\(`, uint8(0), []byte("foo_init(\nbar_init (x)"), uint64(3))
	f.Add("σίσυφος", uint8(1), []byte("ΣΊΣΥΦΟΣ\nσίσυφοσ"), uint64(4))
	f.Add("ab.cd", uint8(2), []byte("ab\ncd\nabxcd"), uint64(5))
	f.Add("err", uint8(3), []byte("error\nerr\n"), uint64(6))
	defer func(on bool) { alwaysWords = on }(alwaysWords)
	alwaysWords = true
	f.Fuzz(func(t *testing.T, pattern string, opts uint8, text []byte, seed uint64) {
		o := match.Options{Literal: opts&4 != 0, Word: opts&8 != 0, Multiline: opts&2 != 0}
		if opts&1 != 0 {
			o.Case = match.CaseInsensitive
		}
		// The text's lines, dealt into documents by the seed; and more
		// documents made of the pattern's own bytes, so that some match.
		rng := rand.New(rand.NewPCG(seed, seed>>7))
		docs := make([][]byte, 1+rng.IntN(6))
		for _, line := range bytes.SplitAfter(text, []byte("\n")) {
			k := rng.IntN(len(docs))
			docs[k] = append(docs[k], line...)
		}
		for range 3 {
			var b []byte
			for range rng.IntN(3*len(pattern) + 1) {
				b = append(b, pattern[rng.IntN(len(pattern)+1)%max(1, len(pattern))])
			}
			docs = append(docs, append([]byte(strings.ToUpper(string(b))+"\n"), b...))
		}
		soundness(t, pattern, o, docs, rng.IntN(len(docs)))
	})
}

// TestSoundnessRandom runs the soundness check over generated patterns and
// texts of a small alphabet, where trigrams collide and matches are common.
func TestSoundnessRandom(t *testing.T) {
	defer func(on bool) { alwaysWords = on }(alwaysWords)
	alwaysWords = true
	rng := rand.New(rand.NewPCG(1, 2))
	atoms := []string{"a", "b", "c", "ab", "abc", "é", "É", ".", `\w`, "[ab]", "(a|bc)", "(?:ca)+", "b?", "c*", "x{2}", `\b`,
		"[a-c]", "[abAB]{2}", "[a-z]+", "[^a]", "(?:[ab]c)+", "[0-9x]{1,3}"}
	for i := range 3000 {
		var p strings.Builder
		for range 1 + rng.IntN(6) {
			p.WriteString(atoms[rng.IntN(len(atoms))])
		}
		if rng.IntN(4) == 0 {
			p.WriteString("|" + atoms[rng.IntN(len(atoms))] + atoms[rng.IntN(len(atoms))] + atoms[rng.IntN(len(atoms))])
		}
		docs := make([][]byte, 8)
		for k := range docs {
			n := rng.IntN(40)
			for range n {
				docs[k] = append(docs[k], "abcxAB \nÉé"[rng.IntN(12)])
			}
		}
		o := match.Options{Multiline: i%5 == 0, Word: i%7 == 0}
		if i%3 == 0 {
			o.Case = match.CaseInsensitive
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) { soundness(t, p.String(), o, docs, i%8) })
	}
}

// corpus reads the Go files under dir (GOROOT's src when empty), skipping
// files with a NUL in their first 8 KiB, as the search does.
func corpus(b *testing.B, dir string) (docs [][]byte, text int) {
	if dir == "" {
		dir = filepath.Join(goroot(b), "src")
	}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			data, err := os.ReadFile(path)
			if err == nil && bytes.IndexByte(data[:min(len(data), 8<<10)], 0) < 0 {
				docs = append(docs, data)
				text += len(data)
			}
		}
		return nil
	})
	if len(docs) == 0 {
		b.Skip("no files under " + dir)
	}
	return docs, text
}

func goroot(b *testing.B) string {
	if r := os.Getenv("GOROOT"); r != "" {
		return r
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no go command")
	}
	return strings.TrimSpace(string(out))
}

// BenchmarkTrigrams finds the distinct trigrams of each file of a tree
// (INDEX_TREE, or GOROOT's src), the per-byte loop every build runs before
// it makes a posting list: a build's floor. Under wazero (the test built
// with GOOS=wasip1 GOARCH=wasm, the tree mounted) it is the module's.
func BenchmarkTrigrams(b *testing.B) {
	docs, text := corpus(b, os.Getenv("INDEX_TREE"))
	b.SetBytes(int64(text))
	b.ResetTimer()
	ix := New()
	n := 0
	for range b.N {
		for _, d := range docs {
			if len(d) >= 3 {
				n += len(ix.trigrams(d))
			}
		}
	}
	b.ReportMetric(float64(n)/float64(b.N)/float64(len(docs)), "trigrams/file")
}

// BenchmarkBuild builds an index of a tree's files (INDEX_TREE, or GOROOT's
// src), reporting its size against the text's and, for the bench's
// patterns, the share of the files a search then reads.
func BenchmarkBuild(b *testing.B) {
	docs, text := corpus(b, os.Getenv("INDEX_TREE"))
	b.SetBytes(int64(text))
	b.ResetTimer()
	var ix *Index
	for range b.N {
		ix = New()
		for _, d := range docs {
			ix.Add(d)
		}
		ix.Freeze()
	}
	b.ReportMetric(float64(ix.Bytes())/float64(text), "index/text")
	b.ReportMetric(float64(len(docs)), "files")
	for _, p := range []struct {
		name string
		pat  string
		o    match.Options
	}{
		{"rare", "CanonicalMIMEHeaderKey", match.Options{Literal: true}},
		{"flash", "flash_probe_gpio_init", match.Options{Literal: true}},
		{"return", "return", match.Options{}},
		{"init", `\w+_init\(`, match.Options{}},
		{"todo", "TODO|FIXME", match.Options{}},
		{"fold", "ΣΊΣΥΦΟΣ", match.Options{Case: match.CaseInsensitive}},
		{"error", "error", match.Options{Case: match.CaseInsensitive}},
	} {
		m, err := match.Compile([]string{p.pat}, p.o)
		if err != nil {
			b.Fatal(err)
		}
		cands, all := ix.Candidates(Literals(match.Required(m)))
		share := float64(len(cands)) / float64(len(docs))
		if all {
			share = 1
		}
		b.ReportMetric(share, p.name+"-share")
	}
}

// TestWorthWords: identifiers are asked only when the files the trigrams
// leave are likely larger than the names.
func TestWorthWords(t *testing.T) {
	ix := New()
	ix.Add([]byte("flash_probe_gpio x probe_gpio_init"))
	big := New()
	big.Add(append([]byte("flash_probe_gpio x probe_gpio_init "), strings.Repeat("- ", 100)...))
	q := Literals([][][]byte{lit("flash_probe_gpio_init")})
	if got, _ := ix.Candidates(q); len(got) != 1 {
		t.Errorf("a small file: Candidates = %v, want it read (the names are larger)", got)
	}
	if got, _ := big.Candidates(q); len(got) != 0 {
		t.Errorf("a large file: Candidates = %v, want none (its identifiers rule it out)", got)
	}
}

// TestIdentifiers: a document that holds a literal's trigrams but no
// identifier the literal's runs can be part of is not a candidate; one
// that holds such an identifier, or a longer identifier than the
// vocabulary keeps, is.
func TestIdentifiers(t *testing.T) {
	defer func(on bool) { alwaysWords = on }(alwaysWords)
	alwaysWords = true
	long := strings.Repeat("x", maxWord) + "flash_probe_gpio_init" + strings.Repeat("y", 10)
	docs := []string{
		"flash_probe_gpio x probe_gpio_init", // 0: every trigram of flash_probe_gpio_init, no identifier
		"a flash_probe_gpio_init();",         // 1
		"xflash_probe_gpio_inity",            // 2: inside a longer identifier
		"(gpio_initx) xgpio_init)",           // 3: the trigrams of (gpio_init), no identifier that is gpio_init
		"f(gpio_init);",                      // 4
		long,                                 // 5: past maxWord
		"FLASH_PROBE_GPIO_INIT",              // 6
	}
	ix := New()
	for i, d := range docs {
		ix.Add([]byte(d))
		if i == 2 {
			ix.Freeze()
		}
	}
	fold := func(s string) [][]byte {
		l := lit(s)
		for i, set := range l {
			if c := set[0]; 'a' <= c && c <= 'z' {
				l[i] = []byte{c, c - 'a' + 'A'}
			}
		}
		return l
	}
	for _, tt := range []struct {
		name string
		lits [][][]byte
		want []Doc
	}{
		{name: "anywhere in an identifier", lits: [][][]byte{lit("flash_probe_gpio_init")}, want: []Doc{1, 2, 5}},
		{name: "an identifier whole", lits: [][][]byte{lit("(gpio_init)")}, want: []Doc{4}},
		{name: "the end of an identifier", lits: [][][]byte{lit("gpio_init)")}, want: []Doc{3, 4}},
		{name: "the start of an identifier", lits: [][][]byte{lit("(gpio_init")}, want: []Doc{3, 4}},
		{name: "case variants", lits: [][][]byte{fold("flash_probe_gpio_init")}, want: []Doc{1, 2, 5, 6}},
		{name: "a mixed position bounds nothing", lits: [][][]byte{append(lit("gpio_init"), []byte{')', 'x'})}, want: []Doc{3, 4}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got, all := ix.Candidates(Literals(tt.lits)); all || !slices.Equal(got, tt.want) {
				t.Errorf("Candidates = %v, all %v; want %v", got, all, tt.want)
			}
			again, err := Decode(ix.AppendTo(nil))
			if err != nil {
				t.Fatal(err)
			}
			if got, all := again.Candidates(Literals(tt.lits)); all || !slices.Equal(got, tt.want) {
				t.Errorf("decoded: Candidates = %v, all %v; want %v", got, all, tt.want)
			}
		})
	}
}

// TestCommonRun: a run that more than maxRunNames identifiers hold asks
// nothing of them (the document holding its trigrams and no such
// identifier is then a candidate); the trigrams still narrow.
func TestCommonRun(t *testing.T) {
	defer func(on bool) { alwaysWords = on }(alwaysWords)
	alwaysWords = true
	for _, tt := range []struct {
		name  string
		names int
		want  int
	}{
		{name: "in few identifiers", names: maxRunNames - 1, want: maxRunNames - 1},
		{name: "in too many", names: maxRunNames + 1, want: maxRunNames + 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ix := New()
			for i := range tt.names {
				ix.Add(fmt.Appendf(nil, "gpio_%d;", i))
			}
			ix.Add([]byte("gpio io_")) // the trigrams of gpio_, no identifier that holds it
			ix.Add([]byte("gpi pio"))
			got, all := ix.Candidates(Literals([][][]byte{lit("gpio_")}))
			if all || len(got) != tt.want {
				t.Errorf("Candidates: %d documents, all %v; want %d", len(got), all, tt.want)
			}
		})
	}
}

// BenchmarkWords times a query's identifiers (wordDocs, which reads every
// name) on the index of a tree (INDEX_TREE, or GOROOT's src): a literal in
// no identifier, one in a few, and one in case variants.
func BenchmarkWords(b *testing.B) {
	docs, _ := corpus(b, os.Getenv("INDEX_TREE"))
	ix := New()
	for _, d := range docs {
		ix.Add(d)
	}
	ix.Freeze()
	b.ReportMetric(float64(len(ix.words.offs)-1), "names")
	for _, tt := range []struct {
		name string
		run  [][]byte
	}{
		{"none", lit("flash_probe_gpio_init")},
		{"few", lit("CanonicalMIMEHeaderKey")},
		{"fold", func() [][]byte {
			l := lit("canonicalmimeheaderkey")
			for i, set := range l {
				l[i] = append(set, set[0]-'a'+'A')
			}
			return l
		}()},
	} {
		b.Run(tt.name, func(b *testing.B) {
			q := &Query{op: opWord, run: tt.run}
			for range b.N {
				ix.wordDocs(q)
			}
		})
	}
}

// TestVocabularyOf: of gives the keys of a document's distinct
// identifiers of minWord bytes and more, one longWord for all past
// maxWord, as a scan with a regular expression finds them, document after
// document of one vocabulary, where names repeat within and across them.
func TestVocabularyOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ident := regexp.MustCompile(`[A-Za-z0-9_]+`)
	v := newVocabulary()
	parts := []string{"ab", "c", "_x", "9", "Zq", " ", "(", "\n", strings.Repeat("w", 40)}
	for d := range 2000 {
		var b strings.Builder
		for range rng.IntN(300) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		content := []byte(b.String())
		want := map[string]bool{}
		for _, w := range ident.FindAll(content, -1) {
			switch {
			case len(w) > maxWord:
				want[""] = true // longWord's name
			case len(w) >= minWord:
				want[string(w)] = true
			}
		}
		got := map[string]bool{}
		for _, k := range v.of(content) {
			if got[string(v.name(k))] {
				t.Fatalf("document %d: key %d given twice", d, k)
			}
			got[string(v.name(k))] = true
		}
		if !maps.Equal(got, want) {
			t.Fatalf("document %d, %q: of gives %v, want %v", d, content, got, want)
		}
	}
}
