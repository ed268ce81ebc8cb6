//go:build windows

package nofollow

import (
	"io/fs"

	"golang.org/x/sys/windows"
)

// The native build's calls on Windows: OpenAt, a name at a time relative
// to the directory above, no reparse point followed. A descriptor is a
// handle.

func openTop(dir string) (int, bool, error) {
	h, err := OpenTop(dir)
	return int(h), true, err
}

func openDir(dir int, name string) (int, error) {
	h, err := OpenAt(windows.Handle(dir), name, AsDir)
	return int(h), err
}

func openFile(dir int, name string) (int, error) {
	h, err := OpenAt(windows.Handle(dir), name, AsFile)
	return int(h), err
}

func closeFD(fd int) { windows.CloseHandle(windows.Handle(fd)) }

func fstat(fd int) (Stat, error) {
	info, err := StatHandle(windows.Handle(fd))
	if err != nil {
		return Stat{}, err
	}
	return stat(info), nil
}

func fstatat(dir int, name string) (Stat, error) {
	h, err := OpenAt(windows.Handle(dir), name, AsMeta)
	if err != nil {
		return Stat{}, err
	}
	defer windows.CloseHandle(h)
	return fstat(int(h))
}

func stat(info HandleInfo) Stat {
	t := File
	switch {
	case info.Mode&fs.ModeSymlink != 0:
		t = Symlink
	case info.Mode.IsDir():
		t = Dir
	}
	return Stat{Type: t, Size: info.Size, Mtime: info.Mtime, Ctime: info.Ctime, Ino: info.Ino, Nlink: info.Nlink}
}
