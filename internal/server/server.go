// Package server answers protocol requests: it reads request lines, runs
// glob, grep, read and list over the roots it was given, and writes response lines. It
// is the one place that wires match, walk and search together, and it builds
// natively too, so the whole core is tested without a wasm runtime.
package server

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/rootbound/rootbound/internal/search"
	"github.com/rootbound/rootbound/protocol"
)

// Root is a readable root: Name is the path callers use ("/workspace") and
// Dir where it is on the file system this process sees. In the wasm module
// both are the preopen's guest path; in a native build Dir is a host path,
// which never appears in any output.
type Root struct {
	Name string
	Dir  string
}

// Server answers requests for a fixed set of roots; the first is the default.
type Server struct {
	roots []Root
	// reader reads files, its buffer kept from call to call.
	reader search.Reader
	// searcher searches them, kept for the same reason and for speed
	// (search.Searcher).
	searcher search.Searcher
	// now is the clock; tests may replace it.
	now func() time.Time
	// indexes are the roots' indexes (indexed.go), by root name, from the
	// last index request that named each.
	indexes map[string]*rootIndex
	// loads are the pieces of saved indexes Load requests handed on since
	// the last index request, by root name (persist.go).
	loads map[string][][]byte
}

// New returns a Server for roots. It refuses no roots and the names
// protocol.CheckRootNames refuses (names that nest among them).
func New(roots []Root) (*Server, error) {
	if len(roots) == 0 {
		return nil, errors.New("server: no roots")
	}
	names := make([]string, len(roots))
	for i, r := range roots {
		names[i] = r.Name
	}
	if err := protocol.CheckRootNames(names); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	return &Server{roots: roots, now: time.Now}, nil
}

// Serve answers each request line read from in until in ends. It returns nil
// at the end of input and an error only when out fails.
func (s *Server) Serve(in io.Reader, out io.Writer) error {
	br := bufio.NewReaderSize(in, 64<<10)
	bw := bufio.NewWriterSize(out, 64<<10)
	enc := protocol.NewEncoder(bw)
	for {
		line, err := protocol.ReadLine(br)
		tooLong := len(line) > protocol.MaxLineBytes
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if werr := s.handle(line, tooLong, enc, bw).finish(); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
