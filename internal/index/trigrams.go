package index

// AppendTrigrams appends the distinct trigrams of content (at least three
// bytes) to dst, in the order they first occur. seen is 1<<24 bits, all
// zero, and left so. This loop is the floor of a build
// (BenchmarkTrigrams); the host of -run hostfn runs it natively for a
// module built with the tag hostgrams (hostgrams.go).
func AppendTrigrams(dst []uint32, seen []uint64, content []byte) []uint32 {
	start := len(dst)
	t := uint32(content[0])<<8 | uint32(content[1])
	for _, c := range content[2:] {
		t = (t<<8 | uint32(c)) & (1<<24 - 1)
		w, bit := t>>6, uint64(1)<<(t&63)
		if seen[w]&bit == 0 {
			seen[w] |= bit
			dst = append(dst, t)
		}
	}
	for _, t := range dst[start:] {
		seen[t>>6] = 0
	}
	return dst
}
