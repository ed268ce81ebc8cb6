package protocol

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"unicode/utf8"
)

// A saved index crosses the protocol in lines of up to 700 KB of base64
// (Chunk), hundreds of them for a large tree, and encoding/json reads
// them at 40–65 MB/s natively and several times slower in the module, most
// of a restart's time. cutChunk reads the one shape json.Marshal writes
// them in, {PREFIX"id":ID,"KIND":{"root":ROOT,"bytes":"BASE64"}}, at the
// speed of a base64 decode; any other line, or a string in it with an
// escape, is left to encoding/json, which reads it the same way
// (FuzzCutChunk holds the two to each other).
func cutChunk(line []byte, prefix, kind string) (id string, ch *Chunk, ok bool) {
	rest, ok := bytes.CutPrefix(line, []byte(prefix+`"id":`))
	if !ok {
		return "", nil, false
	}
	id, rest, ok = cutString(rest)
	if !ok {
		return "", nil, false
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"`+kind+`":{"root":`)); !ok {
		return "", nil, false
	}
	root, rest, ok := cutString(rest)
	if !ok {
		return "", nil, false
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"bytes":"`)); !ok {
		return "", nil, false
	}
	end := bytes.IndexByte(rest, '"')
	if end < 0 || !bytes.Equal(bytes.TrimSuffix(rest[end:], []byte("\n")), []byte(`"}}`)) {
		return "", nil, false
	}
	enc := rest[:end]
	for _, c := range enc { // what base64's decoder would skip, JSON refuses
		if c == '\r' || c == '\n' || c == '\\' {
			return "", nil, false
		}
	}
	b := make([]byte, base64.StdEncoding.DecodedLen(len(enc)))
	n, err := base64.StdEncoding.Decode(b, enc)
	if err != nil {
		return "", nil, false
	}
	return id, &Chunk{Root: root, Bytes: b[:n]}, true
}

// cutString reads a JSON string at the start of b that has no escape and
// no control character, and returns it and what follows.
func cutString(b []byte) (string, []byte, bool) {
	if len(b) == 0 || b[0] != '"' {
		return "", nil, false
	}
	end := bytes.IndexByte(b[1:], '"')
	if end < 0 {
		return "", nil, false
	}
	s := b[1 : 1+end]
	for _, c := range s {
		if c < 0x20 || c == '\\' {
			return "", nil, false
		}
	}
	if !utf8.Valid(s) {
		return "", nil, false
	}
	return string(s), b[2+end:], true
}

// DecodeLine parses one line of a module's answer. A line of a saved
// index's piece (Line.Saved) is read without encoding/json when it has the
// shape the module writes.
func DecodeLine(raw []byte) (Line, error) {
	if id, ch, ok := cutChunk(raw, "{", "saved"); ok {
		return Line{ID: id, Saved: ch}, nil
	}
	var l Line
	err := json.Unmarshal(raw, &l)
	return l, err
}
