package server

import (
	"bytes"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkGlob globs the Go tree's src natively for *.go: the walk's cost
// an entry (the directory reads, the ignore and hidden rules, the name's
// match), which a glob pays whole.
func BenchmarkGlob(b *testing.B) {
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no go command")
	}
	s, err := New([]Root{{Name: "/w", Dir: filepath.Join(strings.TrimSpace(string(root)), "src")}})
	if err != nil {
		b.Fatal(err)
	}
	line := []byte(`{"v":1,"id":"b","glob":{"pattern":"*.go","max_results":100000}}` + "\n")
	b.ResetTimer()
	for range b.N {
		if err := s.Serve(bytes.NewReader(line), io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
