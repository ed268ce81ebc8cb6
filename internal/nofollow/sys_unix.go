//go:build unix

package nofollow

import (
	"golang.org/x/sys/unix"
)

// The native build's calls: openat with O_NOFOLLOW, fstatat without
// following.

func openTop(dir string) (int, bool, error) {
	fd, err := retry(func() (int, error) {
		return unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	})
	return fd, true, err
}

func openDir(dir int, name string) (int, error) {
	return retry(func() (int, error) {
		return unix.Openat(dir, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	})
}

func openFile(dir int, name string) (int, error) {
	return retry(func() (int, error) {
		return unix.Openat(dir, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	})
}

func retry(open func() (int, error)) (int, error) {
	for {
		fd, err := open()
		if err != unix.EINTR {
			return fd, err
		}
	}
}

func closeFD(fd int) { unix.Close(fd) }

func fstat(fd int) (Stat, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return Stat{}, err
	}
	return stat(&st), nil
}

func fstatat(dir int, name string) (Stat, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return Stat{}, err
	}
	return stat(&st), nil
}

func stat(st *unix.Stat_t) Stat {
	t := Special
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		t = File
	case unix.S_IFDIR:
		t = Dir
	case unix.S_IFLNK:
		t = Symlink
	}
	return Stat{Type: t, Size: st.Size, Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano(), Ino: st.Ino, Nlink: uint64(st.Nlink)}
}
