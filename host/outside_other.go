//go:build !unix

package host

import (
	"os"
	"path/filepath"
)

// above is a directory above a root: by name here (Windows is not run).
type above struct{ dir string }

func aboveOf(dir *os.File) (above, []string, error) {
	abs, err := filepath.Abs(dir.Name())
	if err != nil {
		return above{}, nil, err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return above{dir: abs}, components(abs), nil
}

func (a above) parent() (above, error) {
	p := filepath.Dir(a.dir)
	if p == a.dir {
		return above{}, os.ErrNotExist
	}
	return above{dir: p}, nil
}

func (a above) close() {}

func (a above) isRepo() bool {
	_, err := os.Lstat(filepath.Join(a.dir, ".git"))
	return err == nil
}

func (a above) read(name string) ([]byte, error) {
	fi, err := os.Stat(filepath.Join(a.dir, name))
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errNotRegular
	}
	return os.ReadFile(filepath.Join(a.dir, name))
}
