// Command openai-agent hands rootbound's glob, grep, read and list to an OpenAI model
// through the Responses API, with strict function schemas
// (host.Tools.StrictSpecs: every property required, optional ones
// nullable), and runs the model's function calls until it answers.
//
//	OPENAI_API_KEY=... go run ./examples/openai-agent DIR "where is the config parsed?"
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/rootbound/rootbound/host"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: openai-agent DIR QUESTION (with OPENAI_API_KEY set)")
		os.Exit(2)
	}
	ctx := context.Background()
	r, err := host.NewRunner(ctx, host.NewConfig().WithRoot("/workspace", os.Args[1]))
	if err != nil {
		fmt.Fprintln(os.Stderr, "openai-agent:", err)
		os.Exit(1)
	}
	defer r.Close(ctx)
	tools := host.NewTools(r)
	client := openai.NewClient()
	params := responses.ResponseNewParams{
		Model: openai.ChatModelGPT5_2,
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String(os.Args[2])},
		Tools: toolParams(tools.StrictSpecs()),
	}
	for range 20 {
		resp, err := client.Responses.New(ctx, params)
		if err != nil {
			fmt.Fprintln(os.Stderr, "openai-agent:", err)
			os.Exit(1)
		}
		outputs := dispatch(ctx, tools, resp)
		if len(outputs) == 0 {
			fmt.Println(resp.OutputText())
			return
		}
		params.PreviousResponseID = openai.String(resp.ID)
		params.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: outputs}
	}
	fmt.Fprintln(os.Stderr, "openai-agent: no answer after 20 rounds")
	os.Exit(1)
}

// toolParams are the specs as strict function tools.
func toolParams(specs []host.ToolSpec) []responses.ToolUnionParam {
	var out []responses.ToolUnionParam
	for _, s := range specs {
		var schema map[string]any
		if err := json.Unmarshal(s.InputSchema, &schema); err != nil {
			panic(err)
		}
		out = append(out, responses.ToolUnionParam{OfFunction: &responses.FunctionToolParam{
			Name: s.Name, Description: openai.String(s.Description), Parameters: schema, Strict: openai.Bool(true),
		}})
	}
	return out
}

// dispatch runs the function calls of a response with the tools and
// returns their outputs, the input of the next request; none when the
// model called nothing.
func dispatch(ctx context.Context, tools *host.Tools, resp *responses.Response) []responses.ResponseInputItemUnionParam {
	var out []responses.ResponseInputItemUnionParam
	for _, item := range resp.Output {
		if item.Type != "function_call" {
			continue
		}
		call := item.AsFunctionCall()
		text, _ := tools.Call(ctx, call.Name, json.RawMessage(call.Arguments))
		out = append(out, responses.ResponseInputItemUnionParam{OfFunctionCallOutput: &responses.ResponseInputItemFunctionCallOutputParam{
			CallID: openai.String(call.CallID),
			Output: responses.ResponseInputItemFunctionCallOutputOutputUnionParam{OfString: openai.String(text)},
		}})
	}
	return out
}
