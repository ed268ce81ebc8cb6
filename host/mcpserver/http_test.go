package mcpserver

import "testing"

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
