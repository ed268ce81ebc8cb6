package wire

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/rootbound/rootbound/protocol"
)

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
		it := protocol.Item{Path: protocol.Data(path), LineNumber: line, Count: count, Context: context, Break: spans&8 != 0}
		// A listed entry's kind and size, from the bits spans leaves: one
		// of the kinds, or any text (the codec must escape it as
		// encoding/json does, when it is UTF-8).
		if k := []string{"", protocol.KindFile, protocol.KindDir, protocol.KindSymlink}[spans>>4&3]; k != "" {
			it.Kind, it.Size = k, int64(count)*int64(start)
		}
		if spans&0x40 != 0 && utf8.ValidString(text) {
			it.Kind = text
		}
		for i := range int(spans % 4) {
			it.Submatches = append(it.Submatches, protocol.Span{Start: start + i, End: start + 2*i})
		}
		if hasText {
			d := protocol.Data(text)
			it.Text = &d
		}
		var want bytes.Buffer
		if err := protocol.NewEncoder(&want).Encode(&protocol.Line{ID: id, Item: &it}); err != nil {
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
			pi.Path = protocol.Data(p)
			if got, want := w.Append(nil, id, &pi), AppendItemLine(nil, id, &pi); string(got) != string(want) {
				t.Fatalf("ItemWriter.Append = %s\nAppendItemLine  = %s", got, want)
			}
		}
		// An ItemReader, which compares a line's id and path with the last.
		var r ItemReader
		for _, p := range []string{path, "other/" + path, path, path} {
			pi := it
			pi.Path = protocol.Data(p)
			line := AppendItemLine(nil, id, &pi)
			wid, wseq, wit, wok := ParseShardItemLine(line)
			rid, rseq, rit, rok := r.Parse(line)
			if rid != wid || rseq != wseq || rok != wok || !reflect.DeepEqual(rit, wit) {
				t.Fatalf("ItemReader.Parse = %q %d %+v %v\nParseShardItemLine = %q %d %+v %v", rid, rseq, rit, rok, wid, wseq, wit, wok)
			}
		}
		gotID, gotItem, ok := ParseItemLine(got)
		var l protocol.Line
		if err := json.Unmarshal(got, &l); err != nil {
			t.Fatal(err)
		}
		if !ok || gotID != l.ID || !reflect.DeepEqual(gotItem, *l.Item) {
			t.Fatalf("ParseItemLine = %q %+v %v, json.Unmarshal = %q %+v", gotID, gotItem, ok, l.ID, *l.Item)
		}
	})
}
