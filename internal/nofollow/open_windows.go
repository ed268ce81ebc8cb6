//go:build windows

package nofollow

import (
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// What OpenAt opens a name as.
const (
	AsFile = iota // a file or directory, for reading
	AsDir         // a directory, to list it or open below it
	AsMeta        // anything, to describe it: a link is opened itself, never followed
)

// OpenAt opens name, one component, in the directory dir, as Windows'
// native layer opens a name relative to a handle (NtCreateFile with a root
// directory, as Go's os.Root does), and follows no reparse point: it opens
// the entry itself (FILE_OPEN_REPARSE_POINT) and, unless as is AsMeta,
// refuses it with ELOOP when it is one: a symbolic link, a junction, a
// mount point or any other. A name that Windows would read as more than one
// component or as something else than a name in dir is refused before any
// lookup: an empty one, ".", "..", a separator, a stream (":"), a NUL. A
// short (8.3) name that stands for a longer one ("GIT~1" for ".git") is
// not found: policy is decided on names, so an entry is opened only by its
// own.
//
// The handle is synchronous and not inherited; the caller closes it.
func OpenAt(dir windows.Handle, name string, as int) (windows.Handle, error) {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `\/:`+"\x00") {
		return windows.InvalidHandle, ErrBadPath
	}
	uname, err := windows.NewNTUnicodeString(name)
	if err != nil {
		return windows.InvalidHandle, ErrBadPath
	}
	oa := &windows.OBJECT_ATTRIBUTES{
		Length:        uint32(unsafe.Sizeof(windows.OBJECT_ATTRIBUTES{})),
		RootDirectory: dir,
		ObjectName:    uname,
		Attributes:    windows.OBJ_CASE_INSENSITIVE,
	}
	access := uint32(windows.SYNCHRONIZE | windows.FILE_READ_ATTRIBUTES)
	options := uint32(windows.FILE_SYNCHRONOUS_IO_NONALERT | windows.FILE_OPEN_REPARSE_POINT | windows.FILE_OPEN_FOR_BACKUP_INTENT)
	switch as {
	case AsFile:
		access |= windows.FILE_GENERIC_READ
	case AsDir:
		access |= windows.FILE_LIST_DIRECTORY | windows.FILE_TRAVERSE
		options |= windows.FILE_DIRECTORY_FILE
	}
	var h windows.Handle
	err = windows.NtCreateFile(&h, access, oa, &windows.IO_STATUS_BLOCK{}, nil, 0,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		windows.FILE_OPEN, options, 0, 0)
	if err != nil {
		return windows.InvalidHandle, ntError(err, as)
	}
	if as != AsMeta {
		var tag fileAttributeTagInfo
		if err := windows.GetFileInformationByHandleEx(h, windows.FileAttributeTagInfo,
			(*byte)(unsafe.Pointer(&tag)), uint32(unsafe.Sizeof(tag))); err != nil {
			windows.CloseHandle(h)
			return windows.InvalidHandle, err
		}
		if tag.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
			windows.CloseHandle(h)
			return windows.InvalidHandle, syscall.ELOOP
		}
	}
	if strings.Contains(name, "~") && !ownName(h, name) {
		windows.CloseHandle(h)
		return windows.InvalidHandle, windows.ERROR_FILE_NOT_FOUND
	}
	return h, nil
}

// ownName reports whether the entry h was opened by its own (long) name,
// not by its short 8.3 alias.
func ownName(h windows.Handle, name string) bool {
	buf := make([]uint16, windows.MAX_LONG_PATH)
	n, err := windows.GetFinalPathNameByHandle(h, &buf[0], uint32(len(buf)), fileNameNormalized)
	if err != nil || int(n) > len(buf) {
		return false
	}
	final := windows.UTF16ToString(buf[:n])
	return strings.EqualFold(final[strings.LastIndexByte(final, '\\')+1:], name)
}

// ntError maps what NtCreateFile says to an error of the syscall package.
func ntError(err error, as int) error {
	st, ok := err.(windows.NTStatus)
	if !ok {
		return err
	}
	switch st {
	case windows.STATUS_REPARSE_POINT_ENCOUNTERED:
		return syscall.ELOOP
	case windows.STATUS_NOT_A_DIRECTORY:
		if as == AsDir {
			return syscall.ENOTDIR
		}
	}
	return st.Errno()
}

// OpenTop opens the directory dir, named by the host (links and all: a
// root's own path is configuration), to open names below it with OpenAt.
func OpenTop(dir string) (windows.Handle, error) {
	p, err := windows.UTF16PtrFromString(filepath.Clean(dir))
	if err != nil {
		return windows.InvalidHandle, err
	}
	return windows.CreateFile(p, windows.FILE_LIST_DIRECTORY|windows.FILE_TRAVERSE|windows.FILE_READ_ATTRIBUTES|windows.SYNCHRONIZE,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil, windows.OPEN_EXISTING,
		windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
}

// HandleInfo is what StatHandle tells of an open handle.
type HandleInfo struct {
	Mode                fs.FileMode // fs.ModeDir, fs.ModeSymlink (any reparse point), or 0
	Size                int64
	Atime, Mtime, Ctime int64 // Unix nanoseconds; Ctime is the last change of contents or metadata
	Dev, Ino, Nlink     uint64
}

// StatHandle describes an open handle.
func StatHandle(h windows.Handle) (HandleInfo, error) {
	var bh windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &bh); err != nil {
		return HandleInfo{}, err
	}
	var basic fileBasicInfo
	if err := windows.GetFileInformationByHandleEx(h, windows.FileBasicInfo,
		(*byte)(unsafe.Pointer(&basic)), uint32(unsafe.Sizeof(basic))); err != nil {
		return HandleInfo{}, err
	}
	var mode fs.FileMode
	switch {
	case bh.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0:
		mode = fs.ModeSymlink
	case bh.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY != 0:
		mode = fs.ModeDir
	}
	return HandleInfo{
		Mode:  mode,
		Size:  int64(bh.FileSizeHigh)<<32 | int64(bh.FileSizeLow),
		Atime: filetime(basic.LastAccessTime),
		Mtime: filetime(basic.LastWriteTime),
		Ctime: filetime(basic.ChangeTime),
		Dev:   uint64(bh.VolumeSerialNumber),
		Ino:   uint64(bh.FileIndexHigh)<<32 | uint64(bh.FileIndexLow),
		Nlink: uint64(bh.NumberOfLinks),
	}, nil
}

// filetime turns a FILETIME count (100 ns since 1601) into Unix
// nanoseconds.
func filetime(t int64) int64 {
	return (t - 116444736000000000) * 100
}

// fileBasicInfo is Windows' FILE_BASIC_INFO.
type fileBasicInfo struct {
	CreationTime, LastAccessTime, LastWriteTime, ChangeTime int64
	FileAttributes                                          uint32
	_                                                       uint32
}

// fileAttributeTagInfo is Windows' FILE_ATTRIBUTE_TAG_INFO.
type fileAttributeTagInfo struct {
	FileAttributes, ReparseTag uint32
}

// fileNameNormalized is GetFinalPathNameByHandle's FILE_NAME_NORMALIZED.
const fileNameNormalized = 0
