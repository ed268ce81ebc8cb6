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
func newSkipTable(plain []byte) *skipTable {
	n := len(plain)
	t := &skipTable{last: min(n, 255)}
	for i := range t.shift {
		t.shift[i] = uint8(min(n, 255))
	}
	for i, c := range plain[:n-1] {
		t.shift[c] = uint8(min(n-1-i, 255))
		if c == plain[n-1] {
			t.last = min(n-1-i, 255)
		}
	}
	t.shift[plain[n-1]] = 0
	return t
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
	var moved, total uint64
	for c, f := range byteFreq {
		s := uint64(t.shift[c])
		if s == 0 {
			s = uint64(t.last)
		}
		moved += uint64(f) * s
		total += uint64(f)
	}
	// 3.8 / (moved/total) < 0.75 · (0.25 + 40·rare/1e6), in integers.
	return 4*3_800_000*total < 3*moved*(250_000+40*rare)
}

// findSkip is find1 by a skip scan: the first position at or after from
// where the literal occurs, or -1. Candidate starts are charged a chunk at
// a time, as find1 charges them.
func (p *prefilter) findSkip(buf []byte, from int, m *meter.Meter) (int, error) {
	plain, t := p.plain[0], p.skip
	n := len(plain)
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
			if bytes.Equal(buf[i-n+1:i+1], plain) {
				return i - n + 1, nil
			}
			i += t.last
		}
		from = end
	}
	return -1, nil
}
