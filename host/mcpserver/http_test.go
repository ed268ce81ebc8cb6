package mcpserver

import (
	"testing"
	"time"
)

// TestHasCall: only a body with a request to be answered keeps its
// session running; notifications and responses count as activity at once.
func TestHasCall(t *testing.T) {
	for _, tt := range []struct {
		name string
		body string
		want bool
	}{
		{name: "a request", body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, want: true},
		{name: "a request with a string id", body: `{"jsonrpc":"2.0","id":"a","method":"tools/list"}`, want: true},
		{name: "a notification", body: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, want: false},
		{name: "a response", body: `{"jsonrpc":"2.0","id":3,"result":{}}`, want: false},
		{name: "a batch of notifications", body: `[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}]`, want: false},
		{name: "a batch with a request", body: `[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":2,"method":"b"}]`, want: true},
		{name: "not JSON", body: `{`, want: true},
	} {
		if got := hasCall([]byte(tt.body)); got != tt.want {
			t.Errorf("%s: hasCall = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestActivityLate: a session's activity is when it happened, not when it
// was recorded, and the end of its initialize (which started nothing
// running) does not end the request that came after it. Both were
// recorded late on a busy machine: the handler of a session's initialize
// may return after the client's next request arrived.
func TestActivityLate(t *testing.T) {
	var a activity
	t0 := time.Now()
	a.start("first")          // first's next request, running
	a.end("first", false, t0) // first's initialize, recorded late
	if a.running["first"] != 1 {
		t.Errorf("first has %d requests running after its initialize ended, want 1", a.running["first"])
	}
	a.end("second", false, t0.Add(time.Second))  // second's initialize
	a.end("first", true, t0.Add(3*time.Second))  // first's request ended
	a.end("second", false, t0.Add(-time.Second)) // an earlier time changes nothing
	if !a.last["second"].Equal(t0.Add(time.Second)) || !a.last["second"].Before(a.last["first"]) {
		t.Errorf("second's activity %v, first's %v: want second's initialize, before first's request", a.last["second"].Sub(t0), a.last["first"].Sub(t0))
	}
}
