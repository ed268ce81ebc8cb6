package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxFrameBytes bounds one stdio frame (a line). A longer one is answered
// with a parse error and skipped; memory stays bounded whatever is sent.
const MaxFrameBytes = 4 << 20

// StdioTransport is MCP's stdio transport, a JSON-RPC message a line, that
// survives what a buggy or hostile client writes. The SDK's IOTransport
// decodes a stream, not lines: a frame that is not a JSON-RPC message (`{`,
// `[]`, an id that is an object, a byte order mark, NUL, two messages on
// one line) ends the session, and a truncated object swallows the lines
// after it. Here each line stands alone: malformed JSON gets a -32700
// reply, JSON that is not a request or notification -32600 (batches too:
// MCP dropped them), with the frame's id when one can be read and null
// otherwise, and the server reads on.
func StdioTransport(in io.Reader, out io.Writer) mcp.Transport {
	return &stdioTransport{in: in, out: out}
}

type stdioTransport struct {
	in  io.Reader
	out io.Writer
}

func (t *stdioTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &stdioConn{out: t.out, incoming: make(chan jsonrpc.Message), closed: make(chan struct{}), done: make(chan struct{})}
	go c.readLoop(t.in)
	return c, nil
}

type stdioConn struct {
	writeMu  sync.Mutex
	out      io.Writer
	incoming chan jsonrpc.Message
	err      error         // why reading ended, once done is closed
	done     chan struct{} // closed when reading ends
	closed   chan struct{}
	once     sync.Once
}

func (c *stdioConn) readLoop(in io.Reader) {
	defer close(c.done)
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readFrame(br)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if msg := c.decode(line, tooLong); msg != nil {
				select {
				case c.incoming <- msg:
				case <-c.closed:
					return
				}
			}
		}
		if err != nil {
			c.err = err
			return
		}
	}
}

// readFrame reads one line, keeping at most MaxFrameBytes of it.
func readFrame(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if room := MaxFrameBytes - len(line); room >= len(chunk) {
			line = append(line, chunk...)
		} else {
			tooLong = true
		}
		if err != bufio.ErrBufferFull {
			return bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r")), tooLong, err
		}
	}
}

// decode returns the message of a frame, or answers a bad frame itself
// and returns nil.
func (c *stdioConn) decode(line []byte, tooLong bool) jsonrpc.Message {
	reply := func(code int, msg string) jsonrpc.Message {
		c.writeError(frameID(line), code, msg)
		return nil
	}
	switch fault, msg := checkFrame(line, tooLong, "frame"); fault {
	case parseFault, tooLongFault:
		return reply(jsonrpc.CodeParseError, "Parse error: "+msg)
	case objectFault:
		return reply(jsonrpc.CodeInvalidRequest, "Invalid Request: "+msg)
	}
	if v := bytes.TrimSpace(line); v[0] != '{' {
		if v[0] == '[' {
			return reply(jsonrpc.CodeInvalidRequest, "Invalid Request: batches are not supported")
		}
		return reply(jsonrpc.CodeInvalidRequest, "Invalid Request: not a JSON object")
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return reply(jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error())
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "" {
		return reply(jsonrpc.CodeInvalidRequest, "Invalid Request: no method")
	}
	return msg
}

// A frameFault is what is wrong with a frame, by what answers it.
type frameFault int

const (
	noFault      frameFault = iota
	tooLongFault            // over MaxFrameBytes
	parseFault              // not UTF-8, or not one JSON value
	objectFault             // an object with a key twice, or no "jsonrpc": "2.0"
)

// checkFrame says what is wrong with a frame's bytes (what: "frame" on
// stdio, "body" over HTTP), the one rule both transports hold a message
// to before the SDK reads it; a value that is not an object is the
// caller's to judge.
func checkFrame(b []byte, tooLong bool, what string) (frameFault, string) {
	switch {
	case tooLong || len(b) > MaxFrameBytes:
		return tooLongFault, fmt.Sprintf("a %s longer than %d bytes", what, MaxFrameBytes)
	case !utf8.Valid(b):
		return parseFault, fmt.Sprintf("a %s that is not UTF-8", what)
	case !json.Valid(b):
		return parseFault, fmt.Sprintf("a %s that is not one JSON value", what)
	}
	if v := bytes.TrimSpace(b); v[0] == '{' {
		if err := oneObject(v); err != nil {
			return objectFault, err.Error()
		}
	}
	return noFault, ""
}

// oneObject refuses an object with a key twice at its top level or in
// its "params", and one whose "jsonrpc" is not "2.0".
func oneObject(line []byte) error {
	seen := false
	err := eachKey(line, func(key string, v json.RawMessage) error {
		switch key {
		case "jsonrpc":
			if seen = true; string(v) != `"2.0"` {
				return errors.New(`"jsonrpc" must be "2.0"`)
			}
		case "params":
			// A tool call's "name" or "arguments" given twice: the SDK
			// took one of them, and the call ran another tool than the
			// one a reader of the frame would see.
			if err := eachKey(v, nil); err != nil {
				return fmt.Errorf("params: %w", err)
			}
		}
		return nil
	})
	if err == nil && !seen {
		err = errors.New(`no "jsonrpc": "2.0"`)
	}
	return err
}

// eachKey hands each key of an object, if v is one, and its value to fn
// (when not nil), and refuses a key given twice.
func eachKey(v []byte, fn func(key string, v json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(v))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		if seen[key] {
			return fmt.Errorf("%q given twice", key)
		}
		seen[key] = true
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return err
		}
		if fn != nil {
			if err := fn(key, val); err != nil {
				return err
			}
		}
	}
	return nil
}

// frameID is a frame's id, when it is one a reply can carry (a string or
// a number), or null.
func frameID(line []byte) json.RawMessage {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &probe) == nil && len(probe.ID) > 0 {
		var s string
		var n float64
		if json.Unmarshal(probe.ID, &s) == nil || json.Unmarshal(probe.ID, &n) == nil {
			return probe.ID
		}
	}
	return json.RawMessage("null")
}

func (c *stdioConn) writeError(id json.RawMessage, code int, msg string) {
	line, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: int64(code), Message: msg}})
	c.writeLine(line)
}

func (c *stdioConn) writeLine(line []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.out.Write(append(line, '\n'))
	return err
}

func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case msg := <-c.incoming:
		return msg, nil
	case <-c.done:
		if c.err == nil || errors.Is(c.err, io.EOF) {
			return nil, io.EOF
		}
		return nil, c.err
	case <-c.closed:
		return nil, io.EOF
	}
}

func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

func (c *stdioConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

func (c *stdioConn) SessionID() string { return "" }
