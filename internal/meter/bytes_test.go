package meter

import (
	"bytes"
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
