package protocol

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzCutChunk holds the reading of saved-index lines without encoding/json
// to encoding/json's: a request or an answer line it reads is read the
// same by decodeRequest (DecodeRequest's every-line path) and by
// json.Unmarshal, and the lines json.Marshal writes are read by it.
func FuzzCutChunk(f *testing.F) {
	for _, ch := range []Chunk{{Root: "/w", Bytes: []byte("rbrt\x00\x01\xff")}, {Root: "/wörk", Bytes: nil}, {Root: "/a b", Bytes: make([]byte, 1000)}} {
		req, _ := json.Marshal(Request{V: Version, ID: "l", Load: &ch})
		line, _ := json.Marshal(Line{ID: "index", Saved: &ch})
		f.Add(req)
		f.Add(line)
	}
	f.Add([]byte(`{"v":1,"id":"l","load":{"root":"/w","bytes":"cmJy\ndA=="}}`))
	f.Add([]byte(`{"v":1,"id":"l","load":{"root":"/w","bytes":"cmJydA=="},"grep":{}}`))
	f.Add([]byte(`{"id":"i\u0041","saved":{"root":"/w","bytes":""}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		if id, ch, ok := cutChunk(line, loadPrefix, "load"); ok {
			want, err := decodeRequest(line)
			if err != nil && checkLoad(&want) == nil {
				t.Fatalf("read as id %q, %+v; encoding/json refuses it: %v", id, ch, err)
			}
			if got := (Request{V: Version, ID: id, Load: ch}); !reflect.DeepEqual(got, want) {
				t.Fatalf("read as %+v; encoding/json reads %+v", got, want)
			}
		}
		if id, ch, ok := cutChunk(line, "{", "saved"); ok {
			var want Line
			if err := json.Unmarshal(line, &want); err != nil {
				t.Fatalf("read as id %q, %+v; encoding/json refuses it: %v", id, ch, err)
			}
			if got := (Line{ID: id, Saved: ch}); !reflect.DeepEqual(got, want) {
				t.Fatalf("read as %+v; encoding/json reads %+v", got, want)
			}
		}
	})
}

// TestCutChunkReadsMarshal: what json.Marshal writes of a piece of a saved
// index, the fast reading takes.
func TestCutChunkReadsMarshal(t *testing.T) {
	ch := Chunk{Root: "/w", Bytes: []byte("any \x00 bytes")}
	req, _ := json.Marshal(Request{V: Version, ID: "l", Load: &ch})
	if _, got, ok := cutChunk(req, loadPrefix, "load"); !ok || !reflect.DeepEqual(*got, ch) {
		t.Errorf("request %s: read %v, %+v", req, ok, got)
	}
	line, _ := json.Marshal(Line{ID: "index", Saved: &ch})
	if l, err := DecodeLine(append(line, '\n')); err != nil || !reflect.DeepEqual(*l.Saved, ch) || l.ID != "index" {
		t.Errorf("line %s: read %+v, %v", line, l, err)
	}
	if _, _, ok := cutChunk(line, "{", "saved"); !ok {
		t.Errorf("line %s: not read without encoding/json", line)
	}
}
