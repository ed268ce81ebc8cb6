// Package mcpserver serves a Runner's tools (glob, grep, read, list, stat) over the Model Context
// Protocol, on the official Go SDK: the very tool specs host.Tools hands to
// Go agents (one source, held to the WIT), read-only annotations, the text
// an agent reads beside structured content, progress while a search runs,
// cancellation, and client roots that can only narrow the configured ones.
// Every call goes through Tools.Prepare and Prepared.Run, so the read guard
// and the audit see MCP calls as they see any other.
//lint:file-ignore SA1019 a client's roots stay honoured through their deprecation window (SEP-2577); the roots resource is what replaces them

package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootbound/rootbound/host"
)

// Options configure a Server. The zero value is the default.
type Options struct {
	// Version is the implementation version the server reports.
	Version string
	// Guard, if set, is consulted before every call, after the client's
	// roots (host.ReadGuard).
	Guard host.ReadGuard
	// Audit, if set, receives a record of every call (host.AuditRecord).
	Audit func(host.AuditRecord)
	// RootsTimeout bounds the wait for a client's roots (default 2 s); a
	// client that does not answer in time leaves the configured roots as
	// they are.
	RootsTimeout time.Duration
	// ProgressEvery is the least time between two progress notifications
	// (default 100 ms).
	ProgressEvery time.Duration
}

// Server is an MCP server of the tools over one Runner.
type Server struct {
	mcp    *mcp.Server
	runner *host.Runner
	tools  *host.Tools
	opts   Options

	mu    sync.Mutex
	roots map[*mcp.ServerSession]*clientRoots // by session, while it lives
}

// clientRoots are a client's roots as host directories, and whether they
// narrow the configured roots (a client that lists none leaves them).
type clientRoots struct {
	narrow bool
	dirs   []string
}

type rootsKey struct{}

// RootsURI is the resource that lists the roots (host.RootsText): an agent
// learns their names from it, as the reference filesystem server's
// list_allowed_directories tells them.
const RootsURI = "rootbound://roots"

// New makes a Runner from cfg (with the server's read guard and audit) and
// the MCP server of its tools. The Runner starts in the background
// (host.Config.WithLazyStart): a client's initialize, its lists of tools
// and resources, are answered while the module compiles, and its first
// call waits for it.
func New(ctx context.Context, cfg host.Config, opts Options) (*Server, error) {
	if opts.RootsTimeout <= 0 {
		opts.RootsTimeout = 2 * time.Second
	}
	if opts.ProgressEvery <= 0 {
		opts.ProgressEvery = 100 * time.Millisecond
	}
	s := &Server{opts: opts, roots: map[*mcp.ServerSession]*clientRoots{}}
	cfg = cfg.WithReadGuard(s.guard).WithLazyStart(true)
	if opts.Audit != nil {
		cfg = cfg.WithAudit(opts.Audit)
	}
	r, err := host.NewRunner(ctx, cfg)
	if err != nil {
		return nil, err
	}
	s.runner, s.tools = r, host.NewTools(r)
	version := opts.Version
	if version == "" {
		version = "dev"
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "rootbound", Title: "rootbound: find, search and read files in a sandbox", Version: version},
		&mcp.ServerOptions{
			Instructions: instructions(s.tools, host.RootsText(r.Roots())),
			RootsListChangedHandler: func(_ context.Context, req *mcp.RootsListChangedRequest) {
				s.mu.Lock()
				delete(s.roots, req.Session) // asked again at the next call
				s.mu.Unlock()
			},
		})
	s.mcp.AddResource(&mcp.Resource{URI: RootsURI, Name: "roots", Title: "The roots: their names, and what each one's policy leaves out",
		MIMEType: "text/plain"}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: RootsURI, MIMEType: "text/plain", Text: host.RootsText(r.Roots())}}}, nil
	})
	no := false
	for _, spec := range s.tools.Specs() {
		s.mcp.AddTool(&mcp.Tool{
			Name:         spec.Name,
			Description:  spec.Description,
			InputSchema:  spec.InputSchema,
			OutputSchema: json.RawMessage(outputSchema),
			Annotations: &mcp.ToolAnnotations{Title: spec.Name, ReadOnlyHint: true, IdempotentHint: true,
				OpenWorldHint: &no, DestructiveHint: &no},
		}, s.handler(spec.Name))
	}
	return s, nil
}

// MCP returns the SDK's server, to run on a transport.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Close closes the Runner.
func (s *Server) Close(ctx context.Context) error { return s.runner.Close(ctx) }

// handler runs a tool call through Tools.Call: a bad argument is a result
// with isError and the typed text; the client's roots and the guard are
// consulted before it reads (Prepared.Run); progress goes to the client
// when it sent a token.
func (s *Server) handler(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := req.Params.Arguments
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		dirs, narrow, ask := s.rootsFor(ctx, req)
		if ask {
			// A session on protocol 2026-07-28 or later: the client is
			// asked for its roots in the result, and calls again with them.
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{rootsInput: &mcp.ListRootsParams{}}}, nil
		}
		if narrow {
			ctx = context.WithValue(ctx, rootsKey{}, dirs)
		}
		if token := req.Params.GetProgressToken(); token != nil {
			ctx = host.WithProgress(ctx, s.opts.ProgressEvery, func(pr host.Progress) {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token,
					Progress:      float64(pr.Entries),
					Message:       fmt.Sprintf("%d entries visited, %d files searched, %d results so far", pr.Entries, pr.FilesRead, pr.Results),
				})
			})
		}
		_, res := s.tools.Call(ctx, name, args)
		return toolResult(res), nil
	}
}

