//go:build wasip1

package walk

import (
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"syscall"

	"github.com/rootbound/rootbound/internal/nofollow"
)

// readDir lists the directory fd (tpath below the Tree's top) with
// fd_readdir into readdirBuf, and takes each entry's type from WASI itself. Why not os.ReadDir: WASI preview
// 1 has no FIFO or socket type, runtimes report them as "unknown", and Go's
// os package reads "unknown" as a regular file; under wasmtime the walker
// would then open a FIFO, and the open would block the whole runtime. Here an
// entry whose type is unknown is looked up once more (path_filestat_get) and,
// still unknown, counted as special and never opened. It also costs fewer
// WASI calls than os.ReadDir: one fd_readdir (two for a directory larger
// than readdirBuffer) on a directory the Tree holds open.
func (w *Walker) readDir(fd int, tpath string) ([]Entry, error) {
	if readdirBuf == nil {
		readdirBuf = make([]byte, readdirBuffer)
	}
	const header = 24 // next u64, ino u64, namlen u32, type u8, padding
	var out []Entry
	var cookie uint64
	for {
		buf := readdirBuf
		n, err := syscall.ReadDir(fd, buf, cookie)
		if err != nil {
			return out, err
		}
		last := n < len(buf) // the runtime had no more to give
		off, read := 0, 0
		for off+header <= n {
			next := binary.LittleEndian.Uint64(buf[off:])
			namlen := int(binary.LittleEndian.Uint32(buf[off+16:]))
			typ := buf[off+20]
			if off+header+namlen > n {
				break // cut off: read again from this entry's cookie
			}
			name := string(buf[off+header : off+header+namlen])
			off += header + namlen
			cookie = next
			read++
			_ = w.Meter.Spend(32 + namlen)
			if name == "." || name == ".." {
				continue
			}
			out = append(out, Entry{Name: name, Type: w.kindOf(tpath, name, typ)})
		}
		if last {
			break
		}
		if read == 0 {
			// An entry larger than the buffer: a runtime bug (a 255-byte
			// name fits in 280 bytes).
			return out, errors.New("fd_readdir: an entry larger than the buffer")
		}
		// A directory larger than the buffer: read the rest in one call.
		if len(buf) < maxReaddirBuffer {
			readdirBuf = make([]byte, maxReaddirBuffer)
		}
	}
	w.sortEntries(out)
	return out, nil
}

func (w *Walker) kindOf(tpath, name string, typ uint8) Type {
	if typ == syscall.FILETYPE_UNKNOWN {
		if tpath != "" {
			name = tpath + "/" + name
		}
		if st, err := w.Tree.Lstat(name); err == nil {
			return st.Type
		}
		return TypeSpecial
	}
	return nofollow.TypeOf(typ)
}

// readdirBuffer holds about 7,000 entries: most directories take one call.
// A larger one grows the buffer to maxReaddirBuffer (about 250,000 entries)
// and is read in one more call; the buffer is kept for the instance's later
// calls (an instance serves one call at a time). Why grow: under wasmtime a
// call costs more the further into a directory it starts, and the walker
// cannot check its deadline inside a call; a 100,000-entry directory took
// 20 s in 256 KiB calls, 5 s in one of 256 KiB and one of 8 MiB, 4 s in one
// of 8 MiB. Why not start at 8 MiB: the WASI 0.2 component dies when the
// first listing allocates more than 256 KiB (RATIONALE.md).
const (
	readdirBuffer    = 256 << 10
	maxReaddirBuffer = 8 << 20
)

var readdirBuf []byte

// sortEntries sorts a directory's entries by name, charging the meter as
// it compares (a sort cannot stop half-way; the charges keep the host calls
// coming, and the caller sees the meter's error at the next entry).
func (w *Walker) sortEntries(out []Entry) {
	compares := 0
	slices.SortFunc(out, func(a, b Entry) int {
		if compares++; compares&1023 == 0 {
			_ = w.Meter.Spend(1024 * 32)
		}
		return strings.Compare(a.Name, b.Name)
	})
}
