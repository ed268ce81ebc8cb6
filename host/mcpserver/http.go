package mcpserver

import (
	"crypto/subtle"
	"net"
	"net/http"
	"net/url"
	"slices"

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
}

// HTTPHandler returns the server on MCP's streamable HTTP transport, with
// the Origin and token checks of o. The SDK also refuses a request that
// reaches a loopback address under a name that is not local.
func (s *Server) HTTPHandler(o HTTPOptions) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, nil)
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
		h.ServeHTTP(w, r)
	})
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
