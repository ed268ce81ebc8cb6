package protocol

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DecodeRequest parses one request line, as strictly as a host's tool
// arguments are read: it refuses a line that is not valid UTF-8, unknown
// fields, a field spelled in another case or given twice, trailing data, a
// missing or foreign version and a request naming no tool or both. The
// returned *Error is CodeInvalidArgument; the Request carries whatever ID
// could be read, so the answer can still name it.
func DecodeRequest(line []byte) (Request, *Error) {
	if id, ch, ok := cutChunk(line, loadPrefix, "load"); ok {
		// A host's piece of a saved index, in the shape it writes it.
		req := Request{V: Version, ID: id, Load: ch}
		return req, checkLoad(&req)
	}
	return decodeRequest(line)
}

// loadPrefix begins a load request as json.Marshal writes it.
var loadPrefix = `{"v":` + strconv.Itoa(Version) + `,`

// checkLoad refuses a piece of a saved index past MaxChunkBytes.
func checkLoad(req *Request) *Error {
	if req.Load != nil && len(req.Load.Bytes) > MaxChunkBytes {
		return NewError(CodeInvalidArgument, fmt.Sprintf("load: %d bytes, want at most %d", len(req.Load.Bytes), MaxChunkBytes))
	}
	return nil
}

// decodeRequest is DecodeRequest by encoding/json, for every line.
func decodeRequest(line []byte) (Request, *Error) {
	var req Request
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	err := strictFields(line)
	if err == nil {
		err = dec.Decode(&req)
	}
	if err != nil {
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(line, &probe)
		var id string
		_ = json.Unmarshal(probe.ID, &id)
		return Request{ID: id}, NewError(CodeInvalidArgument, "bad request: "+jsonText(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return req, NewError(CodeInvalidArgument, "bad request: data after the JSON object")
	}
	if req.V != Version {
		return req, NewError(CodeInvalidArgument, fmt.Sprintf("version %d, want %d", req.V, Version))
	}
	called := req.Tools()
	if req.Index != nil || req.Load != nil {
		kind := "index"
		if req.Index == nil {
			kind = "load"
		}
		if len(called) > 0 || req.Shard != nil || (req.Index != nil && req.Load != nil) {
			others := slices.Concat(ToolNames, []string{"shard", "index", "load"})
			others = slices.DeleteFunc(others, func(n string) bool { return n == kind })
			return req, NewError(CodeInvalidArgument, `an "`+kind+`" request names no `+quoteList(others, "or"))
		}
		return req, checkLoad(&req)
	}
	if len(called) != 1 {
		return req, NewError(CodeInvalidArgument, "a request names exactly one of "+quoteList(ToolNames, "and"))
	}
	return req, nil
}

// quoteList writes names quoted, as a list: "a", "b" and "c".
func quoteList(names []string, and string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " " + and + " " + q[len(q)-1]
}

// jsonText says what encoding/json found wrong in the user's terms: the
// field and the JSON type wanted, never a Go type.
func jsonText(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		want := "a value of another type"
		switch te.Type.Kind() {
		case reflect.String:
			want = "a string"
		case reflect.Bool:
			want = "true or false"
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			want = "an integer"
		case reflect.Float32, reflect.Float64:
			want = "a number"
		case reflect.Slice, reflect.Array:
			want = "a list"
		case reflect.Struct, reflect.Map, reflect.Pointer:
			want = "an object"
		}
		field := te.Field
		if field == "" {
			field = "the request"
		}
		return fmt.Sprintf("%s: want %s, not %s", field, want, jsonKind(te.Value))
	case errors.As(err, &se):
		return fmt.Sprintf("not JSON at byte %d: %s", se.Offset, se.Error())
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// jsonKind names a JSON value's kind as UnmarshalTypeError gives it
// ("string", "number 1.5", "object") with its article.
func jsonKind(v string) string {
	switch {
	case v == "object", v == "array":
		return "an " + v
	case v == "bool":
		return "true or false"
	}
	return "a " + v
}

// strictFields checks what encoding/json lets pass: bytes that are not
// UTF-8 (it would read them as U+FFFD), and object keys that are not a
// field's exact name or come twice (it matches names without regard to
// case, and the last of two wins), at any depth of a Request.
func strictFields(line []byte) error {
	if !utf8.Valid(line) {
		return errors.New("not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	err := walkFields(dec, reflect.TypeFor[Request](), "")
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return errors.New("the line ends before its JSON does")
	}
	return err
}

// walkFields reads one JSON value from dec, checking the keys of objects
// against the fields of t.
func walkFields(dec *json.Decoder, t reflect.Type, at string) error {
	if noKeys(t) {
		// Nothing in it has keys to check: pass over it whole, not a
		// token at a time (a list of 100,000 strings took 100 ms here).
		var skip json.RawMessage
		return dec.Decode(&skip)
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch tok {
	case json.Delim('{'):
		fields := map[string]reflect.Type{}
		var names []string
		if t.Kind() == reflect.Struct {
			names = jsonFields(t, fields, names)
		}
		seen := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			key := tok.(string)
			ft, ok := fields[key]
			switch {
			case seen[key]:
				return fmt.Errorf("field %q given twice", at+key)
			case !ok && t.Kind() == reflect.Struct:
				return fmt.Errorf("unknown field %q (the fields here: %s)", at+key, strings.Join(names, ", "))
			case !ok:
				ft = reflect.TypeFor[any]()
			}
			seen[key] = true
			if err := walkFields(dec, ft, at+key+"."); err != nil {
				return err
			}
		}
		_, err = dec.Token() // }
		return err
	case json.Delim('['):
		elem := reflect.TypeFor[any]()
		if t.Kind() == reflect.Slice {
			elem = t.Elem()
		}
		for dec.More() {
			if err := walkFields(dec, elem, at); err != nil {
				return err
			}
		}
		_, err = dec.Token() // ]
		return err
	}
	return nil
}

// noKeys reports whether no value of type t is an object: a number, a
// string, a bool, or a list of them (a []byte is a string in JSON).
func noKeys(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map, reflect.Interface:
		return false
	}
	return true
}

// jsonFields adds the JSON fields of struct t to fields and their names to
// names, with those of an embedded struct (Request's Call) in its place.
func jsonFields(t reflect.Type, fields map[string]reflect.Type, names []string) []string {
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
			names = jsonFields(f.Type, fields, names)
		case name != "" && name != "-":
			fields[name] = f.Type
			names = append(names, name)
		}
	}
	return names
}

// Encoder writes response lines.
type Encoder struct {
	w   io.Writer
	buf bytes.Buffer
	enc *json.Encoder
}

// NewEncoder returns an Encoder writing to w. HTML escaping is off, so paths
// with <, > and & stay readable.
func NewEncoder(w io.Writer) *Encoder {
	e := &Encoder{w: w}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}

// Encode writes one line (json.Encoder ends it with '\n').
func (e *Encoder) Encode(l *Line) error {
	b, err := e.Marshal(l)
	if err != nil {
		return err
	}
	_, err = e.w.Write(b)
	return err
}

// Marshal returns the bytes Encode would write for l, without writing them;
// they are valid until the next call.
func (e *Encoder) Marshal(l *Line) ([]byte, error) {
	e.buf.Reset()
	if err := e.enc.Encode(l); err != nil {
		return nil, err
	}
	return e.buf.Bytes(), nil
}

// Write writes bytes Marshal returned.
func (e *Encoder) Write(b []byte) error {
	_, err := e.w.Write(b)
	return err
}

// ReadLine reads one request line without its '\n', keeping at most
// MaxLineBytes+1 bytes of it: a longer line is cut there, and the rest is
// read and dropped, so any line costs bounded memory. Every reader of
// request lines (the module, and hosts that read lines themselves) uses it,
// so an over-long line gets the same answer everywhere.
func ReadLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		chunk = bytes.TrimSuffix(chunk, []byte{'\n'})
		if room := MaxLineBytes + 1 - len(line); room > 0 {
			line = append(line, chunk[:min(room, len(chunk))]...)
		}
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}
