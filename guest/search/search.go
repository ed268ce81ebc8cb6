// Package search decides what is in a file: it reads a file whole into a
// reused buffer, tells binary and oversized files apart, and finds matching
// lines. Which files to search is package walk's business; how a result looks
// is the printer's (the host's renderer).
//
// Design, from measurements of the wasm build: one reused buffer per
// searcher (−36% against a fresh one per file), one open and as few reads as
// possible per file (−21%), and the matcher run over the whole buffer with
// the line located only around a hit (−42% against line by line).
package search

import (
	"bytes"
	"errors"
	"io/fs"
	"syscall"
)

// Matcher finds lines; package match implements it.
type Matcher interface {
	Find(buf []byte) (start, end int)
	MatchLine(line []byte) bool
}

// ErrTooLarge and ErrBinary say why a file was not searched.
var (
	ErrTooLarge = errors.New("search: file larger than the size cap")
	ErrBinary   = errors.New("search: binary file (NUL byte)")
)

// maxRead bounds one read call. Node's node:wasi aborts the whole process
// on a read of several MiB (seen with 4 MiB and up on Node 20); 1 MiB reads
// cost nothing measurable anywhere.
const maxRead = 1 << 20

// initialBuffer is the first size of the read buffer: it holds most source
// files whole, so a typical file costs one read call and one end-of-file
// check.
const initialBuffer = 256 << 10

// Reader reads files into one reused buffer. It is not safe for concurrent
// use.
type Reader struct {
	buf []byte
	// BeforeGrow, if set, runs before the buffer grows: the one moment the
	// module's memory use can jump, so a caller flushes output there and
	// keeps what was found if the module then dies at its memory cap.
	BeforeGrow func()
}

// Read returns the contents of the regular file at name, valid until the next
// call. It never follows a symbolic link (O_NOFOLLOW). A file over maxSize
// bytes gives ErrTooLarge; one with a NUL byte in its first sniff bytes gives
// ErrBinary, with the bytes read so far counted in n either way.
//
// It uses the syscall package, not os: on wasip1 os.OpenFile adds two WASI
// calls per file (fd_fdstat_get, fd_fdstat_set_flags) to the three a read
// needs (path_open, fd_read, fd_close).
func (r *Reader) Read(name string, maxSize int64, sniff int) (data []byte, n int64, err error) {
	fd, err := open(name)
	if err != nil {
		return nil, 0, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	if r.buf == nil {
		r.buf = make([]byte, initialBuffer)
	}
	sniffed := false
	total := 0
	for {
		if total == len(r.buf) {
			if int64(total) >= maxSize {
				// Exactly at the cap: a one-byte probe tells a file of
				// exactly maxSize bytes from a larger one without a
				// buffer one byte over the cap.
				var probe [1]byte
				m, err := read(fd, probe[:])
				if err != nil {
					return nil, int64(total), &fs.PathError{Op: "read", Path: name, Err: err}
				}
				if m > 0 || int64(total) > maxSize {
					return nil, int64(total + m), ErrTooLarge
				}
				if !sniffed && bytes.IndexByte(r.buf[:min(total, sniff)], 0) >= 0 {
					return nil, int64(total), ErrBinary
				}
				return r.buf[:total], int64(total), nil
			}
			if r.BeforeGrow != nil {
				r.BeforeGrow()
			}
			// Double, but never past the cap.
			grown := make([]byte, min(2*len(r.buf), int(maxSize)))
			copy(grown, r.buf[:total])
			r.buf = grown
		}
		space := min(len(r.buf)-total, maxRead)
		m, err := read(fd, r.buf[total:total+space])
		if err != nil {
			return nil, int64(total), &fs.PathError{Op: "read", Path: name, Err: err}
		}
		total += m
		// A regular file's short read is its end: taking it so saves the
		// read call that would return 0, one of the three WASI calls a file
		// costs.
		eof := m < space
		if int64(total) > maxSize {
			return nil, int64(total), ErrTooLarge
		}
		if !sniffed && (total >= sniff || eof) {
			sniffed = true
			if bytes.IndexByte(r.buf[:min(total, sniff)], 0) >= 0 {
				return nil, int64(total), ErrBinary
			}
		}
		if eof {
			return r.buf[:total], int64(total), nil
		}
	}
}

// Lines calls fn for each line of buf that m matches, in order, with its
// 1-based number, its bytes (without the line terminator) and the offset of
// the match in the line (0 when only the line-level check located it). fn
// returns false to stop.
func Lines(buf []byte, m Matcher, fn func(number int, line []byte, col int) bool) {
	pos, number, counted := 0, 1, 0
	for pos <= len(buf) {
		s, _ := m.Find(buf[pos:])
		if s < 0 {
			return
		}
		s += pos
		start := pos + bytes.LastIndexByte(buf[pos:s], '\n') + 1
		end := bytes.IndexByte(buf[s:], '\n')
		if end < 0 {
			end = len(buf)
		} else {
			end += s
		}
		if start == len(buf) {
			return // past a final newline, or an empty file: no line here
		}
		line := buf[start:end]
		if m.MatchLine(line) {
			number += bytes.Count(buf[counted:start], []byte{'\n'})
			counted = start
			col := s - start
			if col > len(line) {
				col = 0
			}
			if !fn(number, line, col) {
				return
			}
		}
		pos = end + 1
	}
}

func open(name string) (int, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

func read(fd int, b []byte) (int, error) {
	for {
		n, err := syscall.Read(fd, b)
		if err != syscall.EINTR {
			return max(n, 0), err
		}
	}
}
