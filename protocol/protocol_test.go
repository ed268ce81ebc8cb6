package protocol

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDecodeRequest(t *testing.T) {
	tests := []struct {
		name   string
		line   string
		wantID string
		ok     bool
	}{
		{name: "glob", line: `{"v":1,"id":"7","glob":{"pattern":"*.go"}}`, wantID: "7", ok: true},
		{name: "grep with limits", line: `{"v":1,"id":"8","grep":{"pattern":"x","output_mode":"count"},"limits":{"deadline_ms":5}}`, wantID: "8", ok: true},
		{name: "no version", line: `{"id":"1","glob":{"pattern":"x"}}`, wantID: "1"},
		{name: "future version", line: `{"v":2,"id":"1","glob":{"pattern":"x"}}`, wantID: "1"},
		{name: "both tools", line: `{"v":1,"id":"1","glob":{"pattern":"x"},"grep":{"pattern":"x"}}`, wantID: "1"},
		{name: "no tool", line: `{"v":1,"id":"1"}`, wantID: "1"},
		{name: "unknown field", line: `{"v":1,"id":"2","glob":{"pattern":"x","follow":true}}`, wantID: "2"},
		{name: "unknown op", line: `{"v":1,"id":"3","rm":{"path":"/"}}`, wantID: "3"},
		{name: "wrong type", line: `{"v":1,"id":"4","glob":{"pattern":7}}`, wantID: "4"},
		{name: "truncated", line: `{"v":1,"id":"5","glob":{"pat`},
		{name: "trailing data", line: `{"v":1,"id":"6","glob":{"pattern":"x"}} {}`, wantID: "6"},
		{name: "not an object", line: `[1,2]`},
		{name: "a key twice", line: `{"v":1,"id":"9","glob":{"pattern":"x"},"id":"10"}`, wantID: "10"},
		{name: "a nested key twice", line: `{"v":1,"id":"9","grep":{"pattern":"x","pattern":"y"}}`, wantID: "9"},
		{name: "a key twice in a list of objects", line: `{"v":1,"id":"9","glob":{"pattern":"x"},"policy":[{"root":"/w","deny":"a","deny":"b"}]}`, wantID: "9"},
		{name: "a key in another case", line: `{"v":1,"id":"9","Glob":{"pattern":"x"}}`, wantID: "9"},
		{name: "a nested key in another case", line: `{"v":1,"id":"9","glob":{"Pattern":"x"}}`, wantID: "9"},
		{name: "not UTF-8", line: "{\"v\":1,\"id\":\"9\",\"glob\":{\"pattern\":\"\xff\"}}", wantID: "9"},
		{name: "index", line: `{"v":1,"id":"i","index":{"load":true,"save":true}}`, wantID: "i", ok: true},
		{name: "index and a tool", line: `{"v":1,"id":"i","index":{},"grep":{"pattern":"x"}}`, wantID: "i"},
		{name: "load", line: `{"v":1,"id":"l","load":{"root":"/w","bytes":"cmJydA=="}}`, wantID: "l", ok: true},
		{name: "load and a tool", line: `{"v":1,"id":"l","load":{"root":"/w","bytes":""},"glob":{"pattern":"x"}}`, wantID: "l"},
		{name: "load and index", line: `{"v":1,"id":"l","load":{"root":"/w","bytes":""},"index":{}}`, wantID: "l"},
		{name: "load past its size", line: `{"v":1,"id":"l","load":{"root":"/w","bytes":"` + strings.Repeat("A", (MaxChunkBytes+3)/3*4+4) + `"}}`, wantID: "l"},
		{name: "load not base64", line: `{"v":1,"id":"l","load":{"root":"/w","bytes":"**"}}`, wantID: "l"},
		{name: "a list where one string is taken", line: `{"v":1,"id":"9","grep":{"pattern":"x","glob":["a","b"],"type":"go"}}`, wantID: "9", ok: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := DecodeRequest([]byte(tt.line))
			if (err == nil) != tt.ok {
				t.Fatalf("err = %v, want ok=%v", err, tt.ok)
			}
			if err != nil && err.Code != CodeInvalidArgument {
				t.Errorf("code %s, want %s", err.Code, CodeInvalidArgument)
			}
			if req.ID != tt.wantID {
				t.Errorf("id %q, want %q", req.ID, tt.wantID)
			}
		})
	}
}

