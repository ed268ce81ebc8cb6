//go:build wasip1

package walk

import (
	"encoding/binary"
	"slices"
	"strings"
	"syscall"
)

// readDir lists a directory with fd_readdir into the walker's buffer, and
// takes each entry's type from WASI itself. Why not os.ReadDir: WASI preview
// 1 has no FIFO or socket type, runtimes report them as "unknown", and Go's
// os package reads "unknown" as a regular file; under wasmtime the walker
// would then open a FIFO, and the open would block the whole runtime. Here an
// entry whose type is unknown is looked up once more (path_filestat_get) and,
// still unknown, counted as special and never opened. It also costs fewer
// WASI calls than os.ReadDir: one open, one fd_readdir per readdirBuffer,
// one close.
func (w *Walker) readDir(dir string) ([]dirent, error) {
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	if w.buf == nil {
		w.buf = make([]byte, readdirBuffer)
	}
	const header = 24 // next u64, ino u64, namlen u32, type u8, padding
	var out []dirent
	var cookie uint64
	for {
		n, err := syscall.ReadDir(fd, w.buf, cookie)
		if err != nil {
			return out, err
		}
		full := n < len(w.buf) // the runtime had no more to give
		off, read := 0, 0
		for off+header <= n {
			next := binary.LittleEndian.Uint64(w.buf[off:])
			namlen := int(binary.LittleEndian.Uint32(w.buf[off+16:]))
			typ := w.buf[off+20]
			if off+header+namlen > n {
				break // cut off: read again from this entry's cookie
			}
			name := string(w.buf[off+header : off+header+namlen])
			off += header + namlen
			cookie = next
			read++
			if name == "." || name == ".." {
				continue
			}
			out = append(out, dirent{name: name, kind: w.kindOf(dir, name, typ)})
		}
		if read == 0 {
			if full {
				break
			}
			// One entry larger than the buffer (a 255-byte name fits in 280
			// bytes, so only a runtime bug gets here): grow and retry.
			w.buf = make([]byte, 2*len(w.buf))
			continue
		}
		if full && off >= n {
			break
		}
	}
	slices.SortFunc(out, func(a, b dirent) int { return strings.Compare(a.name, b.name) })
	return out, nil
}

func (w *Walker) kindOf(dir, name string, typ uint8) kind {
	switch typ {
	case syscall.FILETYPE_DIRECTORY:
		return kindDir
	case syscall.FILETYPE_REGULAR_FILE:
		return kindFile
	case syscall.FILETYPE_SYMBOLIC_LINK:
		return kindSymlink
	case syscall.FILETYPE_UNKNOWN:
		var st syscall.Stat_t
		if syscall.Lstat(dir+"/"+name, &st) == nil && st.Filetype != syscall.FILETYPE_UNKNOWN {
			return w.kindOf(dir, name, st.Filetype)
		}
	}
	return kindSpecial
}

// readdirBuffer holds about 7,000 entries: most directories take one call.
const readdirBuffer = 256 << 10
