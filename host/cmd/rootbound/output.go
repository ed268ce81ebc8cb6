package main

import (
	"bufio"
	"fmt"
	"io"
)

// lineWriter buffers stdout: one write per result would dominate a run that
// prints ten thousand paths.
type lineWriter struct{ w *bufio.Writer }

func newLineWriter(w io.Writer) *lineWriter { return &lineWriter{w: bufio.NewWriterSize(w, 64<<10)} }

func (l *lineWriter) printf(format string, args ...any) { fmt.Fprintf(l.w, format, args...) }

func (l *lineWriter) flush() { _ = l.w.Flush() }