func TestDataJSON(t *testing.T) {
	tests := []struct {
		name string
		in   Data
		json string
	}{
		{name: "text", in: "src/a b.go", json: `{"text":"src/a b.go"}`},
		{name: "empty", in: "", json: `{"text":""}`},
		{name: "unicode", in: "é/日本.txt", json: `{"text":"é/日本.txt"}`},
		{name: "invalid utf8", in: "a\xffb", json: `{"bytes":"Yf9i"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.in)
			if err != nil || string(b) != tt.json {
				t.Fatalf("Marshal = %s, %v; want %s", b, err, tt.json)
			}
			var back Data
			if err := json.Unmarshal(b, &back); err != nil || back != tt.in {
				t.Fatalf("Unmarshal = %q, %v; want %q", back, err, tt.in)
			}
		})
	}
	var d Data
	for _, bad := range []string{`{}`, `{"text":"a","bytes":"YQ=="}`, `{"bytes":"!!"}`, `"x"`} {
		if err := json.Unmarshal([]byte(bad), &d); err == nil {
			t.Errorf("Unmarshal(%s) succeeded, want an error", bad)
		}
	}
}

func TestEncoderKeepsHTML(t *testing.T) {
	var buf bytes.Buffer
	if err := NewEncoder(&buf).Encode(&Line{ID: "1", Item: &Item{Path: "a<b>&c"}}); err != nil {
		t.Fatal(err)
	}
	if want := `{"id":"1","item":{"path":{"text":"a<b>&c"}}}` + "\n"; buf.String() != want {
		t.Errorf("got %s want %s", buf.String(), want)
	}
}

func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{
		`{"v":1,"id":"1","glob":{"pattern":"*.go","path":"src","max_results":5}}`,
		`{"v":1,"id":"2","grep":{"pattern":"a+","literal":true,"case":"smart","output_mode":"content"},"limits":{"deadline_ms":100}}`,
		`{"v":1`, `null`, `{"v":1,"id":"1","glob":null}`,
		`{"v":1,"id":"3","glob":{"pattern":"*","exclude":["a","!b"],"type":"go","type_not":["md"],"include_dirs":true,"case_insensitive":true,"sort":"mtime","max_depth":2,"no_ignore":true,"hidden":false}}`,
		`{"v":1,"id":"4","grep":{"pattern":"x","glob":"*.go","type":["py"]},"policy":[{"root":"/w","hide_hidden":true,"deny":"*.pem","ignore":[{"kind":"global","base":"a","rules":"*.o\n"}]}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		req, err := DecodeRequest(line)
		if err == nil && (req.Glob == nil) == (req.Grep == nil) {
			t.Fatalf("accepted a request with glob=%v grep=%v", req.Glob, req.Grep)
		}
		if err != nil && err.Code != CodeInvalidArgument {
			t.Fatalf("code %s", err.Code)
		}
		if err != nil {
			return
		}
		// What is accepted is UTF-8 and reads back as itself once written
		// out (nothing was dropped, merged or folded on the way in): the
		// same line again. (An empty list and none are one on the wire:
		// compared as structs, "policy":[] read back as none.)
		if !utf8.Valid(line) {
			t.Fatalf("accepted a line that is not UTF-8: %q", line)
		}
		again, _ := json.Marshal(req)
		req2, err2 := DecodeRequest(again)
		third, _ := json.Marshal(req2)
		if err2 != nil || !bytes.Equal(again, third) {
			t.Fatalf("%s\nreads back as %s, %v", again, third, err2)
		}
	})
}
