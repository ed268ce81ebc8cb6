//go:build wasip1

package nofollow

import (
	"strings"
	"structs"
	"syscall"
	"unicode/utf8"
	"unsafe"

	"github.com/rootbound/rootbound/protocol"
)

// The module's calls: path_open and path_filestat_get relative to an open
// directory, without LOOKUP_SYMLINK_FOLLOW.
//
// Why not syscall.Open: on wasip1 it resolves a whole path from a preopen
// (which a runtime may resolve through links inside the root) and drops
// O_NONBLOCK, so a FIFO that replaced a listed file would block the open
// until a writer came; under wasmtime and Node the whole runtime then hangs
// in that open, where no deadline can reach it. Here path_open asks for
// FDFLAGS_NONBLOCK itself, and the caller checks the type of what was opened
// before it reads a byte.

// openTop opens the preopened directory dir afresh: a preopen's own
// descriptor lives as long as the instance, and a directory read once is
// read again from its start differently by each runtime (rootbound's
// wazero mount not at all), so each Tree lists and opens through a
// descriptor of its own.
func openTop(dir string) (int, bool, error) {
	fd, ok := preopens[strings.TrimSuffix(dir, "/")]
	if !ok {
		return -1, false, syscall.ENOENT
	}
	top, err := openDir(int(fd), ".")
	return top, err == nil, err
}

func openDir(dir int, name string) (int, error) {
	return open(dir, name, syscall.OFLAG_DIRECTORY, dirRights, dirRights|fileRights, 0)
}

func openFile(dir int, name string) (int, error) {
	return open(dir, name, 0, fileRights, fileRights, syscall.FDFLAG_NONBLOCK)
}

func open(dir int, name string, oflags uint32, base, inheriting uint64, fdflags uint32) (int, error) {
	fd, err := open1(dir, name, oflags, base, inheriting, fdflags)
	if err != nil && !utf8.ValidString(name) {
		// A runtime that takes only UTF-8 paths: the escaped name, which
		// the wazero host's mount reads back (protocol.EscapeName).
		if efd, eerr := open1(dir, protocol.EscapeName(name), oflags, base, inheriting, fdflags); eerr == nil {
			return efd, nil
		}
		return -1, ErrNameNotUTF8
	}
	return fd, err
}

func open1(dir int, name string, oflags uint32, base, inheriting uint64, fdflags uint32) (int, error) {
	var fd int32
	for {
		errno := pathOpen(int32(dir), 0, unsafe.StringData(name), uint32(len(name)), oflags,
			base, inheriting, fdflags, &fd)
		switch errno {
		case 0:
			return int(fd), nil
		case syscall.EINTR:
			continue
		}
		return -1, errno
	}
}

// The rights asked for: reading only. Runtimes that check rights (Node's
// uvwasi) refuse an open that asks for more than its directory may hand on.
const (
	fileRights = syscall.RIGHT_FD_READ | syscall.RIGHT_FD_SEEK | syscall.RIGHT_FD_TELL |
		syscall.RIGHT_FD_FILESTAT_GET | syscall.RIGHT_FDSTAT_SET_FLAGS | syscall.RIGHT_FD_ADVISE
	dirRights = syscall.RIGHT_PATH_OPEN | syscall.RIGHT_FD_READDIR | syscall.RIGHT_PATH_FILESTAT_GET |
		syscall.RIGHT_FD_FILESTAT_GET | syscall.RIGHT_FDSTAT_SET_FLAGS
)

func closeFD(fd int) { syscall.Close(fd) }

func fstat(fd int) (Stat, error) {
	var st filestat
	if errno := fdFilestatGet(int32(fd), &st); errno != 0 {
		return Stat{}, errno
	}
	return st.stat(), nil
}

func fstatat(dir int, name string) (Stat, error) {
	st, err := fstatat1(dir, name)
	if err != nil && !utf8.ValidString(name) {
		if est, eerr := fstatat1(dir, protocol.EscapeName(name)); eerr == nil {
			return est, nil
		}
		return Stat{}, ErrNameNotUTF8
	}
	return st, err
}

func fstatat1(dir int, name string) (Stat, error) {
	var st filestat
	for {
		errno := pathFilestatGet(int32(dir), 0, unsafe.StringData(name), uint32(len(name)), &st)
		switch errno {
		case 0:
			return st.stat(), nil
		case syscall.EINTR:
			continue
		}
		return Stat{}, errno
	}
}

// filestat is WASI's filestat.
type filestat struct {
	_        structs.HostLayout
	dev      uint64
	ino      uint64
	filetype uint8
	_        [7]byte
	nlink    uint64
	size     uint64
	atim     uint64
	mtim     uint64
	ctim     uint64
}

func (st *filestat) stat() Stat {
	return Stat{Type: TypeOf(st.filetype), Size: int64(st.size), Mtime: int64(st.mtim), Ctime: int64(st.ctim), Ino: st.ino, Nlink: st.nlink}
}

// TypeOf maps a WASI file type to a Type. WASI preview 1 has no FIFO or
// socket type: runtimes report them as unknown (or, rootbound's own mount,
// as a block device), and either is Special.
func TypeOf(filetype uint8) Type {
	switch filetype {
	case syscall.FILETYPE_REGULAR_FILE:
		return File
	case syscall.FILETYPE_DIRECTORY:
		return Dir
	case syscall.FILETYPE_SYMBOLIC_LINK:
		return Symlink
	}
	return Special
}

//go:wasmimport wasi_snapshot_preview1 path_open
//go:noescape
func pathOpen(dirFD int32, lookup uint32, path *byte, pathLen uint32, oflags uint32,
	base, inheriting uint64, fdflags uint32, fd *int32) syscall.Errno

//go:wasmimport wasi_snapshot_preview1 path_filestat_get
//go:noescape
func pathFilestatGet(dirFD int32, lookup uint32, path *byte, pathLen uint32, st *filestat) syscall.Errno

//go:wasmimport wasi_snapshot_preview1 fd_filestat_get
//go:noescape
func fdFilestatGet(fd int32, st *filestat) syscall.Errno

// preopens are the directories the runtime preopened, by name.
var preopens = func() map[string]int32 {
	m := map[string]int32{}
	buf := make([]byte, 256)
	for fd := int32(3); ; fd++ {
		var st prestat
		errno := fdPrestatGet(fd, &st)
		if errno == syscall.EBADF {
			return m
		}
		if errno != 0 || st.typ != 0 {
			continue
		}
		if int(st.nameLen) > len(buf) {
			buf = make([]byte, st.nameLen)
		}
		if fdPrestatDirName(fd, &buf[0], st.nameLen) != 0 {
			continue
		}
		m[strings.TrimSuffix(string(buf[:st.nameLen]), "/")] = fd
	}
}()

// prestat is WASI's prestat: a tag byte (0: a directory), padding, and the
// length of the directory's name.
type prestat struct {
	_       structs.HostLayout
	typ     uint8
	_       [3]byte
	nameLen uint32
}

//go:wasmimport wasi_snapshot_preview1 fd_prestat_get
//go:noescape
func fdPrestatGet(fd int32, st *prestat) syscall.Errno

//go:wasmimport wasi_snapshot_preview1 fd_prestat_dir_name
//go:noescape
func fdPrestatDirName(fd int32, path *byte, pathLen uint32) syscall.Errno
