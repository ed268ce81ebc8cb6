package np

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/guest/protocol"
	"github.com/rootbound/rootbound/guest/server"
)

func BenchmarkNative(b *testing.B) {
	out, _ := exec.Command("go", "env", "GOROOT").Output()
	tree := strings.TrimSpace(string(out))
	s, _ := server.New([]server.Root{{Name: "/go", Dir: tree}})
	for _, a := range []*protocol.GrepArgs{
		{Pattern: "return", OutputMode: "content", MaxResults: 1000000},
	} {
		b.Run(a.Pattern, func(b *testing.B) {
			line, _ := json.Marshal(protocol.Request{V: 1, ID: "1", Grep: a})
			for i := 0; i < b.N; i++ {
				s.Serve(bytes.NewReader(append(line, '\n')), io.Discard)
			}
		})
	}
}
