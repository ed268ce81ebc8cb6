// Package search decides what is in a file: it reads a file whole into a
// reused buffer, tells binary and oversized files apart, and finds matching
// lines. Which files to search is package walk's business; how a result looks
// is the printer's (the host's renderer).
//
// Design, from measurements of the wasm build: one reused buffer per
// searcher (−36% against a fresh one per file), and the matcher run over the
// whole buffer with the line located only around a hit (−42% against line
// by line). Every loop over a file's bytes charges a meter, so a call looks
// at its deadline within a file too.
package search

import (
	"bytes"
	"errors"
	"io/fs"

	"github.com/rootbound/rootbound/internal/meter"
	"github.com/rootbound/rootbound/internal/nofollow"
)

// Matcher finds matches; package match implements it.
type Matcher interface {
	NextLine(buf []byte, from int, m *meter.Meter) (start, end int, err error)
	LocateAt(text []byte, from int, m *meter.Meter) (start, end int, err error)
	Multiline() bool
}

// ErrTooLarge, ErrBinary and ErrSpecial say why a file was not searched.
var (
	ErrTooLarge = errors.New("search: file larger than the size cap")
	ErrBinary   = errors.New("search: binary file (NUL byte)")
	ErrSpecial  = errors.New("search: not a regular file when opened")
)

// maxRead bounds one read call. Node's node:wasi aborts the whole process
// on a read of several MiB (seen with 4 MiB and up on Node 20); 1 MiB reads
// cost nothing measurable anywhere.
const maxRead = 1 << 20

// initialBuffer is the first size of the read buffer: it holds most source
// files whole.
const initialBuffer = 256 << 10

// Reader reads files into one reused buffer. It is not safe for concurrent
// use.
type Reader struct {
	buf []byte
	dec []byte // a UTF-16 file, as UTF-8
	// Stat is what the last file Read opened was when it was opened.
	Stat nofollow.Stat
	// BeforeGrow, if set, runs before the buffer grows: the one moment the
	// module's memory use can jump, so a caller flushes output there and
	// keeps what was found if the module then dies at its memory cap.
	BeforeGrow func()
}

// Read returns the contents of the regular file name below t's top, valid
// until the next call, reading until a read returns no bytes: a short read
// is not the end of a file (FUSE, network file systems, /proc and WASI 0.2
// shims read short). It never follows a symbolic link, at any component of
// name (*nofollow.LinkError), and never blocks on what it opens: a file
// that is not regular once opened gives ErrSpecial. A file over maxSize
// bytes gives ErrTooLarge (its size is known before any byte is read); one
// with a NUL byte in its first sniff bytes gives ErrBinary. n counts the
// bytes read either way.
func (r *Reader) Read(t *nofollow.Tree, name string, maxSize int64, sniff int, m *meter.Meter) (data []byte, n int64, err error) {
	fd, st, err := t.OpenFile(name)
	if err != nil {
		return nil, 0, err
	}
	defer nofollow.Close(fd)
	r.Stat = st
	size := st.Size
	switch {
	case st.Type != nofollow.File:
		return nil, 0, ErrSpecial
	case size > maxSize:
		return nil, 0, ErrTooLarge
	}
	if r.buf == nil {
		r.buf = make([]byte, initialBuffer)
	}
	if want := min(size+1, maxSize); want > int64(len(r.buf)) {
		// Double at least, so a run of ever larger files grows it rarely.
		r.grow(int(min(max(want, 2*int64(len(r.buf))), maxSize)), 0)
	}
	sniffed := false
	total := 0
	for {
		if total == len(r.buf) {
			// Full: one byte more says whether the file goes on.
			var probe [1]byte
			k, err := read(fd, probe[:])
			if err != nil {
				return nil, int64(total), &fs.PathError{Op: "read", Path: name, Err: err}
			}
			if k == 0 {
				break
			}
			if int64(total) >= maxSize {
				return nil, int64(total + k), ErrTooLarge
			}
			r.grow(int(min(2*int64(len(r.buf)), maxSize)), total)
			r.buf[total] = probe[0]
			total++
			continue
		}
		k, err := read(fd, r.buf[total:min(len(r.buf), total+maxRead)])
		if err != nil {
			return nil, int64(total), &fs.PathError{Op: "read", Path: name, Err: err}
		}
		if k == 0 {
			break
		}
		total += k
		if err := m.Spend(k / 8); err != nil { // a read is cheap work for the module
			return nil, int64(total), err
		}
		if !sniffed && total >= sniff {
			sniffed = true
			if utf16BOM(r.buf[:total]) == 0 && bytes.IndexByte(r.buf[:sniff], 0) >= 0 {
				return nil, int64(total), ErrBinary
			}
		}
		if int64(total) == size && size > 0 {
			// All the size it had when opened: no read more to see the end
			// (one host call and one system call a file). A file that grew
			// since is searched as it was then; one that says size 0 (a
			// file of /proc) is read to its end.
			break
		}
	}
	data = r.buf[:total]
	if utf16BOM(data) != 0 {
		r.dec, err = decodeUTF16(r.dec[:0], data, m)
		if err != nil {
			return nil, int64(total), err
		}
		data = r.dec
		sniffed = false
	}
	if !sniffed && bytes.IndexByte(data[:min(len(data), sniff)], 0) >= 0 {
		return nil, int64(total), ErrBinary
	}
	return data, int64(total), nil
}

// grow replaces the buffer with one of n bytes holding its first keep.
func (r *Reader) grow(n, keep int) {
	if r.BeforeGrow != nil {
		r.BeforeGrow()
	}
	grown := make([]byte, n)
	copy(grown, r.buf[:keep])
	r.buf = grown
}
