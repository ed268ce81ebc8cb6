// Package private makes and checks the directories only this user may
// open: the resident server's socket directory and the index cache.
package private

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Dir makes dir (mode 0700, and its parents) unless it is there, and
// checks it is a directory, not a link, of this user's, that no other user
// can open.
func Dir(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	switch {
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	case !owned(fi):
		return fmt.Errorf("%s is not this user's", dir)
	case fi.Mode().Perm()&0o077 != 0 && checksMode:
		return fmt.Errorf("%s can be opened by other users (mode %v)", dir, fi.Mode().Perm())
	}
	return nil
}
