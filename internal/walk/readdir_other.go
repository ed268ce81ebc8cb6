//go:build !wasip1

package walk

import (
	"io/fs"
	"os"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// readDir lists the directory fd in name order; the type of each entry
// comes with it (d_type), so there is no stat per entry. It reads through
// a descriptor of its own, so fd's offset is never moved. Natively a sort
// is quick enough to leave the meter alone, as os.ReadDir's own sort did.
func (*Walker) readDir(fd int, _ string) ([]Entry, error) {
	own, err := unix.Openat(fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(own), ".")
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
