//go:build unix

package rootfs

import (
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/rootbound/rootbound/internal/testtree"
)

func TestFS(t *testing.T) {
	outside := testtree.New(t, map[string]string{"secret": "x"})
	dir := testtree.New(t, map[string]string{
		"file":          "hello",
		"sub/x":         "",
		".git/config":   "token",
		"in-link":       "->file",
		"out-link":      "->" + filepath.Join(outside, "secret"),
		"out-dir":       "->" + outside,
		"g":             "->.git",
		"sub/up":        "->..",
		"sub/chain":     "->../g",
		"sub/dir-link":  "->../sub",
		"sub/file-link": "->../file",
	})
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if !d.openat2 && runtime.GOOS == "linux" {
		t.Log("this kernel has no openat2: only the component walk is tested")
	}
	t.Run("openat2", func(t *testing.T) { testFS(t, d, outside) })
	t.Run("a component at a time", func(t *testing.T) { testFS(t, &Dir{fd: d.fd}, outside) })
}

func testFS(t *testing.T, d *Dir, outside string) {
	gate := &Gate{}
	fsys := New(d, gate)
	const rd = experimentalsys.O_RDONLY
	tests := []struct {
		name string
		path string
		flag experimentalsys.Oflag
		want experimentalsys.Errno
	}{
		{name: "file", path: "file", flag: rd},
		{name: "dir", path: "sub", flag: rd | experimentalsys.O_DIRECTORY},
		{name: "root", path: "", flag: rd},
		{name: "deep", path: "sub/x", flag: rd},
		// No link is followed, at any component, wherever it points.
		{name: "link inside, last", path: "in-link", flag: rd, want: experimentalsys.ELOOP},
		{name: "link inside, nofollow", path: "in-link", flag: rd | experimentalsys.O_NOFOLLOW, want: experimentalsys.ELOOP},
		{name: "link outside, last", path: "out-link", flag: rd, want: experimentalsys.ELOOP},
		{name: "link outside, first", path: "out-dir/secret", flag: rd, want: experimentalsys.ELOOP},
		{name: "link to .git, first", path: "g/config", flag: rd, want: experimentalsys.ELOOP},
		{name: "link to .., middle", path: "sub/up/.git/config", flag: rd, want: experimentalsys.ELOOP},
		{name: "link to a link, middle", path: "sub/chain/config", flag: rd, want: experimentalsys.ELOOP},
		{name: "link to its own directory, as a directory", path: "sub/dir-link", flag: rd | experimentalsys.O_DIRECTORY, want: experimentalsys.ELOOP},
		{name: "link, then ..", path: "sub/dir-link/../file", flag: rd, want: experimentalsys.EPERM},
		{name: "dotdot", path: "../" + filepath.Base(outside) + "/secret", flag: rd, want: experimentalsys.EPERM},
		{name: "dotdot inside", path: "sub/../file", flag: rd, want: experimentalsys.EPERM},
		{name: "fifo never opened", path: "fifo", flag: rd, want: experimentalsys.EACCES},
		{name: "write", path: "file", flag: experimentalsys.O_WRONLY, want: experimentalsys.EROFS},
		{name: "create", path: "new", flag: experimentalsys.O_CREAT | experimentalsys.O_RDWR, want: experimentalsys.EROFS},
		{name: "not a dir", path: "file", flag: rd | experimentalsys.O_DIRECTORY, want: experimentalsys.ENOTDIR},
		{name: "missing", path: "nope", flag: rd, want: experimentalsys.ENOENT},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, errno := fsys.OpenFile(tt.path, tt.flag, 0)
			if errno != tt.want {
				t.Fatalf("OpenFile(%q) errno %v, want %v", tt.path, errno, tt.want)
			}
			if f != nil {
				f.Close()
			}
		})
	}
	// wazero passes paths built from a directory descriptor with a leading
	// "/"; WASI has no FIFO type, so one is shown as a device, never a file.
	if st, errno := fsys.Lstat("/fifo"); errno != 0 || st.Mode&os.ModeDevice == 0 {
		t.Errorf("Lstat(/fifo): mode %v errno %v, want a device", st.Mode, errno)
	}
	dirf, _ := fsys.OpenFile(".", rd|experimentalsys.O_DIRECTORY, 0)
	ents, errno := dirf.Readdir(-1)
	dirf.Close()
	for _, e := range ents {
		if e.Name == "fifo" && e.Type&os.ModeDevice == 0 {
			t.Errorf("Readdir: fifo has type %v, want a device", e.Type)
		}
	}
	if errno != 0 || len(ents) == 0 {
		t.Errorf("Readdir: %d entries, errno %v", len(ents), errno)
	}
	if st, errno := fsys.Lstat("in-link"); errno != 0 || st.Mode&os.ModeSymlink == 0 {
		t.Errorf("Lstat of a link: mode %v errno %v, want a symlink", st.Mode, errno)
	}
	if st, errno := fsys.Lstat("sub/x"); errno != 0 || !st.Mode.IsRegular() {
		t.Errorf("Lstat(sub/x): mode %v errno %v, want a file", st.Mode, errno)
	}
	for _, p := range []string{"g/config", "sub/up/file", "out-dir/secret"} {
		if _, errno := fsys.Lstat(p); errno != experimentalsys.ELOOP {
			t.Errorf("Lstat(%s) through a link: %v, want ELOOP", p, errno)
		}
	}
	for _, p := range []string{"out-link", "in-link", "g/config"} {
		if _, errno := fsys.Stat(p); errno != experimentalsys.ELOOP {
			t.Errorf("Stat(%s): %v, want ELOOP", p, errno)
		}
	}
	if _, errno := fsys.Readlink("in-link"); errno != experimentalsys.EPERM {
		t.Errorf("Readlink: %v, want EPERM", errno)
	}
	for name, errno := range map[string]experimentalsys.Errno{
		"mkdir":  fsys.Mkdir("d", 0o755),
		"unlink": fsys.Unlink("file"),
		"rename": fsys.Rename("file", "g"),
	} {
		if errno != experimentalsys.EROFS {
			t.Errorf("%s: %v, want EROFS", name, errno)
		}
	}

	f, _ := fsys.OpenFile("file", rd, 0)
	defer f.Close()
	gate.Revoke()
	buf := make([]byte, 8)
	if _, errno := f.Read(buf); errno != experimentalsys.ENOTSUP {
		t.Errorf("Read after Revoke: %v, want ENOTSUP", errno)
	}
	if _, errno := fsys.OpenFile("file", rd, 0); errno != experimentalsys.ENOTSUP {
		t.Errorf("OpenFile after Revoke: %v, want ENOTSUP", errno)
	}
	gate.Restore()
	if n, errno := f.Read(buf); errno != 0 || string(buf[:n]) != "hello" {
		t.Errorf("Read after Restore: %q %v", buf[:n], errno)
	}
}
