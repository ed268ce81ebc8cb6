// Package server answers protocol requests: it reads request lines, runs
// glob and grep over the roots it was given, and writes response lines. It
// is the one place that wires match, walk and search together, and it builds
// natively too, so the whole core is tested without a wasm runtime.
package server

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"time"

	"github.com/rootbound/rootbound/guest/protocol"
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
	// now is the clock; tests may replace it.
	now func() time.Time
}

// New returns a Server for roots. It refuses no roots, a name that is not
// absolute and clean, and a name given twice.
func New(roots []Root) (*Server, error) {
	if len(roots) == 0 {
		return nil, errors.New("server: no roots")
	}
	seen := map[string]bool{}
	for _, r := range roots {
		if !strings.HasPrefix(r.Name, "/") || path.Clean(r.Name) != r.Name || r.Name == "/" {
			return nil, fmt.Errorf("server: root name %q, want a clean absolute path other than /", r.Name)
		}
		if seen[r.Name] {
			return nil, fmt.Errorf("server: root %q given twice", r.Name)
		}
		seen[r.Name] = true
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
		line, tooLong, err := readLine(br)
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

// readLine reads one line; a line over MaxLineBytes is drained and reported.
func readLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			buf = append(buf, chunk...)
			if len(buf) > protocol.MaxLineBytes {
				tooLong, buf = true, nil
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return buf, tooLong, err
	}
}
