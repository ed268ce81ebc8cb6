package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// gramsTable weighs what an index could key a file's contents by (issue
// 32, "sharper grams"), by the share of a tree's bytes each leaves to be
// read for a literal: trigrams (the index as built); trigrams with a mask
// of the bytes that follow each (8 bits, as GitHub's code search adds);
// every 4-gram exactly (what any mask of next bytes approaches at best);
// sparse n-grams, weighted by how rarely the Go tree holds each byte pair
// (sparseGrams);
// and trigrams with identifiers, the maximal runs of [A-Za-z0-9_] (a file
// is read when it holds the trigrams and, for each of the literal's runs,
// an identifier that holds it: that ends with it, when the literal goes
// on after it; that starts with it, when the literal has a byte before
// it; equal to it, both). The files are
// rg --files' (the walk's ignore rules); it times nothing, and counts
// postings (distinct keys per file, summed) as the index's size. With
// -run grams or no -run: the generated tree it writes (the big tree's
// density of identifiers, 20,000 files) takes a minute.
func gramsTable(keep *regexp.Regexp, tmp string, trees map[string]string) error {
	if !keep.MatchString("grams") {
		return nil
	}
	dense := filepath.Join(tmp, "grams-c")
	if err := writeCTreeOf(dense, 20_000, 4); err != nil {
		return err
	}
	weight, err := pairWeights(trees["go"])
	if err != nil {
		return err
	}
	type tree struct {
		name, dir string
		lits      []string
	}
	generated := []string{"flash_probe_gpio_init", "usb_phy_reset_init", "_gpio_init(", "usb_phy_reset"}
	list := []tree{
		{"generated C, the big tree's density", dense, generated},
		{"go", trees["go"], []string{"ParseInLocation", "errUnexpectedEOF", "func (b *Builder) Grow(", "TODO"}},
	}
	if trees["real"] != "" {
		list = append(list, tree{"real", trees["real"], []string{"usb_phy_reset_init", "acpi_create_dmar_rmrr", "dm_gpio_set_value", "clk_get_rate", "ActiveSupport::Notifications::Fanout"}})
	}
	fmt.Println("\nWhat an index could key contents by (gramsTable): the share of the tree's bytes (files) each leaves to read for a literal")
	fmt.Println()
	fmt.Println("| tree | literal | files that hold it | trigrams | trigrams + next-byte mask | 4-grams | sparse n-grams | trigrams + identifiers |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, t := range list {
		out, err := exec.Command("rg", "--files", "--hidden", "--no-require-git", t.dir).Output()
		if err != nil {
			return err
		}
		g := newGramCount(t.lits, weight)
		for _, p := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if b, err := os.ReadFile(p); err == nil && !bytes.Contains(b[:min(len(b), 8192)], []byte{0}) {
				g.add(b)
			}
		}
		for i, l := range t.lits {
			share := func(k int) string {
				return fmt.Sprintf("%.1f%% (%d)", 100*float64(g.bytes[i][k])/float64(max(g.total, 1)), g.files[i][k])
			}
			fmt.Printf("| %s | `%s` | %s | %s | %s | %s | %s | %s |\n", t.name, l, share(gramExact), share(gramTri), share(gramMask), share(gramFour), share(gramSparse), share(gramIdent))
		}
		fmt.Printf("| %s | postings (keys per file, summed) | %d files, %d MB | %d | %d + a byte each | %d | %d | %d (%d distinct identifiers) |\n",
			t.name, g.docs, g.total>>20, g.posts[gramTri], g.posts[gramTri], g.posts[gramFour], g.posts[gramSparse], g.posts[gramIdent], len(g.vocab))
	}
	return nil
}

// The keys gramsTable weighs, and the files that hold the literal.
const (
	gramExact = iota
	gramTri
	gramMask
	gramFour
	gramSparse
	gramIdent
	gramKinds
)

// gramCount counts, for each literal and key, the files (and their bytes)
// a query of that key would read.
type gramCount struct {
	lits         []string
	files        [][gramKinds]int
	bytes        [][gramKinds]int64
	posts        [gramKinds]int64
	docs         int
	total        int64
	vocab        map[string]bool
	seen         []uint64 // bit t: trigram t is in the file
	mask         []byte   // trigram t: the bits of the bytes after it
	tris         []uint32
	fours, words map[string]bool
	sparse       map[string]bool
	weight       *[1 << 16]uint64 // a byte pair's weight: rarer in the Go tree, heavier
	stack        []int
}

