package meter

import "bytes"

// Byte loops over a whole file run at 0.2–0.4 GB/s in wasm (Go's wasm port
// has no SIMD), so an 8 MiB file is 20–40 ms of one loop: these versions of
// the bytes functions charge and check every chunk.

// chunk is how many bytes a loop covers between two charges.
const chunk = 64 << 10

// IndexByte is bytes.IndexByte(b, c), metered.
func IndexByte(m *Meter, b []byte, c byte) (int, error) {
	for off := 0; off < len(b); off += chunk {
		end := min(len(b), off+chunk)
		if err := m.Spend(end - off); err != nil {
			return -1, err
		}
		if i := bytes.IndexByte(b[off:end], c); i >= 0 {
			return off + i, nil
		}
	}
	return -1, nil
}

// LastIndexByte is bytes.LastIndexByte(b, c), metered.
func LastIndexByte(m *Meter, b []byte, c byte) (int, error) {
	for end := len(b); end > 0; end -= chunk {
		off := max(0, end-chunk)
		if err := m.Spend(end - off); err != nil {
			return -1, err
		}
		if i := bytes.LastIndexByte(b[off:end], c); i >= 0 {
			return off + i, nil
		}
	}
	return -1, nil
}

// CountByte is bytes.Count(b, []byte{c}), metered.
func CountByte(m *Meter, b []byte, c byte) (int, error) {
	n := 0
	for off := 0; off < len(b); off += chunk {
		end := min(len(b), off+chunk)
		if err := m.Spend(end - off); err != nil {
			return n, err
		}
		n += bytes.Count(b[off:end], []byte{c})
	}
	return n, nil
}
