package protocol

import (
	"bytes"
	"encoding/json"
	"reflect"
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
		// out (nothing was dropped, merged or folded on the way in).
		if !utf8.Valid(line) {
			t.Fatalf("accepted a line that is not UTF-8: %q", line)
		}
		again, _ := json.Marshal(req)
		req2, err2 := DecodeRequest(again)
		if err2 != nil || !reflect.DeepEqual(req, req2) {
			t.Fatalf("%s\nreads back as %+v, %v", again, req2, err2)
		}
	})
}

// FuzzItemLine holds the hand-written item lines to encoding/json: what
// AppendItemLine writes is what Encoder.Encode writes, and ParseItemLine
// reads it back as json.Unmarshal does.
func FuzzItemLine(f *testing.F) {
	f.Add("1", "src/main.go", 3, "func main() {}", true, 0, uint8(2), 5, false)
	f.Add("", "a\xffb", 0, "", false, 7, uint8(0), 0, true)
	f.Add("id\"\\", "x\u2028\ny", 1, "\t\x00\x7f<&>\u2029é\xfe", true, 1, uint8(1), -3, true)
	f.Add("", "", -1, "", false, -38, uint8(0), 0, false)
	f.Fuzz(func(t *testing.T, id, path string, line int, text string, hasText bool, count int, spans uint8, start int, context bool) {
		if !utf8.ValidString(id) {
			return // ids come from requests, which are UTF-8
		}
		it := Item{Path: Data(path), LineNumber: line, Count: count, Context: context, Break: spans&8 != 0}
		// A listed entry's kind and size, from the bits spans leaves: one
		// of the kinds, or any text (the codec must escape it as
		// encoding/json does, when it is UTF-8).
		if k := []string{"", KindFile, KindDir, KindSymlink}[spans>>4&3]; k != "" {
			it.Kind, it.Size = k, int64(count)*int64(start)
		}
		if spans&0x40 != 0 && utf8.ValidString(text) {
			it.Kind = text
		}
		for i := range int(spans % 4) {
			it.Submatches = append(it.Submatches, Span{Start: start + i, End: start + 2*i})
		}
		if hasText {
			d := Data(text)
			it.Text = &d
		}
		var want bytes.Buffer
		if err := NewEncoder(&want).Encode(&Line{ID: id, Item: &it}); err != nil {
			t.Fatal(err)
		}
		got := AppendItemLine(nil, id, &it)
		if string(got) != want.String() {
			t.Fatalf("AppendItemLine = %s\nencoding/json  = %s", got, want.Bytes())
		}
		// An ItemWriter, whose path is encoded once for lines in a row.
		var w ItemWriter
		for _, p := range []string{path, "other/" + path, path, path} {
			pi := it
			pi.Path = Data(p)
			if got, want := w.Append(nil, id, &pi), AppendItemLine(nil, id, &pi); string(got) != string(want) {
				t.Fatalf("ItemWriter.Append = %s\nAppendItemLine  = %s", got, want)
			}
		}
		// An ItemReader, which compares a line's id and path with the last.
		var r ItemReader
		for _, p := range []string{path, "other/" + path, path, path} {
			pi := it
			pi.Path = Data(p)
			line := AppendItemLine(nil, id, &pi)
			wid, wseq, wit, wok := ParseShardItemLine(line)
			rid, rseq, rit, rok := r.Parse(line)
			if rid != wid || rseq != wseq || rok != wok || !reflect.DeepEqual(rit, wit) {
				t.Fatalf("ItemReader.Parse = %q %d %+v %v\nParseShardItemLine = %q %d %+v %v", rid, rseq, rit, rok, wid, wseq, wit, wok)
			}
		}
		gotID, gotItem, ok := ParseItemLine(got)
		var l Line
		if err := json.Unmarshal(got, &l); err != nil {
			t.Fatal(err)
		}
		if !ok || gotID != l.ID || !reflect.DeepEqual(gotItem, *l.Item) {
			t.Fatalf("ParseItemLine = %q %+v %v, json.Unmarshal = %q %+v", gotID, gotItem, ok, l.ID, *l.Item)
		}
	})
}
