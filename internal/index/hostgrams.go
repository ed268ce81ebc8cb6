//go:build wasip1 && hostgrams

package index

import "unsafe"

// A measurement, not the module (issue 32, item 4; RATIONALE.md, "Why
// does the module extract its own trigrams?"): built with the tag
// hostgrams, the index asks its host for a document's trigrams, a
// function the host runs natively (bench -run hostfn runs
// BenchmarkTrigrams and BenchmarkBuild so, beside the module's loop).
//
//go:wasmimport rootbound_bench trigrams
//go:noescape
func hostTrigrams(content unsafe.Pointer, n uint32, out unsafe.Pointer) uint32

// trigrams is hostgrams_off.go's, computed by the host: it writes the distinct
// trigrams of content, in the order they first occur, to out (room for
// len(content) of them) and says how many.
func (ix *Index) trigrams(content []byte) []uint32 {
	if cap(ix.added) < len(content) {
		ix.added = make([]uint32, len(content))
	}
	out := ix.added[:len(content)]
	n := hostTrigrams(unsafe.Pointer(unsafe.SliceData(content)), uint32(len(content)), unsafe.Pointer(unsafe.SliceData(out)))
	ix.added = out[:n]
	return ix.added
}
