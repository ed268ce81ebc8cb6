package wire

import (
	"bytes"
	"encoding/base64"
	"strconv"
	"unicode/utf8"

	"github.com/rootbound/rootbound/protocol"
)

// Item lines are most of what a module writes (a grep of the Go tree for
// "return" writes 165,000 of them) and most of what a host reads, and
// encoding/json spends its time on reflection there: in wasm, building an
// encoder per field made the module's JSON a quarter of a search. So item
// lines are written and read by hand, here, byte for byte as encoding/json
// writes them (FuzzItemLine holds both directions to it); every other line
// still goes through encoding/json.

// An ItemWriter appends the JSON line of an item (with its '\n'), as
// Encoder.Encode writes it, and keeps the
// encoded path of the last: a file's lines share their path, which is
// then encoded once (in a grep of the Go tree for "return", 165,000 lines
// of about 7,000 files). The zero value is ready to use.
type ItemWriter struct {
	path    protocol.Data
	encoded []byte
}

// Append appends the line of it.
func (w *ItemWriter) Append(dst []byte, id string, it *protocol.Item) []byte {
	return appendItemLine(dst, id, -1, it, w)
}

// AppendShard appends the item line of a shard, with its position (seq).
func (w *ItemWriter) AppendShard(dst []byte, id string, seq int64, it *protocol.Item) []byte {
	return appendItemLine(dst, id, seq, it, w)
}

