package meter

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"testing"
)

func FuzzCountByte(f *testing.F) {
	f.Add([]byte("a\nb\n\n\x00\xff\n12345678\n"), byte('\n'))
	f.Add([]byte{}, byte(0))
	f.Fuzz(func(t *testing.T, b []byte, c byte) {
		if got, want := countByte(b, c), bytes.Count(b, []byte{c}); got != want {
			t.Fatalf("countByte(%q, %q) = %d, bytes.Count says %d", b, c, got, want)
		}
	})
}

func FuzzIndexByte(f *testing.F) {
	f.Add([]byte("a\nb\n\n\x00\xff\n12345678\n"), byte('\n'))
	f.Add([]byte{}, byte(0))
	f.Add(bytes.Repeat([]byte{0x80}, 70), byte(0x7f))
	f.Fuzz(func(t *testing.T, b []byte, c byte) {
		if got, want := indexByteSWAR(b, c), bytes.IndexByte(b, c); got != want {
			t.Fatalf("indexByteSWAR(%q, %q) = %d, bytes.IndexByte says %d", b, c, got, want)
		}
	})
}

// BenchmarkIndexByte compares Go's IndexByte and the SWAR loop over 1 MiB
// with the byte at its end; run it as wasm to see the module's speeds:
// GOOS=wasip1 GOARCH=wasm go test -c ./internal/meter, then run the test
// binary under wazero with -test.bench IndexByte.
func BenchmarkIndexByte(b *testing.B) {
	buf := bytes.Repeat([]byte("abcdefghijklmnopqrstuvwxyz012345"), 1<<15)
	buf[len(buf)-1] = '\n'
	for _, bc := range []struct {
		name string
		f    func([]byte, byte) int
	}{{"bytes", bytes.IndexByte}, {"swar", indexByteSWAR}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(buf)))
			for b.Loop() {
				if bc.f(buf, '\n') != len(buf)-1 {
					b.Fatal("wrong")
				}
			}
		})
	}
}

// indexByteSWAR is bytes.IndexByte(b, c), 32 bytes a step in four 8-byte
// words: a lever weighed for the module's scans and not taken. Under
// wazero, Go's wasm IndexByte scans 4.5–5.0 GB/s and this 3.6–3.8
// (BenchmarkIndexByte, run as wasm; RATIONALE.md).
func indexByteSWAR(b []byte, c byte) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	rep := uint64(c) * lo
	// zero has the high bit set of the first byte of v that is 0 (and
	// maybe of later ones, never of earlier ones).
	zero := func(v uint64) uint64 { return (v - lo) &^ v & hi }
	i := 0
	for ; i+32 <= len(b); i += 32 {
		z0 := zero(binary.LittleEndian.Uint64(b[i:]) ^ rep)
		z1 := zero(binary.LittleEndian.Uint64(b[i+8:]) ^ rep)
		z2 := zero(binary.LittleEndian.Uint64(b[i+16:]) ^ rep)
		z3 := zero(binary.LittleEndian.Uint64(b[i+24:]) ^ rep)
		if z0|z1|z2|z3 != 0 {
			switch {
			case z0 != 0:
				return i + bits.TrailingZeros64(z0)/8
			case z1 != 0:
				return i + 8 + bits.TrailingZeros64(z1)/8
			case z2 != 0:
				return i + 16 + bits.TrailingZeros64(z2)/8
			}
			return i + 24 + bits.TrailingZeros64(z3)/8
		}
	}
	for ; i+8 <= len(b); i += 8 {
		if z := zero(binary.LittleEndian.Uint64(b[i:]) ^ rep); z != 0 {
			return i + bits.TrailingZeros64(z)/8
		}
	}
	for ; i < len(b); i++ {
		if b[i] == c {
			return i
		}
	}
	return -1
}
