// Command go-agent is the smallest agent loop around rootbound: the host
// library's tool specs go to a model, the model's tool calls come back as
// JSON, host.Tools runs them, and the text each call returns is what the
// model reads next. The "model" here is scripted (it calls glob, then grep
// on what glob found, then read around the first line grep found, then list,
// then a grep with a bad pattern), so the loop runs anywhere, as a test too.
//
//	go run ./examples/go-agent [DIR]
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/rootbound/rootbound/host"
)

// Model is what an agent needs of a language model: given the tools and the
// conversation so far, the next tool call, or none when it is done.
type Model interface {
	Next(tools []host.ToolSpec, transcript []string) (call *ToolCall, done bool)
}

// ToolCall is a model's request to run one tool with JSON arguments.
type ToolCall struct {
	Name string
	Args json.RawMessage
}

// scripted plays a model that looks for Go files, then for TODOs in them,
// then reads the lines around the first TODO, as agents do: glob, grep,
// read.
type scripted struct{ step int }

func (m *scripted) Next(_ []host.ToolSpec, transcript []string) (*ToolCall, bool) {
	m.step++
	switch m.step {
	case 1:
		return &ToolCall{Name: "glob", Args: json.RawMessage(`{"pattern":"*.go","max_results":20}`)}, false
	case 2:
		return &ToolCall{Name: "grep", Args: json.RawMessage(`{"pattern":"TODO","glob":"*.go","output_mode":"content","max_results":10}`)}, false
	case 3:
		// The first result line of grep's answer, path:line:text: read
		// from two lines before it.
		if path, line, ok := firstHit(transcript[len(transcript)-1]); ok {
			args, _ := json.Marshal(map[string]any{"path": path, "offset": max(line-2, 1), "limit": 5})
			return &ToolCall{Name: "read", Args: args}, false
		}
		m.step++
		fallthrough
	case 4:
		return &ToolCall{Name: "list", Args: json.RawMessage(`{"depth":2}`)}, false
	case 5:
		return &ToolCall{Name: "grep", Args: json.RawMessage(`{"pattern":"(unclosed","path":"."}`)}, false
	}
	return nil, true
}

// firstHit finds the path and line number of the first result of a grep's
// content answer (its second line: the first says how many there are).
func firstHit(text string) (path string, line int, ok bool) {
	lines := strings.Split(text, "\n")
	if len(lines) < 2 {
		return "", 0, false
	}
	parts := strings.SplitN(lines[1], ":", 3)
	if len(parts) < 3 {
		return "", 0, false
	}
	n, err := strconv.Atoi(parts[1])
	return parts[0], n, err == nil
}

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	if err := run(context.Background(), dir, &scripted{}, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "go-agent:", err)
		os.Exit(1)
	}
}

// run is the agent loop.
func run(ctx context.Context, dir string, model Model, out io.Writer) error {
	r, err := host.NewRunner(ctx, host.NewConfig().WithRoot("/workspace", dir))
	if err != nil {
		return err
	}
	defer r.Close(ctx)
	tools := host.NewTools(r)
	var transcript []string
	for {
		call, done := model.Next(tools.Specs(), transcript)
		if done {
			return nil
		}
		text, _ := tools.Call(ctx, call.Name, call.Args)
		fmt.Fprintf(out, "> %s %s\n%s\n", call.Name, call.Args, text)
		transcript = append(transcript, text)
	}
}