// toolResult is a Result as a tool result: the text an agent reads, the
// same answer as structured content, and isError for a call that did not
// run (a partial answer is a result: its text says why it stopped).
func toolResult(res *host.Result) *mcp.CallToolResult {
	out := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Text()}}}
	if res.Done.Status == host.StatusFailed {
		out.IsError = true
		return out
	}
	items := res.Items
	if items == nil {
		items = []host.Item{}
	}
	problems := res.Problems
	if problems == nil {
		problems = []host.Problem{}
	}
	out.StructuredContent = structured{Items: items, Problems: problems, Done: res.Done}
	return out
}

type structured struct {
	Items    []host.Item    `json:"items"`
	Problems []host.Problem `json:"problems"`
	Done     host.Done      `json:"done"`
}

// guard lets a call read only inside the client's roots, when the client
// has said some: they narrow the configured roots (the module cannot read
// past those whatever they say), never widen them. Then Options.Guard.
func (s *Server) guard(ctx context.Context, tool string, reads []host.Read) error {
	if dirs, ok := ctx.Value(rootsKey{}).([]string); ok {
		for _, rd := range reads {
			if !inside(rd.Dir, dirs) {
				return fmt.Errorf("%s is outside the client's roots", rd)
			}
		}
	}
	if s.opts.Guard != nil {
		return s.opts.Guard(ctx, tool, reads)
	}
	return nil
}

// rootsInput names the roots request in a result that asks for input.
const rootsInput = "roots"

// rootsFor returns the client's roots for a call, as host directories, and
// whether they narrow the configured ones: not when the client has no roots
// capability, lists none (the Go SDK's client declares roots and lists none
// by default), or does not answer within RootsTimeout. A client's roots are
// asked once per session, and again after it says they changed: directly
// on protocols before 2026-07-28; from then on, where a server may no
// longer send requests of its own, in the call's result (ask), and the
// client calls again with them.
func (s *Server) rootsFor(ctx context.Context, req *mcp.CallToolRequest) (dirs []string, narrow, ask bool) {
	ss := req.Session
	ip := ss.InitializeParams()
	if ip == nil || ip.Capabilities == nil || ip.Capabilities.RootsV2 == nil {
		return nil, false, false
	}
	if lr, ok := req.Params.InputResponses[rootsInput].(*mcp.ListRootsResult); ok {
		cr := s.remember(ss, lr)
		return cr.dirs, cr.narrow, false
	}
	s.mu.Lock()
	cr := s.roots[ss]
	s.mu.Unlock()
	if cr != nil {
		return cr.dirs, cr.narrow, false
	}
	if ip.ProtocolVersion >= "2026-07-28" {
		return nil, false, true
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.RootsTimeout)
	defer cancel()
	lr, err := ss.ListRoots(ctx, nil)
	if err != nil {
		return nil, false, false // as configured; asked again at the next call
	}
	cr = s.remember(ss, lr)
	return cr.dirs, cr.narrow, false
}

// remember keeps a session's roots as host directories.
func (s *Server) remember(ss *mcp.ServerSession, lr *mcp.ListRootsResult) *clientRoots {
	cr := &clientRoots{narrow: len(lr.Roots) > 0, dirs: []string{}}
	for _, r := range lr.Roots {
		u, err := url.Parse(r.URI)
		if err != nil || u.Scheme != "file" || !filepath.IsAbs(u.Path) {
			continue // not a directory on this machine: grants nothing
		}
		cr.dirs = append(cr.dirs, filepath.Clean(u.Path))
	}
	s.mu.Lock()
	s.roots[ss] = cr
	s.mu.Unlock()
	return cr
}

// inside reports whether dir is one of dirs or below one.
func inside(dir string, dirs []string) bool {
	for _, d := range dirs {
		if dir == d || strings.HasPrefix(dir, strings.TrimSuffix(d, string(filepath.Separator))+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// outputSchema describes the structured content of a result: the items
// (paths and lines as {"text"} or, when not UTF-8, {"bytes"}), the paths
// that could not be read, and how the call ended.
const outputSchema = `{
  "type": "object",
  "properties": {
    "items": {"type": "array", "items": {"type": "object", "properties": {
      "path": {"type": "object"},
      "line_number": {"type": "integer"},
      "text": {"type": "object"},
      "submatches": {"type": "array", "items": {"type": "object", "properties": {"start": {"type": "integer"}, "end": {"type": "integer"}}}},
      "break": {"type": "boolean"},
      "context": {"type": "boolean"},
      "count": {"type": "integer"},
      "kind": {"type": "string", "enum": ["file", "directory", "symlink"]},
      "size": {"type": "integer"}
    }, "required": ["path"]}},
    "problems": {"type": "array", "items": {"type": "object"}},
    "done": {"type": "object", "properties": {
      "status": {"type": "string", "enum": ["complete", "partial", "failed"]},
      "results": {"type": "integer"},
      "truncated": {"type": "boolean"},
      "capped": {"type": "boolean"},
      "next_offset": {"type": "integer"},
      "lines": {"type": "integer"}
    }, "required": ["status", "results", "truncated"]}
  },
  "required": ["items", "problems", "done"]
}`

// instructions names every tool with what it is for (the first sentence
// of its description), then the roots.
func instructions(t *host.Tools, roots string) string {
	var b strings.Builder
	for _, s := range t.Specs() {
		first, _, _ := strings.Cut(s.Description, ". ")
		fmt.Fprintf(&b, "%s: %s.\n", s.Name, strings.TrimSuffix(first, "."))
	}
	b.WriteString("All only read, only below these roots (the resource " + RootsURI + " lists them too):\n" + roots)
	return b.String()
}
