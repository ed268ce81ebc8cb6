package server

import (
	"bytes"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkGrepContext greps the Go tree's net package natively for a
// common word, with context lines and a page past the first results: the
// path every result and context line takes through the call's page
// (internal/page), the item writer and the encoder.
func BenchmarkGrepContext(b *testing.B) {
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no go command")
	}
	dir := filepath.Join(strings.TrimSpace(string(root)), "src", "net")
	s, err := New([]Root{{Name: "/w", Dir: dir}})
	if err != nil {
		b.Fatal(err)
	}
	line := []byte(`{"v":1,"id":"b","grep":{"pattern":"return","output_mode":"content","context":2,"offset":100,"max_results":100000}}` + "\n")
	b.ResetTimer()
	for range b.N {
		if err := s.Serve(bytes.NewReader(line), io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
