//go:build wasip1

package search

import (
	"strings"
	"structs"
	"syscall"
	"unsafe"
)

// open opens a regular file for reading without following a final symbolic
// link and without blocking, and reports what it opened.
//
// Why not syscall.Open: on wasip1 it drops O_NONBLOCK, and opening a FIFO
// that replaced a listed file blocks until a writer comes; under wasmtime
// and Node the whole runtime then hangs in that open, where no deadline can
// reach it. Here path_open asks for FDFLAGS_NONBLOCK itself, and the caller
// checks the type of what was opened before it reads a byte.
func open(name string) (int, error) {
	dirFD, rel := preopenOf(name)
	if dirFD < 0 {
		return -1, syscall.ENOENT
	}
	if rel == "" {
		rel = "."
	}
	var fd int32
	for {
		errno := pathOpen(dirFD, 0, unsafe.StringData(rel), uint32(len(rel)), 0,
			readRights, readRights, syscall.FDFLAG_NONBLOCK, &fd)
		switch errno {
		case 0:
			return int(fd), nil
		case syscall.EINTR:
			continue
		}
		return -1, errno
	}
}

const readRights = syscall.RIGHT_FD_READ | syscall.RIGHT_FD_SEEK | syscall.RIGHT_FD_TELL |
	syscall.RIGHT_FD_FILESTAT_GET | syscall.RIGHT_FDSTAT_SET_FLAGS | syscall.RIGHT_FD_ADVISE

//go:wasmimport wasi_snapshot_preview1 path_open
//go:noescape
func pathOpen(dirFD int32, lookup uint32, path *byte, pathLen uint32, oflags uint32,
	base, inheriting uint64, fdflags uint32, fd *int32) syscall.Errno

// fileType returns whether fd is a regular file, and its size.
func fileType(fd int) (regular bool, size int64, err error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return false, 0, err
	}
	return st.Filetype == syscall.FILETYPE_REGULAR_FILE, int64(st.Size), nil
}

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

// preopenOf returns the preopen whose name is the longest leading run of
// whole path components of name, and the rest of name below it.
func preopenOf(name string) (int32, string) {
	for p := name; p != ""; {
		if fd, ok := preopens[p]; ok {
			return fd, strings.TrimPrefix(name[len(p):], "/")
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return -1, ""
}

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
