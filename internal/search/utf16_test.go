package search

import (
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// FuzzDecodeUTF16 holds decodeUTF16 to unicode/utf16.Decode (which also
// writes an unpaired surrogate as U+FFFD), both byte orders.
func FuzzDecodeUTF16(f *testing.F) {
	f.Add([]byte("\xff\xfeh\x00i\x00"))
	f.Add([]byte("\xfe\xff\x00h\xd8\x3d\xde\x00\xd8"))
	f.Add([]byte("\xff\xfe\x00\xdcx"))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, bom := range [][]byte{{0xFF, 0xFE}, {0xFE, 0xFF}} {
			b := append(append([]byte{}, bom...), body...)
			got, err := decodeUTF16(nil, b, nil)
			if err != nil {
				t.Fatal(err)
			}
			units := make([]uint16, 0, len(body)/2)
			for i := 0; i+1 < len(body); i += 2 {
				if bom[0] == 0xFE {
					units = append(units, uint16(body[i])<<8|uint16(body[i+1]))
				} else {
					units = append(units, uint16(body[i+1])<<8|uint16(body[i]))
				}
			}
			want := string(utf16.Decode(units))
			if len(body)%2 == 1 {
				want += string(utf8.RuneError)
			}
			if string(got) != want {
				t.Fatalf("% x: %q, utf16.Decode %q", b, got, want)
			}
		}
	})
}
