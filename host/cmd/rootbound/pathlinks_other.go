//go:build !unix

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// openPath opens PATH arg: here by name, once linkIn found no link on the
// way (Windows is not run; Unix opens a PATH a component at a time).
func openPath(cwd, arg string) (dir *os.File, file string, err error) {
	if err := linkIn(cwd, arg); err != nil {
		return nil, "", err
	}
	arg = inDir(cwd, arg)
	fi, err := os.Stat(arg)
	if err != nil {
		return nil, "", &fs.PathError{Op: "stat", Path: arg, Err: errors.Unwrap(err)}
	}
	name := arg
	switch {
	case fi.IsDir():
	case fi.Mode().IsRegular():
		name, file = filepath.Dir(arg), filepath.Base(arg)
	default:
		return nil, "", fmt.Errorf("%s: neither a directory nor a regular file", arg)
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, "", err
	}
	dir, err = os.Open(abs)
	return dir, file, err
}

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

// systemLink: on Windows no link (symbolic link or junction) in a PATH is
// followed.
func systemLink(string) bool { return false }

// dirID: no resident server here (it is Linux's).
func dirID(*os.File) string { return "" }
