//lint:file-ignore SA1019 the tests act as clients with roots, which stay honoured through their deprecation window (SEP-2577)

package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/host/mcpserver"
	"github.com/rootbound/rootbound/internal/testtree"
	"github.com/rootbound/rootbound/protocol"
)

// goSrc is the Go tree every machine has: a search long enough to report
// progress and to be cancelled mid-way.
func goSrc(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "src")
}

// audits collects the server's audit records.
type audits struct {
	mu   sync.Mutex
	recs []host.AuditRecord
}

func (a *audits) add(r host.AuditRecord) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.recs = append(a.recs, r)
}

func (a *audits) all() []host.AuditRecord {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]host.AuditRecord(nil), a.recs...)
}

func newServer(t *testing.T, dir string, opts mcpserver.Options) *mcpserver.Server {
	t.Helper()
	s, err := mcpserver.New(context.Background(), host.NewConfig().WithRoot("/workspace", dir).WithRoot("/go", goSrc(t)), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

func connect(t *testing.T, s *mcpserver.Server, copts *mcp.ClientOptions, roots ...*mcp.Root) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := s.MCP().Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, copts)
	c.AddRoots(roots...)
	cs, err := c.Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestClient drives the server with the Go SDK's client in memory: the
// tools as host.Tools specs them, read-only; both called, with structured
// content beside the text; bad arguments as isError results; progress
// while the Go tree is searched; a call cancelled mid-way that ends with
// what it found; and client roots that narrow, never widen.
func TestClient(t *testing.T) {
	dir := testtree.New(t, map[string]string{"src/main.go": "package main\n// TODO: one\n", "docs/a.md": "TODO two\n",
		"src/link": "->../docs"})
	var log audits
	s := newServer(t, dir, mcpserver.Options{Audit: log.add})
	ctx := context.Background()

	var progressMu sync.Mutex
	var progress []*mcp.ProgressNotificationParams
	cs := connect(t, s, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
		progressMu.Lock()
		progress = append(progress, req.Params)
		progressMu.Unlock()
	}})

	t.Run("list", func(t *testing.T) {
		lt, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		specs := host.NewTools(nil).Specs()
		if len(lt.Tools) != len(specs) {
			t.Fatalf("%d tools, want %d", len(lt.Tools), len(specs))
		}
		byName := map[string]host.ToolSpec{}
		for _, s := range specs {
			byName[s.Name] = s
		}
		for i, tool := range lt.Tools {
			spec, ok := byName[tool.Name]
			if !ok || tool.Annotations == nil || !tool.Annotations.ReadOnlyHint || !tool.Annotations.IdempotentHint ||
				tool.Annotations.OpenWorldHint == nil || *tool.Annotations.OpenWorldHint || tool.OutputSchema == nil {
				t.Errorf("tool %d: %+v, annotations %+v", i, tool, tool.Annotations)
			}
			got, _ := json.Marshal(tool.InputSchema)
			var a, b any
			json.Unmarshal(got, &a)
			json.Unmarshal(spec.InputSchema, &b)
			if ga, _ := json.Marshal(a); string(ga) != mustJSON(b) {
				t.Errorf("%s: input schema differs from host.Tools'", tool.Name)
			}
		}
	})
	t.Run("roots", func(t *testing.T) {
		// An agent learns the roots' names and what each leaves out from the
		// instructions and a resource, never their host directories.
		want := "\"/workspace\": the default: a path that starts with no root's name is below it; ignore rules from " +
			"\"the host's default skips (node_modules/, __pycache__/, .venv/)\" (no_ignore turns them off)\n" +
			"\"/go\": ignore rules from \"the host's default skips (node_modules/, __pycache__/, .venv/)\" (no_ignore turns them off)\n"
		lr, err := cs.ListResources(ctx, nil)
		if err != nil || len(lr.Resources) != 1 || lr.Resources[0].URI != mcpserver.RootsURI {
			t.Fatalf("resources: %v %+v", err, lr)
		}
		rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcpserver.RootsURI})
		if err != nil || len(rr.Contents) != 1 || rr.Contents[0].Text != want {
			t.Fatalf("roots: %v %+v, want %q", err, rr, want)
		}
		init := cs.InitializeResult()
		if !strings.HasSuffix(init.Instructions, want) || strings.Contains(init.Instructions, dir) || strings.Contains(rr.Contents[0].Text, goSrc(t)) {
			t.Errorf("instructions %q: want the roots, by name only", init.Instructions)
		}
		// Every tool is named, with what it is for.
		for _, name := range protocol.ToolNames {
			if !strings.Contains("\n"+init.Instructions, "\n"+name+": ") {
				t.Errorf("instructions %q: want %s named", init.Instructions, name)
			}
		}
	})
	t.Run("call", func(t *testing.T) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "glob", Arguments: map[string]any{"pattern": "*.go"}})
		if err != nil || res.IsError || !strings.Contains(text(res), "src/main.go") {
			t.Fatalf("glob: %v %+v %q", err, res, text(res))
		}
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "grep", Arguments: map[string]any{"pattern": "TODO", "output_mode": "content"}})
		if err != nil || res.IsError || !strings.Contains(text(res), "src/main.go:2:// TODO: one") {
			t.Fatalf("grep: %v %q", err, text(res))
		}
		sc, _ := json.Marshal(res.StructuredContent)
		var st struct {
			Items []host.Item `json:"items"`
			Done  host.Done   `json:"done"`
		}
		if err := json.Unmarshal(sc, &st); err != nil || len(st.Items) != 2 || st.Done.Status != host.StatusComplete || len(st.Items[0].Submatches) != 1 {
			t.Fatalf("structured content %s: %v", sc, err)
		}
	})
	t.Run("bad arguments", func(t *testing.T) {
		for _, args := range []map[string]any{{}, {"pattern": 3}, {"pattern": "x", "max_results": 0}, {"pattern": "a("}, {"pattern": "x", "path": "../.."}, {"pattern": "x", "nope": true}} {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "grep", Arguments: args})
			if err != nil || !res.IsError || !strings.HasPrefix(text(res), "[Error (") {
				t.Errorf("%v: %v %+v %q", args, err, res, text(res))
			}
		}
		if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope", Arguments: map[string]any{}}); err == nil && !res.IsError {
			t.Errorf("an unknown tool answered %q", text(res))
		}
	})
	t.Run("progress", func(t *testing.T) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "grep", Meta: mcp.Meta{"progressToken": "p1"},
			Arguments: map[string]any{"pattern": "[a-z]{20,}", "path": "/go", "output_mode": "count", "max_results": 1000}})
		if err != nil || res.IsError {
			t.Fatalf("%v %q", err, text(res))
		}
		progressMu.Lock()
		defer progressMu.Unlock()
		if len(progress) == 0 || progress[0].ProgressToken != "p1" || !strings.Contains(progress[0].Message, "files searched") {
			t.Fatalf("progress: %+v", progress)
		}
		for i := 1; i < len(progress); i++ {
			if progress[i].Progress < progress[i-1].Progress {
				t.Errorf("progress went back: %v then %v", progress[i-1].Progress, progress[i].Progress)
			}
		}
	})
	t.Run("cancel", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		got := make(chan struct{})
		cs2 := connect(t, s, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			if strings.Contains(req.Params.Message, " 0 results") {
				return
			}
			select {
			case got <- struct{}{}:
			default:
			}
		}})
		go func() {
			<-got
			cancel()
		}()
		_, err := cs2.CallTool(cctx, &mcp.CallToolParams{Name: "grep", Meta: mcp.Meta{"progressToken": "c1"},
			Arguments: map[string]any{"pattern": "[a-z]{20,}", "path": "/go", "max_results": 1000}})
		if err == nil {
			t.Fatal("the cancelled call answered")
		}
		// The server ends the call with what it found: its audit says so.
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			for _, a := range log.all() {
				if a.Code == host.CodeCancelled {
					if a.Status != host.StatusPartial || a.Results == 0 {
						t.Fatalf("cancelled call: %s", a)
					}
					return
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("no cancelled call in the audit: %v", log.all())
	})
	t.Run("roots narrow", func(t *testing.T) {
		cs3 := connect(t, s, nil, &mcp.Root{URI: "file://" + filepath.Join(dir, "src")}, &mcp.Root{URI: "file:///etc"})
		res, err := cs3.CallTool(ctx, &mcp.CallToolParams{Name: "grep", Arguments: map[string]any{"pattern": "TODO"}})
		if err != nil || !res.IsError || !strings.Contains(text(res), "(denied)") {
			t.Fatalf("the whole root, past the client's roots: %v %q", err, text(res))
		}
		res, err = cs3.CallTool(ctx, &mcp.CallToolParams{Name: "grep", Arguments: map[string]any{"pattern": "TODO", "path": "src"}})
		if err != nil || res.IsError || !strings.Contains(text(res), "src/main.go") {
			t.Fatalf("inside the client's roots: %v %q", err, text(res))
		}
		// A link inside a client root to a directory outside it is not
		// followed: the path is refused, what it names never read.
		res, err = cs3.CallTool(ctx, &mcp.CallToolParams{Name: "grep", Arguments: map[string]any{"pattern": "TODO", "path": "src/link/a.md"}})
		if err != nil || !res.IsError || !strings.Contains(text(res), "(symlink)") || strings.Contains(text(res), "TODO two") {
			t.Fatalf("through a link out of the client's roots: %v %q", err, text(res))
		}
		// /etc is a client root: it still reaches nothing outside the
		// configured roots, since the module cannot.
		res, err = cs3.CallTool(ctx, &mcp.CallToolParams{Name: "grep", Arguments: map[string]any{"pattern": "x", "path": "/etc"}})
		if err != nil || !res.IsError || !strings.Contains(text(res), "outside_root") {
			t.Fatalf("outside the configured roots: %v %q", err, text(res))
		}
	})
	for _, a := range log.all() {
		if s := a.String(); strings.Contains(s, "\n") || !strings.HasPrefix(s, a.Tool+" ") {
			t.Errorf("audit line %q", s)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// bearer adds a token to each request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// TestHTTP: over streamable HTTP the Go SDK's client lists and calls the
// tools with the token; a request with a foreign Origin is refused, and so
// is one without the token.
func TestHTTP(t *testing.T) {
	dir := testtree.New(t, map[string]string{"a.go": "package a // TODO\n"})
	s := newServer(t, dir, mcpserver.Options{})
	ts := httptest.NewServer(s.HTTPHandler(mcpserver.HTTPOptions{Token: "s3cret"}))
	defer ts.Close()
	ctx := context.Background()

	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: &http.Client{Transport: bearer{"s3cret", http.DefaultTransport}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if lt, err := cs.ListTools(ctx, nil); err != nil || len(lt.Tools) != len(protocol.ToolNames) {
		t.Fatalf("list: %v", err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "grep", Arguments: map[string]any{"pattern": "TODO", "output_mode": "content"}})
	if err != nil || res.IsError || !strings.Contains(text(res), "a.go:1:package a // TODO") {
		t.Fatalf("grep: %v %q", err, text(res))
	}

	post := func(origin, auth string) int {
		return postBody(t, ts.URL, origin, auth, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	}
	// A body is one JSON value of UTF-8, as a stdio frame is; the SDK
	// answered the first value of each of these (an initialize, which it
	// takes without a session).
	initialize := func(name string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"` + name + `","version":"1"}}}`
	}
	for _, tc := range []struct {
		name, body string
		want       int
	}{
		{"well formed", initialize("t"), http.StatusOK},
		{"a trailing NUL", initialize("t") + "\x00", http.StatusBadRequest},
		{"two JSON values", initialize("t") + initialize("u"), http.StatusBadRequest},
		{"not UTF-8", initialize("\xff"), http.StatusBadRequest},
		{"a key twice", strings.Replace(initialize("t"), `"id":1,`, `"id":1,"id":2,`, 1), http.StatusBadRequest},
		{"a key of params twice", strings.Replace(initialize("t"), `"capabilities":{},`, `"capabilities":{},"capabilities":{},`, 1), http.StatusBadRequest},
	} {
		if got := postBody(t, ts.URL, "", "Bearer s3cret", tc.body); got != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, got, tc.want)
		}
	}
	for _, tc := range []struct {
		name, origin, auth string
		want               int
	}{
		{"foreign origin", "https://evil.example", "Bearer s3cret", http.StatusForbidden},
		{"foreign origin posing as local", "http://localhost.evil.example:8080", "Bearer s3cret", http.StatusForbidden},
		{"no token", "", "", http.StatusUnauthorized},
		{"wrong token", "http://localhost:3000", "Bearer nope", http.StatusUnauthorized},
	} {
		if got := post(tc.origin, tc.auth); got != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, got, tc.want)
		}
	}
	if got := post("http://127.0.0.1:3000", "Bearer s3cret"); got == http.StatusForbidden || got == http.StatusUnauthorized {
		t.Errorf("a loopback origin with the token: status %d", got)
	}
}

// TestHTTPSessions: a session past MaxSessions ends the one idle the
// longest (whose client is then told its session is gone), not the others,
// and an idle one expires by itself. (With 64 held, every new initialize
// was refused with 503 until one expired, 10 minutes later.)
func TestHTTPSessions(t *testing.T) {
	dir := testtree.New(t, map[string]string{"a.go": "package a\n"})
	s := newServer(t, dir, mcpserver.Options{})
	ts := httptest.NewServer(s.HTTPHandler(mcpserver.HTTPOptions{MaxSessions: 2, SessionTimeout: time.Minute}))
	defer ts.Close()
	ctx := context.Background()
	connect := func() *mcp.ClientSession {
		t.Helper()
		c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
		cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	first, second := connect(), connect()
	if _, err := first.ListTools(ctx, nil); err != nil { // first is now the more recent
		t.Fatal(err)
	}
	third := connect()
	if _, err := second.ListTools(ctx, nil); err == nil {
		t.Error("the session idle the longest still answers after a third started past MaxSessions 2")
	}
	for i, cs := range []*mcp.ClientSession{first, third} {
		if _, err := cs.ListTools(ctx, nil); err != nil {
			t.Errorf("session %d: %v", i, err)
		}
	}

	expiring := httptest.NewServer(s.HTTPHandler(mcpserver.HTTPOptions{MaxSessions: 2, SessionTimeout: 300 * time.Millisecond}))
	defer expiring.Close()
	ts = expiring
	idle := connect()
	time.Sleep(600 * time.Millisecond) // idle past the timeout
	if _, err := idle.ListTools(ctx, nil); err == nil {
		t.Error("a session idle past SessionTimeout still answers")
	}
}

// postBody posts body to url with the origin and Authorization given, and
// returns the status.
func postBody(t *testing.T, url, origin, auth, body string) int {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
