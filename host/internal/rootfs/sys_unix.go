//go:build unix

package rootfs

import (
	"io/fs"

	"github.com/tetratelabs/wazero/sys"
	"golang.org/x/sys/unix"
)

func readFD(fd int, buf []byte) (int, error) {
	for {
		n, err := unix.Read(fd, buf)
		if err != unix.EINTR {
			return max(n, 0), err
		}
	}
}

func preadFD(fd int, buf []byte, off int64) (int, error) {
	for {
		n, err := unix.Pread(fd, buf, off)
		if err != unix.EINTR {
			return max(n, 0), err
		}
	}
}

// fstat describes an open descriptor as wazero wants it.
func fstat(fd int) (sys.Stat_t, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return sys.Stat_t{}, err
	}
	return statOf(&st), nil
}

// fstatat describes name in the directory dir, without following it.
func fstatat(dir int, name string) (sys.Stat_t, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return sys.Stat_t{}, err
	}
	return statOf(&st), nil
}

func statOf(st *unix.Stat_t) sys.Stat_t {
	mode := fs.FileMode(st.Mode & 0o777)
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFREG:
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	default:
		mode |= fs.ModeDevice
	}
	return sys.Stat_t{
		Dev: uint64(st.Dev), Ino: st.Ino, Mode: wasiType(mode), Nlink: uint64(st.Nlink), Size: st.Size,
		Atim: st.Atim.Nano(), Mtim: st.Mtim.Nano(), Ctim: st.Ctim.Nano(),
	}
}
