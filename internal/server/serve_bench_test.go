package server

import (
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// serveGoTree serves line natively over the Go tree's src/sub, b.N times.
func serveGoTree(b *testing.B, sub, line string) {
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no go command")
	}
	s, err := New([]Root{{Name: "/w", Dir: filepath.Join(strings.TrimSpace(string(root)), "src", sub)}})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if err := s.Serve(strings.NewReader(line+"\n"), io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGrepContext greps the Go tree's net package natively for a
// common word, with context lines and a page past the first results: the
// path every result and context line takes through the call's page
// (internal/page), the item writer and the encoder.
func BenchmarkGrepContext(b *testing.B) {
	serveGoTree(b, "net", `{"v":1,"id":"b","grep":{"pattern":"return","output_mode":"content","context":2,"offset":100,"max_results":100000}}`)
}

// BenchmarkGlob globs the Go tree's src natively for *.go: the walk's cost
// an entry (the directory reads, the ignore and hidden rules, the name's
// match), which a glob pays whole.
func BenchmarkGlob(b *testing.B) {
	serveGoTree(b, "", `{"v":1,"id":"b","glob":{"pattern":"*.go","max_results":100000}}`)
}
