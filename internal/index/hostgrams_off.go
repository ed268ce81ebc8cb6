//go:build !(wasip1 && hostgrams)

package index

// trigrams returns the distinct trigrams of content (at least three
// bytes), in the order they first occur, in a slice reused by the next
// call.
func (ix *Index) trigrams(content []byte) []uint32 {
	if ix.seen == nil {
		ix.seen = make([]uint64, 1<<24/64)
	}
	ix.added = AppendTrigrams(ix.added[:0], ix.seen, content)
	return ix.added
}
