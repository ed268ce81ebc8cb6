// Command anthropic-agent hands rootbound's glob, grep, read and list to a Claude model
// through the Messages API and runs the model's tool calls until it
// answers.
//
//	ANTHROPIC_API_KEY=... go run ./examples/anthropic-agent DIR "where is the config parsed?"
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/rootbound/rootbound/host"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: anthropic-agent DIR QUESTION (with ANTHROPIC_API_KEY set)")
		os.Exit(2)
	}
	ctx := context.Background()
	r, err := host.NewRunner(ctx, host.NewConfig().WithRoot("/workspace", os.Args[1]))
	if err != nil {
		fmt.Fprintln(os.Stderr, "anthropic-agent:", err)
		os.Exit(1)
	}
	defer r.Close(ctx)
	tools := host.NewTools(r)
	client := anthropic.NewClient()
	messages := []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(os.Args[2]))}
	for range 20 {
		msg, err := client.Messages.New(ctx, anthropic.MessageNewParams{
			Model: anthropic.ModelClaudeSonnet5, MaxTokens: 4096, Messages: messages, Tools: toolParams(tools.Specs()),
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "anthropic-agent:", err)
			os.Exit(1)
		}
		messages = append(messages, msg.ToParam())
		results := dispatch(ctx, tools, msg)
		if len(results) == 0 {
			for _, block := range msg.Content {
				if block.Type == "text" {
					fmt.Println(block.Text)
				}
			}
			return
		}
		messages = append(messages, anthropic.NewUserMessage(results...))
	}
	fmt.Fprintln(os.Stderr, "anthropic-agent: no answer after 20 rounds")
	os.Exit(1)
}

// toolParams are the specs as Claude tools.
func toolParams(specs []host.ToolSpec) []anthropic.ToolUnionParam {
	var out []anthropic.ToolUnionParam
	for _, s := range specs {
		var schema struct {
			Properties map[string]any `json:"properties"`
			Required   []string       `json:"required"`
		}
		if err := json.Unmarshal(s.InputSchema, &schema); err != nil {
			panic(err)
		}
		out = append(out, anthropic.ToolUnionParam{OfTool: &anthropic.ToolParam{
			Name: s.Name, Description: anthropic.String(s.Description),
			InputSchema: anthropic.ToolInputSchemaParam{Properties: schema.Properties, Required: schema.Required,
				ExtraFields: map[string]any{"additionalProperties": false}},
		}})
	}
	return out
}

// dispatch runs the tool_use blocks of a message with the tools and returns
// their tool_result blocks (is_error for a call that did not run), the
// next user message; none when the model called nothing.
func dispatch(ctx context.Context, tools *host.Tools, msg *anthropic.Message) []anthropic.ContentBlockParamUnion {
	var out []anthropic.ContentBlockParamUnion
	for _, block := range msg.Content {
		if block.Type != "tool_use" {
			continue
		}
		use := block.AsToolUse()
		text, res := tools.Call(ctx, use.Name, use.Input)
		out = append(out, anthropic.NewToolResultBlock(use.ID, text, res.Done.Status == host.StatusFailed))
	}
	return out
}
