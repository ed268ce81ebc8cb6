package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rootbound/rootbound/internal/testtree"
)

// mcpBattery is 66 frames a buggy or hostile client might write on
// `rootbound mcp`'s stdin. None may end the server: after each, a ping
// must be answered.
func mcpBattery() []string {
	ping := func(id string) string { return `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}` }
	call := func(id, params string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + params + `}`
	}
	return []string{
		`{`, `}`, `{}`, `[]`, `[{}]`, `[` + ping("1") + `]`, `[` + ping("2") + `,` + ping("3") + `]`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, `{"jsonrpc":"2.0","id":[1],"method":"ping"}`,
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`, `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`1e400`, `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, "\xef\xbb\xbf" + ping("4"), "\x00", "\x00" + ping("5"),
		strings.Repeat("[", 100_000), strings.Repeat(`{"a":`, 20_000) + "1" + strings.Repeat("}", 20_000),
		ping("6") + ping("7"), ping("8") + " " + ping("9"), `{"jsonrpc":"2.0","id":10,"method":"pi`,
		`null`, `true`, `false`, `"ping"`, `123`, `-`, `{"jsonrpc":"2.0"}`,
		`{"id":11,"method":"ping"}`, `{"jsonrpc":"1.0","id":12,"method":"ping"}`, `{"jsonrpc":2,"id":13,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":14,"method":7}`, `{"jsonrpc":"2.0","id":15,"method":null}`, `{"jsonrpc":"2.0","id":16}`,
		`{"jsonrpc":"2.0","id":17,"method":"no/such/method"}`, `{"jsonrpc":"2.0","id":18,"result":{}}`,
		`{"jsonrpc":"2.0","id":19,"error":{"code":1,"message":"x"}}`,
		call("20", `"notobject"`), call("21", `{"name":"grep","arguments":"x"}`), call("22", `{"name":"nope","arguments":{}}`),
		call("23", `{"name":"grep"}`), call("24", `{"name":"grep","arguments":{"pattern":"\ud800"}}`),
		call("25", `{"name":"grep","arguments":{"pattern":"x","pattern":"y"}}`), call("26", `[]`),
		"{\"jsonrpc\":\"2.0\",\"id\":27,\"method\":\"ping\",\"params\":\"\xff\xfe\"}", `{"jsonrpc":"2.0","id":"` + strings.Repeat("i", 1<<20) + `","method":"ping"}`,
		`{"jsonrpc":"2.0","id":28,"method":"ping","params":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"x":1}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}`, `{"jsonrpc":"2.0","method":"notifications/roots/list_changed","params":[1]}`,
		`{"jsonrpc":"2.0","id":29,"method":"initialize","params":{}}`, `{"jsonrpc":"2.0","id":30,"method":"initialize","params":null}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`, `{"jsonrpc":"2.0","id":"","method":"ping"}`,
		`{"jsonrpc":"2.0","id":31,"method":"ping",}`, `{'jsonrpc':'2.0','id':32,'method':'ping'}`, `{"jsonrpc":"2.0","id":33,"method":"ping"} x`,
		"\t\t", `{"jsonrpc":"2.0","id":34,"method":"tools/list","params":{"cursor":7}}`,
		`{"jsonrpc":"2.0","id":35,"method":"ping","params":{"_meta":{"progressToken":{"a":1}}}}`,
		strings.Repeat("x", 8<<20), "\x1b[2J" + ping("36"), ping(`"37"`) + "\r",
		call("38", `{"name":"glob","arguments":{"pattern":"*","max_results":1e400}}`),
		// A tool's name or arguments twice: a reader sees one call, the
		// SDK would run the other.
		call("39", `{"name":"list","name":"grep","arguments":{"pattern":"package"}}`),
		call("40", `{"name":"grep","arguments":{"pattern":"zzz"},"arguments":{"pattern":"package"}}`),
	}
}

// TestMCPBattery writes each frame of mcpBattery to `rootbound mcp` on
// stdio, then a ping: every ping is answered, malformed JSON gets a
// -32700 reply and a frame that is not a request -32600 (neither ends the
// server), and the server exits 0 when its stdin closes.
func TestMCPBattery(t *testing.T) {
	dir := testtree.New(t, map[string]string{"a.go": "package a\n"})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		code := run([]string{"mcp", "--root", "/workspace=" + dir}, inR, outW, &stderr)
		outW.Close()
		done <- code
	}()
	lines := make(chan string, 1024)
	go func() {
		br := bufio.NewReaderSize(outR, 1<<20)
		for {
			l, err := br.ReadString('\n')
			if l != "" {
				lines <- l
			}
			if err != nil {
				close(lines)
				return
			}
		}
	}()
	write := func(s string) {
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatalf("write: %v (exit %v: %s)", err, <-done, stderr.String())
		}
	}
	// wait reads lines until one holds want; it returns what came before.
	wait := func(want string) ([]string, bool) {
		var seen []string
		timer := time.NewTimer(5 * time.Second)
		defer timer.Stop()
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					return seen, false
				}
				if strings.Contains(l, want) {
					return seen, true
				}
				seen = append(seen, l)
			case <-timer.C:
				return seen, false
			}
		}
	}
	write(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"battery","version":"1"}}}`)
	if _, ok := wait(`"id":"init"`); !ok {
		t.Fatalf("no answer to initialize: %s", stderr.String())
	}
	write(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	battery := mcpBattery()
	if len(battery) != 66 {
		t.Errorf("%d frames, want 66", len(battery))
	}
	// Replies some frames must get, by the frame's index.
	wantReply := map[int]string{0: `"code":-32700`, 3: `"code":-32600`, 5: `"code":-32600`, 7: `"code":-32600`,
		11: `"code":-32600`, 14: `"code":-32700`, 18: `"code":-32700`, 20: `"code":-32700`, 21: `"code":-32600`,
		64: `"code":-32600`, 65: `"code":-32600`}
	answered := 0
	for i, frame := range battery {
		write(frame)
		id := fmt.Sprintf(`"alive-%d"`, i)
		write(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		before, ok := wait(`"id":` + id)
		if !ok {
			t.Fatalf("frame %d (%.60q): the server stopped answering (stderr %s)", i, frame, stderr.String())
		}
		answered++
		if want, ok := wantReply[i]; ok && !strings.Contains(strings.Join(before, ""), want) {
			t.Errorf("frame %d (%.60q): no %s reply, got %q", i, frame, want, before)
		}
		for _, l := range before {
			if strings.Contains(l, `"code":-32700`) || strings.Contains(l, `"code":-32600`) {
				if !strings.Contains(l, `"jsonrpc":"2.0"`) {
					t.Errorf("frame %d: error reply %q is not JSON-RPC", i, l)
				}
			}
		}
	}
	inW.Close()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d: %s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Error("the server did not exit when its stdin closed")
	}
	t.Logf("%d of %d frames followed by an answered ping", answered, len(battery))
}
