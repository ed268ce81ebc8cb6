//go:build unix

package private

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDir: a directory is taken only when no other user can write it or
// anything on the way to it.
func TestDir(t *testing.T) {
	root := os.Geteuid() == 0
	for _, c := range []struct {
		name string
		// make builds the case in base and returns the directory to check.
		make     func(t *testing.T, base string) string
		want     string // in the error; "" for none
		rootOnly bool   // chown to another user
	}{
		{name: "made, with its parents", make: func(t *testing.T, base string) string { return filepath.Join(base, "a", "b") }},
		{name: "there, 0700", make: func(t *testing.T, base string) string { return mkdir(t, base, "d", 0o700) }},
		{name: "open to others", want: "can be opened by other users", make: func(t *testing.T, base string) string {
			return mkdir(t, base, "d", 0o755)
		}},
		{name: "a link to a directory", want: "is a link", make: func(t *testing.T, base string) string {
			mkdir(t, base, "d", 0o700)
			link(t, "d", filepath.Join(base, "l"))
			return filepath.Join(base, "l")
		}},
		{name: "a link on the way", want: "is a link", make: func(t *testing.T, base string) string {
			mkdir(t, mkdir(t, base, "d", 0o700), "e", 0o700)
			link(t, "d", filepath.Join(base, "l"))
			return filepath.Join(base, "l", "e")
		}},
		{name: "a link, then ..", want: "is a link", make: func(t *testing.T, base string) string {
			mkdir(t, mkdir(t, base, "d", 0o700), "e", 0o700)
			link(t, "d/e", filepath.Join(base, "l"))
			return filepath.Join(base, "l") + "/../e"
		}},
		{name: "a file", want: "not a directory", make: func(t *testing.T, base string) string {
			os.WriteFile(filepath.Join(base, "f"), nil, 0o600)
			return filepath.Join(base, "f")
		}},
		{name: "above, writable by others", want: "can be written by other users", make: func(t *testing.T, base string) string {
			return mkdir(t, mkdir(t, base, "open", 0o777), "d", 0o700)
		}},
		{name: "above, writable by its group", want: "can be written by other users", make: func(t *testing.T, base string) string {
			return mkdir(t, mkdir(t, base, "open", 0o770), "d", 0o700)
		}},
		{name: "above, sticky and open (/tmp)", make: func(t *testing.T, base string) string {
			return mkdir(t, mkdir(t, base, "tmp", 0o777|fs.ModeSticky), "d", 0o700)
		}},
		{name: "another user's, in a sticky directory", want: "another user", rootOnly: true, make: func(t *testing.T, base string) string {
			d := mkdir(t, mkdir(t, base, "tmp", 0o777|fs.ModeSticky), "d", 0o700)
			os.Chown(d, 65533, 65533)
			return d
		}},
		{name: "another user's", want: "not this user's", rootOnly: true, make: func(t *testing.T, base string) string {
			d := mkdir(t, base, "d", 0o700)
			os.Chown(d, 65533, 65533)
			return d
		}},
		{name: "another user's, above", want: "not this user's", rootOnly: true, make: func(t *testing.T, base string) string {
			d := mkdir(t, base, "theirs", 0o755)
			os.Chown(d, 65533, 65533)
			return mkdir(t, d, "d", 0o700)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.rootOnly && !root {
				t.Skip("chowns to another user: root only")
			}
			dir := c.make(t, t.TempDir())
			err := Dir(dir)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("%v, want an error saying %q", err, c.want)
			case c.want == "":
				if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
					t.Errorf("%v %v, want a directory of mode 0700", fi.Mode(), err)
				}
			}
		})
	}
}

func mkdir(t *testing.T, dir, name string, mode fs.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.Mkdir(p, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func link(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}