func appendItemLine(dst []byte, id string, seq int64, it *protocol.Item, w *ItemWriter) []byte {
	dst = append(dst, `{"id":`...)
	dst = appendString(dst, id)
	if seq >= 0 {
		dst = append(dst, `,"seq":`...)
		dst = strconv.AppendInt(dst, seq, 10)
	}
	dst = append(dst, `,"item":{"path":`...)
	switch {
	case w == nil:
		dst = appendData(dst, string(it.Path))
	case w.encoded != nil && it.Path == w.path:
		dst = append(dst, w.encoded...)
	default:
		w.path, w.encoded = it.Path, appendData(w.encoded[:0], string(it.Path))
		dst = append(dst, w.encoded...)
	}
	if it.LineNumber != 0 {
		dst = append(dst, `,"line_number":`...)
		dst = strconv.AppendInt(dst, int64(it.LineNumber), 10)
	}
	if it.Text != nil {
		dst = append(dst, `,"text":`...)
		dst = appendData(dst, string(*it.Text))
	}
	if len(it.Submatches) > 0 {
		dst = append(dst, `,"submatches":[`...)
		for i, sp := range it.Submatches {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"start":`...)
			dst = strconv.AppendInt(dst, int64(sp.Start), 10)
			dst = append(dst, `,"end":`...)
			dst = strconv.AppendInt(dst, int64(sp.End), 10)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	if it.Break {
		dst = append(dst, `,"break":true`...)
	}
	if it.Context {
		dst = append(dst, `,"context":true`...)
	}
	if it.Count != 0 {
		dst = append(dst, `,"count":`...)
		dst = strconv.AppendInt(dst, int64(it.Count), 10)
	}
	if it.Kind != "" {
		dst = append(dst, `,"kind":`...)
		dst = appendString(dst, it.Kind)
	}
	if it.Size != 0 {
		dst = append(dst, `,"size":`...)
		dst = strconv.AppendInt(dst, it.Size, 10)
	}
	return append(dst, "}}\n"...)
}

// appendData appends a Data value as Data.MarshalJSON writes it.
func appendData(dst []byte, s string) []byte {
	if utf8.ValidString(s) {
		dst = append(dst, `{"text":`...)
		dst = appendString(dst, s)
		return append(dst, '}')
	}
	dst = append(dst, `{"bytes":"`...)
	dst = base64.StdEncoding.AppendEncode(dst, []byte(s))
	return append(dst, `"}`...)
}

const hexDigits = "0123456789abcdef"

// plain8 reports whether the 8 bytes of s are all printable ASCII other
// than '"' and '\\': bytes JSON strings carry as they are.
func plain8(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	v := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	zero := func(x uint64) uint64 { return (x - ones) &^ x & highs } // a byte of x is 0
	return v&highs == 0 &&                                           // no byte at or above 0x80
		(v-0x2020202020202020)&highs == 0 && // no byte below 0x20 (v has no high bits)
		zero(v^(ones*'"')) == 0 && zero(v^(ones*'\\')) == 0
}

// appendString appends s as a JSON string, escaped as encoding/json does
// with HTML escaping off (s is valid UTF-8 here: Data sends anything else
// as bytes).
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight plain bytes at a time: most of a line needs no escape.
		for i+8 <= len(s) && plain8(s[i:i+8]) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '"', '\\':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// An ItemReader parses an item line exactly as an ItemWriter writes it,
// with its position (seq, -1 when it has none); ok is false for any other
// line (a problem, a final line, or one written some other way), which the
// caller decodes with encoding/json. It keeps the id and path of the last: a file's lines share them, which are then
// compared, not decoded and copied again. The zero value is ready to use.
type ItemReader struct {
	rawID, rawPath []byte // the JSON of the last id and path, as read
	idStr          string
	pathData       protocol.Data
}

// Parse parses one line.
func (r *ItemReader) Parse(line []byte) (id string, seq int64, it protocol.Item, ok bool) {
	return parseItemLine(line, r)
}

// again reports whether the value at p is raw, the JSON of the value read
// last (a string, or a Data object: each ends with its own closing byte,
// so a prefix is the whole value), and steps over it.
func (p *parser) again(raw []byte) bool {
	if len(raw) == 0 || !bytes.HasPrefix(p.b[p.i:], raw) {
		return false
	}
	p.i += len(raw)
	return true
}

func parseItemLine(line []byte, r *ItemReader) (id string, seq int64, it protocol.Item, ok bool) {
	seq = -1
	p := parser{b: line}
	if !p.lit(`{"id":`) {
		return "", seq, it, false
	}
	switch start := p.i; {
	case r != nil && p.again(r.rawID):
		id = r.idStr
	default:
		if id, ok = p.str(); !ok {
			return "", seq, it, false
		}
		if r != nil {
			r.rawID, r.idStr = append(r.rawID[:0], line[start:p.i]...), id
		}
	}
	if p.lit(`,"seq":`) {
		n, ok := p.int()
		if !ok || n < 0 {
			return "", -1, it, false
		}
		seq = int64(n)
	}
	if !p.lit(`,"item":{"path":`) {
		return "", -1, it, false
	}
	switch start := p.i; {
	case r != nil && p.again(r.rawPath):
		it.Path = r.pathData
	default:
		path, ok := p.data()
		if !ok {
			return "", -1, it, false
		}
		it.Path = path
		if r != nil {
			r.rawPath, r.pathData = append(r.rawPath[:0], line[start:p.i]...), path
		}
	}
	if p.lit(`,"line_number":`) {
		if it.LineNumber, ok = p.int(); !ok {
			return "", -1, it, false
		}
	}
	if p.lit(`,"text":`) {
		text, ok := p.data()
		if !ok {
			return "", -1, it, false
		}
		it.Text = &text
	}
	if p.lit(`,"submatches":[`) {
		for {
			var sp protocol.Span
			if !p.lit(`{"start":`) {
				return "", -1, protocol.Item{}, false
			}
			if sp.Start, ok = p.int(); !ok || !p.lit(`,"end":`) {
				return "", -1, protocol.Item{}, false
			}
			if sp.End, ok = p.int(); !ok || !p.lit("}") {
				return "", -1, protocol.Item{}, false
			}
			it.Submatches = append(it.Submatches, sp)
			if p.lit("]") {
				break
			}
			if !p.lit(",") {
				return "", -1, protocol.Item{}, false
			}
		}
	}
	if p.lit(`,"break":true`) {
		it.Break = true
	}
	if p.lit(`,"context":true`) {
		it.Context = true
	}
	if p.lit(`,"count":`) {
		if it.Count, ok = p.int(); !ok {
			return "", -1, it, false
		}
	}
	if p.lit(`,"kind":`) {
		if it.Kind, ok = p.str(); !ok {
			return "", -1, it, false
		}
	}
	if p.lit(`,"size":`) {
		n, ok := p.int()
		if !ok {
			return "", -1, it, false
		}
		it.Size = int64(n)
	}
	if !p.lit("}}") || !(p.i == len(p.b) || (p.i == len(p.b)-1 && p.b[p.i] == '\n')) {
		return "", -1, protocol.Item{}, false
	}
	return id, seq, it, true
}

type parser struct {
	b []byte
	i int
}

func (p *parser) lit(s string) bool {
	if len(p.b)-p.i >= len(s) && string(p.b[p.i:p.i+len(s)]) == s {
		p.i += len(s)
		return true
	}
	return false
}

func (p *parser) int() (int, bool) {
	start := p.i
	if p.i < len(p.b) && p.b[p.i] == '-' {
		p.i++
	}
	digits := p.i
	for p.i < len(p.b) && '0' <= p.b[p.i] && p.b[p.i] <= '9' {
		p.i++
	}
	if p.i == digits || p.i-digits > 18 || (p.b[digits] == '0' && p.i-digits > 1) {
		return 0, false
	}
	n, err := strconv.Atoi(string(p.b[start:p.i]))
	return n, err == nil
}

func (p *parser) data() (protocol.Data, bool) {
	switch {
	case p.lit(`{"text":`):
		s, ok := p.str()
		if !ok || !p.lit("}") {
			return "", false
		}
		return protocol.Data(s), true
	case p.lit(`{"bytes":`):
		s, ok := p.str()
		if !ok || !p.lit("}") {
			return "", false
		}
		raw, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return "", false
		}
		return protocol.Data(raw), true
	}
	return "", false
}

// str reads a JSON string: at once when it has no escape, through
// strconv.Unquote's rules for the escapes JSON has otherwise.
func (p *parser) str() (string, bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return "", false
	}
	start := p.i + 1
	escaped := false
	for j := start; j < len(p.b); j++ {
		switch c := p.b[j]; {
		case c == '\\':
			escaped = true
			j++
		case c == '"':
			p.i = j + 1
			if !escaped {
				return string(p.b[start:j]), true
			}
			return unescape(p.b[start:j])
		case c < 0x20:
			return "", false
		}
	}
	return "", false
}

// unescape decodes the escapes of a JSON string's body.
func unescape(b []byte) (string, bool) {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			out = append(out, b[i])
			continue
		}
		if i+1 >= len(b) {
			return "", false
		}
		i++
		switch b[i] {
		case '"', '\\', '/':
			out = append(out, b[i])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(b, i+1)
			if !ok {
				return "", false
			}
			i += 4
			if utf16Surrogate(r) {
				// A pair: \uD8xx\uDCxx.
				if i+6 < len(b) && b[i+1] == '\\' && b[i+2] == 'u' {
					if lo, ok := hex4(b, i+3); ok && 0xDC00 <= lo && lo < 0xE000 && r < 0xDC00 {
						r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
						i += 6
					} else {
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			return "", false
		}
	}
	return string(out), true
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[i:i+4]), 16, 32)
	return rune(v), err == nil
}

func utf16Surrogate(r rune) bool { return 0xD800 <= r && r < 0xE000 }
