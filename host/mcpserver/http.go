package mcpserver

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions configure the streamable HTTP transport.
type HTTPOptions struct {
	// Token, if set, is required of every request as "Authorization:
	// Bearer <token>"; a request without it is refused with 401.
	Token string
	// Origins are origins ("https://app.example") allowed besides the
	// loopback ones. A request whose Origin header names any other is
	// refused with 403, as the MCP specification requires against DNS
	// rebinding; a request without an Origin (not from a browser) passes.
	Origins []string
	// SessionTimeout closes a session that has had no request for this
	// long (default 10 minutes): a client that goes away leaves nothing
	// held.
	SessionTimeout time.Duration
	// MaxSessions bounds the sessions held at once (default 64): a request
	// that would start another ends the session idle the longest (none of
	// its requests running; a listening GET stream is idle) to make room,
	// and is refused with 503 only while every session has a request
	// running (requests that start sessions at the same instant may each
	// pass the count).
	MaxSessions int
}

// HTTPHandler returns the server on MCP's streamable HTTP transport, with
// the Origin and token checks of o and its bounds on sessions. The SDK also
// refuses a request that reaches a loopback address under a name that is
// not local, and bounds a request's body (4 MiB). Serve it from an
// http.Server with a ReadTimeout, so a client that stalls a body is cut
// off (the rootbound command sets 30 s).
func (s *Server) HTTPHandler(o HTTPOptions) http.Handler {
	if o.SessionTimeout <= 0 {
		o.SessionTimeout = 10 * time.Minute
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = 64
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp },
		&mcp.StreamableHTTPOptions{SessionTimeout: o.SessionTimeout, MaxRequestBodyBytes: MaxFrameBytes})
	var act activity
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !allowedOrigin(origin, o.Origins) {
			http.Error(w, "rootbound: origin not allowed", http.StatusForbidden)
			return
		}
		if o.Token != "" {
			got := r.Header.Get("Authorization")
			if subtle.ConstantTimeCompare([]byte(got), []byte("Bearer "+o.Token)) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="rootbound"`)
				http.Error(w, "rootbound: a bearer token is required", http.StatusUnauthorized)
				return
			}
		}
		var body []byte
		if r.Method == http.MethodPost {
			// A body is held to the stdio transport's rules for a frame:
			// the SDK took a trailing NUL, two JSON values or bytes that
			// are not UTF-8 and answered the first value.
			var err error
			body, err = io.ReadAll(io.LimitReader(r.Body, MaxFrameBytes+1))
			if err != nil {
				http.Error(w, "rootbound: the request's body could not be read", http.StatusBadRequest)
				return
			}
			if fault, msg := checkFrame(body, false, "body"); fault != noFault {
				code := http.StatusBadRequest
				if fault == tooLongFault {
					code = http.StatusRequestEntityTooLarge
				}
				http.Error(w, "rootbound: "+msg, code)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		id := r.Header.Get("Mcp-Session-Id")
		if id == "" && r.Method == http.MethodPost {
			// Only sessions that were initialized count: a request that
			// starts none (a client's "server/discover" before its
			// initialize) holds one only while it runs, and the SDK ends
			// it after; counted, it refused the next client under load.
			var held []*mcp.ServerSession
			for ss := range s.mcp.Sessions() {
				if ss.InitializeParams() != nil {
					held = append(held, ss)
				}
			}
			if len(held) >= o.MaxSessions {
				idle := act.idlest(held)
				if idle == nil {
					w.Header().Set("Retry-After", "60")
					http.Error(w, fmt.Sprintf("rootbound: %d sessions are open, the most this server holds, and each has a request running; end one (DELETE) or retry", len(held)), http.StatusServiceUnavailable)
					return
				}
				idle.Close() // its client's next request is told the session is gone (404) and starts another
			}
		}
		switch {
		case r.Method == http.MethodGet: // a stream a client listens on: idle
		case r.Method == http.MethodPost && !hasCall(body):
			// Notifications or responses: the SDK answers 202 and returns,
			// and the client may send its next request before this
			// handler's end is counted (a busy machine made a session
			// initialized first look the most recent). Active now, and
			// nothing running.
			act.end(id, false, time.Now())
		default:
			act.start(id)
			arrived := time.Now()
			defer func() {
				if id != "" {
					act.end(id, true, time.Now())
					return
				}
				// A session started: nothing of it was counted running (its
				// id came with the answer), so its end takes nothing off,
				// and it is dated when the initialize came. This handler
				// may return after the client's next request arrived; a
				// request taken off then left the session looking idle.
				act.end(w.Header().Get("Mcp-Session-Id"), false, arrived)
			}()
		}
		h.ServeHTTP(w, r)
	})
}

// activity is what the HTTP handler knows of each session: when it last
// had a request and how many of its requests are running.
type activity struct {
	mu      sync.Mutex
	last    map[string]time.Time
	running map[string]int
}

func (a *activity) start(id string) {
	if id == "" {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.running == nil {
		a.running = map[string]int{}
	}
	a.running[id]++
}

// hasCall says whether a body holds a request to be answered (a method
// and an id), not only notifications or responses; a body it cannot read
// counts as one (the SDK says what is wrong with it).
func hasCall(body []byte) bool {
	type message struct {
		Method string          `json:"method"`
		ID     json.RawMessage `json:"id"`
	}
	call := func(m message) bool { return m.Method != "" && len(m.ID) > 0 }
	var one message
	if json.Unmarshal(body, &one) == nil {
		return call(one)
	}
	var batch []message
	if json.Unmarshal(body, &batch) != nil {
		return true
	}
	return slices.ContainsFunc(batch, call)
}

// end records a session's activity at a time: a request of it ended
// (ran), or a message that runs nothing came. A time before the one it
// holds changes nothing.
func (a *activity) end(id string, ran bool, at time.Time) {
	if id == "" {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.last == nil {
		a.last = map[string]time.Time{}
	}
	if ran && a.running[id] > 0 {
		a.running[id]--
	}
	if at.After(a.last[id]) {
		a.last[id] = at
	}
}

// idlest is the session of held with no request running whose last one
// ended the longest ago (nil if every one has a request running); it
// forgets sessions that are not held any more.
func (a *activity) idlest(held []*mcp.ServerSession) *mcp.ServerSession {
	a.mu.Lock()
	defer a.mu.Unlock()
	ids := map[string]bool{}
	var best *mcp.ServerSession
	var bestAt time.Time
	for _, ss := range held {
		id := ss.ID()
		ids[id] = true
		if a.running[id] > 0 {
			continue
		}
		if at := a.last[id]; best == nil || at.Before(bestAt) {
			best, bestAt = ss, at
		}
	}
	for id := range a.last {
		if !ids[id] {
			delete(a.last, id)
			delete(a.running, id)
		}
	}
	return best
}

// allowedOrigin reports whether origin is a loopback one (localhost,
// 127.0.0.0/8, ::1, any port) or one of allowed.
func allowedOrigin(origin string, allowed []string) bool {
	if slices.Contains(allowed, origin) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return Loopback(u.Hostname())
}

// Loopback reports whether host (a name or an address, without a port)
// is this machine's loopback.
func Loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