// sparseGrams calls f with every sparse n-gram of b (Cursor's, and GitHub's
// code search's): a run from byte pair i to byte pair j, j > i, whose two
// end pairs both weigh more than every pair between them. Every three
// bytes in a row are one; whether a run is one depends on its own bytes
// alone, so every sparse gram of a literal is one of each file that holds
// it, and a query may ask for all of them. At most 2n of them.
func (g *gramCount) sparseGrams(b []byte, f func([]byte)) {
	w := func(i int) uint64 { return g.weight[uint16(b[i])<<8|uint16(b[i+1])] }
	st := g.stack[:0]
	for j := 0; j+2 <= len(b); j++ {
		for len(st) > 0 && w(st[len(st)-1]) < w(j) {
			f(b[st[len(st)-1] : j+2])
			st = st[:len(st)-1]
		}
		if len(st) > 0 {
			f(b[st[len(st)-1] : j+2])
			if w(st[len(st)-1]) == w(j) {
				st = st[:len(st)-1]
			}
		}
		st = append(st, j)
	}
	g.stack = st
}

// pairWeights weighs each byte pair by how rarely the files under dir
// hold it (ties, and pairs never seen, apart by a hash).
func pairWeights(dir string) (*[1 << 16]uint64, error) {
	out, err := exec.Command("rg", "--files", dir).Output()
	if err != nil {
		return nil, err
	}
	var count [1 << 16]uint64
	for _, p := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		for i := 0; i+2 <= len(b); i++ {
			count[uint16(b[i])<<8|uint16(b[i+1])]++
		}
	}
	w := new([1 << 16]uint64)
	for k, n := range count {
		w[k] = uint64(math.MaxUint32-min(n, math.MaxUint32))<<32 | uint64(uint32(k)*0x9e3779b1)
	}
	return w, nil
}

var identRun = regexp.MustCompile(`[A-Za-z0-9_]+`)

func newGramCount(lits []string, weight *[1 << 16]uint64) *gramCount {
	return &gramCount{lits: lits, weight: weight, sparse: map[string]bool{}, files: make([][gramKinds]int, len(lits)), bytes: make([][gramKinds]int64, len(lits)),
		vocab: map[string]bool{}, seen: make([]uint64, 1<<24/64), mask: make([]byte, 1<<24),
		fours: map[string]bool{}, words: map[string]bool{}}
}

// nextBit is a byte's bit in a trigram's mask of next bytes.
func nextBit(c byte) byte { return 1 << ((c * 0x9d) >> 5) }

func (g *gramCount) add(b []byte) {
	g.docs++
	g.total += int64(len(b))
	for _, t := range g.tris {
		g.seen[t>>6], g.mask[t] = 0, 0
	}
	g.tris = g.tris[:0]
	clear(g.fours)
	clear(g.words)
	clear(g.sparse)
	g.sparseGrams(b, func(s []byte) { g.sparse[string(s)] = true })
	for i := 0; i+3 <= len(b); i++ {
		t := uint32(b[i])<<16 | uint32(b[i+1])<<8 | uint32(b[i+2])
		if g.seen[t>>6]&(1<<(t&63)) == 0 {
			g.seen[t>>6] |= 1 << (t & 63)
			g.tris = append(g.tris, t)
		}
		if i+4 <= len(b) {
			g.mask[t] |= nextBit(b[i+3])
			g.fours[string(b[i:i+4])] = true
		}
	}
	for _, w := range identRun.FindAll(b, -1) {
		g.words[string(w)] = true
	}
	for w := range g.words {
		g.vocab[w] = true
	}
	g.posts[gramTri] += int64(len(g.tris))
	g.posts[gramFour] += int64(len(g.fours))
	g.posts[gramIdent] += int64(len(g.words))
	g.posts[gramSparse] += int64(len(g.sparse))
	for i, l := range g.lits {
		pass := [gramKinds]bool{bytes.Contains(b, []byte(l)), true, true, true, true, true}
		for j := 0; j+3 <= len(l); j++ {
			t := uint32(l[j])<<16 | uint32(l[j+1])<<8 | uint32(l[j+2])
			if g.seen[t>>6]&(1<<(t&63)) == 0 {
				pass[gramTri], pass[gramMask], pass[gramFour] = false, false, false
			}
			if j+4 <= len(l) && g.mask[t]&nextBit(l[j+3]) == 0 {
				pass[gramMask] = false
			}
			if j+4 <= len(l) && !g.fours[l[j:j+4]] {
				pass[gramFour] = false
			}
		}
		g.sparseGrams([]byte(l), func(s []byte) { pass[gramSparse] = pass[gramSparse] && g.sparse[string(s)] })
		pass[gramIdent] = pass[gramTri]
		for _, at := range identRun.FindAllStringIndex(l, -1) {
			run, left, right := l[at[0]:at[1]], at[0] > 0, at[1] < len(l)
			held := false
			for w := range g.words {
				switch {
				case left && right:
					held = w == run
				case left:
					held = strings.HasPrefix(w, run)
				case right:
					held = strings.HasSuffix(w, run)
				default:
					held = strings.Contains(w, run)
				}
				if held {
					break
				}
			}
			pass[gramIdent] = pass[gramIdent] && held
		}
		for k, ok := range pass {
			if ok {
				g.files[i][k]++
				g.bytes[i][k] += int64(len(b))
			}
		}
	}
}
