//go:build !wasip1

package walk

import (
	"io/fs"
	"os"
)

// readDir lists a directory in name order; the type of each entry comes with
// it (d_type), so there is no stat per entry.
func (w *Walker) readDir(dir string) ([]dirent, error) {
	entries, err := os.ReadDir(dir)
	out := make([]dirent, 0, len(entries))
	for _, e := range entries {
		k := kindSpecial
		switch t := e.Type(); {
		case t.IsDir():
			k = kindDir
		case t.IsRegular():
			k = kindFile
		case t&fs.ModeSymlink != 0:
			k = kindSymlink
		}
		out = append(out, dirent{name: e.Name(), kind: k})
	}
	return out, err
}
