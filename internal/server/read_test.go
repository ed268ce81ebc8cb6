package server

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rootbound/rootbound/protocol"
)

// FuzzRead reads random contents at random offsets, limits and byte caps,
// and holds every answer to an oracle written apart from the module's
// code: the file split at "\n" (a final newline ends the last line, as
// cat -n counts), a "\r" before it dropped, a line longer than the text
// width cut at a rune's edge and ended with "…"; lines from the offset,
// at most limit of them and max_bytes of text and newlines (the first
// always); truncated, with the next offset, when lines follow the last
// sent; a NUL byte anywhere is binary.
func FuzzRead(f *testing.F) {
	f.Add([]byte("alpha\nbeta\r\ngamma"), 1, 0, 0)
	f.Add([]byte("a\n\n\nb\n"), 2, 2, 3)
	f.Add([]byte(strings.Repeat("x", 40)+"é\n"), 1, 1, 1)
	f.Add([]byte("\xef\xbb\xbfbom\nline\n"), 0, 0, 0)
	f.Add([]byte("bin\x00ary\n"), 1, 0, 0)
	f.Add([]byte(""), 3, 1, 5)
	const width = 16
	f.Fuzz(func(t *testing.T, content []byte, offset, limit, maxBytes int) {
		if offset < 0 || offset > 50 || limit < 0 || limit > 50 || maxBytes < 0 || maxBytes > 500 ||
			len(content) >= 2 && (content[0] == 0xFF && content[1] == 0xFE || content[0] == 0xFE && content[1] == 0xFF) {
			return // UTF-16 is decoded: the reader's tests hold that
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f"), content, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := New([]Root{{Name: "/w", Dir: dir}})
		if err != nil {
			t.Fatal(err)
		}
		out := answer(t, s, protocol.Request{V: 1, ID: "r", Call: protocol.Call{Read: &protocol.ReadArgs{Path: "f", Offset: offset, Limit: limit, MaxBytes: maxBytes}},
			Limits: &protocol.Limits{MaxTextBytes: width}})
		var got []string
		var numbers []int
		var done *protocol.Done
		for _, l := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
			var line protocol.Line
			if err := json.Unmarshal(l, &line); err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			switch {
			case line.Item != nil:
				got = append(got, string(*line.Item.Text))
				numbers = append(numbers, line.Item.LineNumber)
			case line.Done != nil:
				done = line.Done
			}
		}
		if bytes.IndexByte(content, 0) >= 0 {
			if done.Error == nil || done.Error.Code != protocol.CodeBinary {
				t.Fatalf("a NUL byte: %+v, want binary", done)
			}
			return
		}
		if done.Error != nil {
			t.Fatalf("error %v", done.Error)
		}
		// The oracle.
		text := strings.TrimPrefix(string(content), "\uFEFF")
		var lines []string
		if text != "" {
			lines = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		}
		first := max(offset, 1)
		if limit == 0 {
			limit = protocol.MaxReadLines
		}
		if maxBytes == 0 {
			maxBytes = protocol.DefaultReadBytes
		}
		var want []string
		size := 0
		for i := first - 1; i < len(lines) && len(want) < limit; i++ {
			l := cut(strings.TrimSuffix(lines[i], "\r"), width)
			if len(want) > 0 && size+len(l)+1 > maxBytes {
				break
			}
			want = append(want, l)
			size += len(l) + 1
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) != len(want) {
			t.Fatalf("offset %d limit %d max_bytes %d:\ngot  %q\nwant %q", offset, limit, maxBytes, got, want)
		}
		for i, n := range numbers {
			if n != first+i {
				t.Fatalf("line %d numbered %d", first+i, n)
			}
		}
		last := first + len(want) - 1
		more := len(want) > 0 && last < len(lines)
		if done.Lines != len(lines) || done.Truncated != more || more && done.NextOffset != last+1 {
			t.Fatalf("done %+v; the file has %d lines, the answer ends at %d", done, len(lines), last)
		}
	})
}

// cut is a line as an item carries it when its text may hold width bytes:
// whole, or its first width bytes and the rest of a rune they end inside,
// and "…" when bytes are left out.
func cut(line string, width int) string {
	end := width
	for end < len(line) && !utf8.RuneStart(line[end]) {
		end++
	}
	if end >= len(line) {
		return line
	}
	return line[:end] + "…"
}
