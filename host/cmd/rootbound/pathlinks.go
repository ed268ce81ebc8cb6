package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// pathRule is what --help says of a PATH.
const pathRule = "  A PATH with a link at any component is refused (exit 2), as a link inside it is never followed;\n" +
	"  links in directories you cannot write (the system's own layout, e.g. macOS's /tmp) excepted. SECURITY.md has the rule.\n"

// linkIn refuses a PATH that goes through a link, at any component, as
// the tools refuse one inside a root: a PATH is typed by a person or a
// model and its directories are often a stranger's tree (a checkout whose
// etcdir is a link to /etc). A relative PATH is checked from cwd down (the
// caller's own directory is where they are, not what they typed); an
// absolute one, or one that climbs above cwd with "..", from "/". The one
// kind of link followed is the system's own layout: a link in a directory
// this user cannot write (macOS's /tmp and /var, /bin on merged-/usr
// systems). A user with the right to write everywhere (root) follows none.
func linkIn(cwd, arg string) error {
	p := filepath.Clean(arg)
	at, shown := cwd, ""
	if at == "" {
		at = "."
	}
	if filepath.IsAbs(p) || p == ".." || strings.HasPrefix(p, ".."+string(filepath.Separator)) {
		abs, err := filepath.Abs(inDir(cwd, p))
		if err != nil {
			return err
		}
		vol := filepath.VolumeName(abs)
		at, shown, p = vol+string(filepath.Separator), vol+string(filepath.Separator), abs[len(vol):]
	}
	names := strings.FieldsFunc(p, func(r rune) bool { return r == filepath.Separator })
	for i, name := range names {
		if name == "." {
			continue
		}
		dir := at
		at, shown = filepath.Join(at, name), filepath.Join(shown, name)
		fi, err := os.Lstat(at)
		if err != nil {
			return nil // the call reports what is missing
		}
		if fi.Mode()&fs.ModeSymlink != 0 && !systemLink(dir) {
			what := shown + " is a link"
			if i == len(names)-1 {
				what = "a link"
			}
			return fmt.Errorf("%s: %s; no link is followed, at any component of a PATH: name what it points to", arg, what)
		}
	}
	return nil
}
