package match

import (
	"bytes"
	"runtime"

	"github.com/rootbound/rootbound/internal/meter"
)

// A skip scan finds one literal of plain bytes by Horspool's rule: look at
// the byte under the literal's last position, and shift by how far that
// byte is from the literal's end (its whole length when it is not in it).
// Why, beside the rarest-byte scan: in wasm, Go's IndexByte is a 4-byte
// loop with a cost per call, so a literal whose rarest byte is common
// (snake_case identifiers: "flash_probe_gpio_init" scans for 'h', one byte
// in a hundred) spends its time in calls and checks, while a skip scan
// reads one byte in ten or twenty of the text. Natively IndexByte is SIMD
// and always wins; there the skip scan is never chosen. BenchmarkFindLiteral
// measures both; RATIONALE.md has the figures and the rule.
var skipScans = runtime.GOARCH == "wasm"

// skipTable is a literal's shifts: shift[c] is how far the literal may
// move when c is under its last byte, 0 for the last byte itself; last is
// the shift after a candidate there was checked.
type skipTable struct {
	shift [256]uint8
	last  int
}

// newSkipTable returns the table of plain, whose shifts are capped at 255
// (a smaller shift never passes over a match).
func newSkipTable(plain []byte) *skipTable { return newSetSkipTable(exact(plain)) }

// newSetSkipTable returns the table of a literal of byte sets: a byte's
// shift is how far its last position before the end is (a set holding it
// there), the literal's length when none does, 0 in the last position's
// set; last is the least shift of a byte of the last position's set.
func newSetSkipTable(l literal) *skipTable {
	n := len(l)
	t := &skipTable{last: min(n, 255)}
	for i := range t.shift {
		t.shift[i] = uint8(min(n, 255))
	}
	for i, set := range l[:n-1] {
		for _, c := range set {
			t.shift[c] = uint8(min(n-1-i, 255))
		}
	}
	for _, c := range l[n-1] {
		t.last = min(t.last, int(t.shift[c]))
	}
	for _, c := range l[n-1] {
		t.shift[c] = 0
	}
	return t
}

// moved is how far a skip step by t moves over source code, in expectation
// (byteFreq), in thousandths of a byte.
func (t *skipTable) moved() uint64 {
	var moved, total uint64
	for c, f := range byteFreq {
		s := uint64(t.shift[c])
		if s == 0 {
			s = uint64(t.last)
		}
		moved += uint64(f) * s
		total += uint64(f)
	}
	return 1000 * moved / max(total, 1)
}

// skipPays says whether a skip scan by t costs clearly less (under
// three quarters) than the scan for its rarest byte, whose frequency is
// rare (parts per million), by a model fitted to BenchmarkFindLiteral
// under wazero: a skip step costs about 3.8 ns and moves the expected
// shift over source code (byteFreq); the byte scan costs 0.25 ns a byte
// and about 40 ns a candidate. The margin is for literals that match
// often, where each search starts a skip scan again ("return": the two
// were even in a grep of the Go tree, 917 and 900 ms).
func skipPays(t *skipTable, rare uint64) bool {
	// 3.8 / moved < 0.75 · (0.25 + 40·rare/1e6), in integers (moved in
	// thousandths).
	return 4*3_800_000*1000 < 3*t.moved()*(250_000+40*rare)
}

// minSetMove is the least expected move (in thousandths of a byte) for a
// skip scan of a literal of byte sets, which every match of a pattern with
// no other prefilter contains (need.go): a step moving 8 bytes costs about
// half a nanosecond a byte in wasm, where the DFA costs 3.5–4.3 (and
// natively about 0.15, where it costs 1–2). Over source code:
// `\b[0-9a-f]{40}\b` moves 32 bytes a step, the date pattern
// `[0-9]{4}[-/][0-9]{2}[-/][0-9]{2}` 9.5, `[A-Z]{3}_[0-9]{4}` 7.3.
const minSetMove = 6_000

// maxSetSkip bounds the positions of a set literal a skip scan checks (a
// candidate costs up to as many steps).
const maxSetSkip = 64

// newSetPrefilter returns a skip scan for l, a literal every match
// contains, when its steps move far enough over source code; nil
// otherwise.
func newSetPrefilter(l literal) *prefilter {
	if len(l) > maxSetSkip {
		l = l[:maxSetSkip] // what a match holds, it holds the start of
	}
	if len(l) < minLiteral {
		return nil
	}
	t := newSetSkipTable(l)
	if t.moved() < minSetMove {
		return nil
	}
	return &prefilter{lits: []literal{l}, plain: [][]byte{l.plain()}, skip: t}
}

// findSkip is find1 by a skip scan: the first position at or after from
// where the literal occurs, or -1. Candidate starts are charged a chunk at
// a time, as find1 charges them.
func (p *prefilter) findSkip(buf []byte, from int, m *meter.Meter) (int, error) {
	plain, lit, t := p.plain[0], p.lits[0], p.skip
	n := len(lit)
	i := from + n - 1 // the byte under the literal's last position
	for from < len(buf) {
		end := min(len(buf), from+scanChunk) // candidate starts in [from, end)
		if err := m.Spend(end - from); err != nil {
			return -1, err
		}
		stop := min(len(buf), end+n-1)
		for i < stop {
			s := int(t.shift[buf[i]])
			if s != 0 { // two steps before the next test of the loop
				if i += s; i >= stop {
					break
				}
				if s = int(t.shift[buf[i]]); s != 0 {
					i += s
					continue
				}
			}
			if plain != nil && bytes.Equal(buf[i-n+1:i+1], plain) || plain == nil && lit.at(buf, i-n+1) {
				return i - n + 1, nil
			}
			if plain == nil {
				if err := m.Spend(n); err != nil { // a check of byte sets
					return -1, err
				}
			}
			i += t.last
		}
		from = end
	}
	return -1, nil
}
