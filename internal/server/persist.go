package server

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"maps"
	"math"
	"runtime"
	"slices"

	"github.com/rootbound/rootbound/internal/index"
	"github.com/rootbound/rootbound/protocol"
)

// A root's index as the module saves it for a host to keep past the
// process (IndexArgs.Save) and takes back (IndexArgs.Load): its files'
// entries, then the index's own encoding (index.AppendTo).
//
//	magic "rbrt", version (u32), text (u64), files (u32)
//	each file: its path (uvarint length, bytes), size, mtime, ctime, inode,
//	    links (varints), binary (a byte), then its bytes read when binary,
//	    else its document (uvarint)
//	a CRC-32C of everything before it (u32)
//	the index's encoding (its own checksum)
//
// Nothing in it is trusted: bytes cut short, changed, or of another kind
// fail to decode and the root is built from its files; an entry that
// decodes is still used only for a file a look finds as it was (indexed.go).
const (
	savedMagic   = "rbrt"
	savedVersion = 1
)

// appendTo appends ri's saved form to dst.
func (ri *rootIndex) appendTo(dst []byte) []byte {
	start := len(dst)
	dst = append(dst, savedMagic...)
	dst = binary.LittleEndian.AppendUint32(dst, savedVersion)
	dst = binary.LittleEndian.AppendUint64(dst, uint64(ri.text))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(ri.files)))
	for _, p := range slices.Sorted(maps.Keys(ri.files)) {
		e := ri.files[p]
		dst = binary.AppendUvarint(dst, uint64(len(p)))
		dst = append(dst, p...)
		dst = binary.AppendUvarint(dst, uint64(e.size))
		dst = binary.AppendVarint(dst, e.mtime)
		dst = binary.AppendVarint(dst, e.ctime)
		dst = binary.AppendUvarint(dst, e.ino)
		dst = binary.AppendUvarint(dst, e.nlink)
		if e.binary {
			dst = append(dst, 1)
			dst = binary.AppendUvarint(dst, uint64(e.read))
		} else {
			dst = append(dst, 0)
			dst = binary.AppendUvarint(dst, uint64(e.doc))
		}
	}
	dst = binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[start:], crc32.MakeTable(crc32.Castagnoli)))
	return ri.ix.AppendTo(dst)
}

// errSaved is what decodeRoot says of bytes it cannot use.
var errSaved = errors.New("saved index: not a valid encoding")

