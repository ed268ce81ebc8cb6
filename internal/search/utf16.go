package search

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/rootbound/rootbound/internal/meter"
)

// A file that starts with a UTF-16 byte order mark is text, though nearly
// every other byte of it is NUL: as ripgrep does, it is decoded to UTF-8
// (the mark dropped, an unpaired surrogate as U+FFFD) and searched, and
// only then checked for NUL bytes. Lines, numbers and match positions are
// those of the decoded text. Without a mark, UTF-16 is binary, as in rg.

// utf16BOM returns 1 for a little-endian mark at the start of b, 2 for a
// big-endian one, 0 for none.
func utf16BOM(b []byte) int {
	switch {
	case len(b) >= 2 && b[0] == 0xFF && b[1] == 0xFE:
		return 1
	case len(b) >= 2 && b[0] == 0xFE && b[1] == 0xFF:
		return 2
	}
	return 0
}

// decodeUTF16 appends to dst the UTF-8 of b, UTF-16 with a byte order
// mark. An odd last byte is dropped as U+FFFD. Every 4 KiB it charges m.
func decodeUTF16(dst, b []byte, m *meter.Meter) ([]byte, error) {
	big := utf16BOM(b) == 2
	unit := func(i int) uint16 {
		if big {
			return uint16(b[i])<<8 | uint16(b[i+1])
		}
		return uint16(b[i+1])<<8 | uint16(b[i])
	}
	for i, next := 2, 0; i+1 < len(b); {
		if i >= next {
			if err := m.Spend(4096); err != nil {
				return nil, err
			}
			next = i + 4096
		}
		r := rune(unit(i))
		i += 2
		if utf16.IsSurrogate(r) {
			if i+1 < len(b) {
				if pair := utf16.DecodeRune(r, rune(unit(i))); pair != utf8.RuneError {
					r = pair
					i += 2
				} else {
					r = utf8.RuneError
				}
			} else {
				r = utf8.RuneError
			}
		}
		dst = utf8.AppendRune(dst, r)
	}
	if len(b)%2 == 1 {
		dst = utf8.AppendRune(dst, utf8.RuneError)
	}
	return dst, nil
}
