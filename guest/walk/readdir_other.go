//go:build !wasip1

package walk

import (
	"io/fs"
	"os"
)

// readDir lists a directory in name order; the type of each entry comes with
// it (d_type), so there is no stat per entry.
func (w *Walker) readDir(dir string) ([]Entry, error) {
	entries, err := os.ReadDir(dir)
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
	return out, err
}