// decodeRoot returns the root index b saves, every entry not yet seen by
// a walk (indexed.unseen), or an error: b does not decode, or its index
// holds more removed documents than live ones (it is built again, which
// drops them, rather than grow from restart to restart).
func decodeRoot(b []byte, max int64, fed bool) (*rootIndex, error) {
	r := savedReader{b: b}
	if string(r.take(len(savedMagic))) != savedMagic || r.u32() != savedVersion {
		return nil, fmt.Errorf("%w: no magic or another version", errSaved)
	}
	text := r.u64()
	n := int(r.u32())
	if r.bad || text > math.MaxInt64 || n > index.MaxDocs {
		return nil, fmt.Errorf("%w: its header", errSaved)
	}
	ri := &rootIndex{files: make(map[string]*indexed, min(n, len(b)/8)), max: max, fed: fed, text: int64(text)}
	type docFile struct {
		doc index.Doc
		e   *indexed
	}
	docs := make([]docFile, 0, min(n, len(b)/8))
	for range n {
		p := string(r.take(int(min(r.uvarint(), uint64(len(b))))))
		e := &indexed{unseen: true}
		e.size = int64(r.uvarint())
		e.mtime, e.ctime = r.varint(), r.varint()
		e.ino, e.nlink = r.uvarint(), r.uvarint()
		flag := r.take(1)
		v := r.uvarint()
		switch {
		case r.bad:
			return nil, fmt.Errorf("%w: cut short", errSaved)
		case !fs.ValidPath(p) || p == "." || e.size < 0 || e.nlink == 0 || flag[0] > 1:
			return nil, fmt.Errorf("%w: a file's entry", errSaved)
		case ri.files[p] != nil:
			return nil, fmt.Errorf("%w: a path given twice", errSaved)
		case flag[0] == 1 && v > uint64(e.size):
			return nil, fmt.Errorf("%w: a binary file read past its size", errSaved)
		case flag[0] == 1:
			e.binary, e.read = true, int64(v)
		case v >= index.MaxDocs:
			return nil, fmt.Errorf("%w: a document number", errSaved)
		default:
			docs = append(docs, docFile{index.Doc(v), e})
		}
		ri.files[p] = e
	}
	body := len(b) - len(r.b)
	if sum := r.u32(); r.bad || sum != crc32.Checksum(b[:body], crc32.MakeTable(crc32.Castagnoli)) {
		return nil, fmt.Errorf("%w: its checksum does not match", errSaved)
	}
	ix, err := index.Decode(r.b)
	if err != nil {
		return nil, err
	}
	// Each live document is one file's: a document no entry names is
	// removed, one two entries name is refused.
	owner := make([]bool, ix.Docs())
	for _, df := range docs {
		if int(df.doc) >= ix.Docs() || ix.Removed(df.doc) || owner[df.doc] {
			return nil, fmt.Errorf("%w: a file's document %d", errSaved, df.doc)
		}
		owner[df.doc] = true
		df.e.doc = df.doc
	}
	for d, ok := range owner {
		if !ok {
			ix.Remove(index.Doc(d))
		}
	}
	if 2*ix.RemovedDocs() > ix.Docs() {
		return nil, fmt.Errorf("%w: %d of its %d documents removed", errSaved, ix.RemovedDocs(), ix.Docs())
	}
	ri.ix = ix
	for p := range ri.files {
		ri.held += fileCost(p)
	}
	if ri.used() > max {
		return nil, fmt.Errorf("%w: it holds %d bytes, over the cap of %d", errSaved, ri.used(), max)
	}
	return ri, nil
}

// savedReader reads a saved index; bad is set by a read past its end.
type savedReader struct {
	b   []byte
	bad bool
}

func (r *savedReader) take(n int) []byte {
	if n < 0 || n > len(r.b) {
		r.bad, r.b = true, nil
		return make([]byte, 8) // what u32 and u64 need; the caller checks bad
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *savedReader) u32() uint32 { return binary.LittleEndian.Uint32(r.take(4)) }
func (r *savedReader) u64() uint64 { return binary.LittleEndian.Uint64(r.take(8)) }

func (r *savedReader) uvarint() uint64 { return readVarint(r, binary.Uvarint) }
func (r *savedReader) varint() int64   { return readVarint(r, binary.Varint) }

// readVarint reads a varint with read (binary.Uvarint or Varint).
func readVarint[T uint64 | int64](r *savedReader, read func([]byte) (T, int)) T {
	v, n := read(r.b)
	if n <= 0 {
		r.bad, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

// save sends ri's saved form as Saved lines of at most
// protocol.MaxChunkBytes.
func (c *call) save(root string, ri *rootIndex) error {
	// Made once at about its size (the index's count is a little more
	// than its encoding): grown by doubling, a large index's copies
	// would be garbage beside it.
	b := ri.appendTo(make([]byte, 0, int64(ri.ix.Bytes())+ri.held))
	for len(b) > 0 {
		n := min(len(b), protocol.MaxChunkBytes)
		if err := c.write(&protocol.Line{ID: c.id, Saved: &protocol.Chunk{Root: root, Bytes: b[:n]}}); err != nil {
			return err
		}
		b = b[n:]
	}
	runtime.GC() // the encoding, as large as the index, is garbage now
	return nil
}

// load keeps a piece of a root's saved index for the next index request.
func (s *Server) load(c *call, ch *protocol.Chunk) {
	if !slices.ContainsFunc(s.roots, func(r Root) bool { return r.Name == ch.Root }) {
		c.err = protocol.NewError(protocol.CodeInvalidArgument, "load: "+ch.Root+" is not a root")
		return
	}
	if s.loads == nil {
		s.loads = map[string][][]byte{}
	}
	// Joined once, by the index request: appended here, the bytes would
	// be copied again at every doubling, and the garbage collected.
	s.loads[ch.Root] = append(s.loads[ch.Root], ch.Bytes)
}
