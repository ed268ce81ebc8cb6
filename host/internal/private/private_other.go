//go:build !unix

package private

import (
	"fmt"
	"os"
)

// check makes dir. On Windows a directory's mode bits say nothing of who
// may open it (its access list does); a directory under the user's
// profile, where the caches are made by default, is closed to others.
func check(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	return nil
}
