package rootfs

import (
	"io/fs"
	"os"

	"github.com/tetratelabs/wazero/sys"
	"golang.org/x/sys/unix"
)

// beneathFD returns a descriptor of root's directory for openat2, or -1 when
// the kernel lacks openat2.
//
// Why: os.Root resolves a path one component at a time, an openat and a
// close per component, so opening a file five directories deep costs ten
// system calls. openat2 with RESOLVE_BENEATH resolves the whole path in the
// kernel, in one call, with the same guarantee (the kernel refuses any step
// out of the directory, through "..", an absolute path or a symlink, with
// EXDEV); it is what wasmtime's cap-std uses. Measured on the Go tree: a
// grep through the rootbound command went from about 2.1 s to 1.2 s.
func beneathFD(root *os.Root) int {
	f, err := root.Open(".")
	if err != nil {
		return -1
	}
	fd, err := unix.Dup(int(f.Fd()))
	f.Close()
	if err != nil {
		return -1
	}
	probe, err := unix.Openat2(fd, ".", &unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC, Resolve: beneath})
	if err != nil {
		unix.Close(fd)
		return -1
	}
	unix.Close(probe)
	return fd
}

const beneath = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS

// openBeneath opens p below the directory fd and returns the new
// descriptor.
func openBeneath(fd int, p string, flags int) (int, error) {
	for {
		nfd, err := unix.Openat2(fd, p, &unix.OpenHow{Flags: uint64(flags), Resolve: beneath})
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return -1, &os.PathError{Op: "openat2", Path: p, Err: err}
		}
		return nfd, nil
	}
}

func closeFD(fd int) {
	if fd >= 0 {
		unix.Close(fd)
	}
}

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
		Dev: st.Dev, Ino: st.Ino, Mode: wasiType(mode), Nlink: uint64(st.Nlink), Size: st.Size,
		Atim: st.Atim.Nano(), Mtim: st.Mtim.Nano(), Ctim: st.Ctim.Nano(),
	}, nil
}
