package testtree

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Entry describes one path of a tree, as the conformance cases' tree.json
// files write it.
type Entry struct {
	Content       *string `json:"content"`
	Base64        string  `json:"base64"`
	ContentRepeat *struct {
		Text  string `json:"text"`
		Times int    `json:"times"`
		Then  string `json:"then"`
		After int    `json:"after"`
	} `json:"content_repeat"`
	// Parts is a file made of pieces, each Text repeated Times (1 if 0).
	Parts []struct {
		Text  string `json:"text"`
		Times int    `json:"times"`
	} `json:"parts"`
	Dir     bool   `json:"dir"`
	Symlink string `json:"symlink"`
	Mode    string `json:"mode"`
	Mtime   string `json:"mtime"`
}

// WriteEntries creates tree under dir.
func WriteEntries(t testing.TB, dir string, tree map[string]Entry) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, e := range tree {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		var err error
		switch {
		case e.Dir:
			err = os.MkdirAll(p, 0o755)
		case e.Symlink != "":
			err = os.Symlink(e.Symlink, p)
		default:
			var data []byte
			switch {
			case e.Content != nil:
				data = []byte(*e.Content)
			case e.Base64 != "":
				data, err = base64.StdEncoding.DecodeString(e.Base64)
			case e.ContentRepeat != nil:
				r := e.ContentRepeat
				data = append([]byte(strings.Repeat(r.Text, r.Times)), r.Then...)
				data = append(data, strings.Repeat(r.Text, r.After)...)
			case e.Parts != nil:
				for _, part := range e.Parts {
					data = append(data, strings.Repeat(part.Text, max(part.Times, 1))...)
				}
			}
			if err == nil {
				err = os.WriteFile(p, data, 0o644)
			}
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if e.Mode != "" {
			mode, _ := strconv.ParseUint(e.Mode, 8, 32)
			os.Chmod(p, os.FileMode(mode))
		}
		if e.Mtime != "" {
			mt, err := time.Parse(time.RFC3339, e.Mtime)
			if err != nil {
				t.Fatalf("%s: mtime: %v", name, err)
			}
			os.Chtimes(p, mt, mt)
		}
	}
}
