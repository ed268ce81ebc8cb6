//go:build !wasip1

package walk

import (
	"io/fs"
	"os"
	"slices"
	"strings"
)

// list lists the directory f, which it closes, in name order; the type of
// each entry comes with it (d_type, or Windows' listing), so there is no
// stat per entry. Natively a sort is quick enough to leave the meter
// alone, as os.ReadDir's own sort did.
func list(f *os.File) ([]Entry, error) {
	defer f.Close()
	entries, err := f.ReadDir(-1)
	out := make([]Entry, 0, len(entries))
	for _, e := range entries {
		k := TypeSpecial
		switch t := e.Type(); {
		case t.IsDir():
			k = TypeDir
		case t.IsRegular():
			k = TypeFile
		case t&fs.ModeSymlink != 0:
			k = TypeSymlink
		}
		out = append(out, Entry{Name: e.Name(), Type: k})
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
	return out, err
}
