// Driver: openai-go v3's Responses.NewStreaming, pointed at serve.
//
// openai_go BASE_URL PROMPT [completed|items]: two function tools (echo, which returns
// its text, and ping, which takes nothing), each request streamed; the SDK has no tool
// loop, so the loop is this driver's, written as the SDK's README shows: the output
// items are appended to the input with ToParam(), a function_call_output for each call,
// until a response has no call.  The SDK accumulates only WebSocket turns, and its
// docs show two ways to read a streamed turn's items, so the driver runs either:
// "completed" (the default) reads them from the response response.completed carries,
// "items" from the response.output_item.done events, in stream order.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

// run answers one call as the tool would; ping's answer tells serve it ran.
func run(call responses.ResponseFunctionToolCall) string {
	if call.Name == "ping" {
		return "responses-oracle-0"
	}
	var args struct{ Text string }
	if err := json.Unmarshal([]byte(call.Arguments), &args); err != nil {
		return "invalid arguments: " + err.Error()
	}
	return args.Text
}

func main() {
	client := openai.NewClient(option.WithBaseURL(os.Args[1]), option.WithMaxRetries(0))
	tools := []responses.ToolUnionParam{
		responses.ToolParamOfFunction("echo", map[string]any{"type": "object",
			"properties": map[string]any{"text": map[string]any{"type": "string"}},
			"required":   []string{"text"}, "additionalProperties": false}, true),
		responses.ToolParamOfFunction("ping", map[string]any{"type": "object",
			"properties": map[string]any{}, "additionalProperties": false}, true),
	}
	input := responses.ResponseInputParam{
		responses.ResponseInputItemParamOfMessage(os.Args[2], responses.EasyInputMessageRoleUser)}
	fromItems := len(os.Args) > 3 && os.Args[3] == "items"
	var final responses.Response
	for turn := 0; turn < 4; turn++ {
		stream := client.Responses.NewStreaming(context.Background(), responses.ResponseNewParams{
			Model: "gpt-5.1", Tools: tools,
			Input: responses.ResponseNewParamsInputUnion{OfInputItemList: input}})
		var done []responses.ResponseOutputItemUnion
		for stream.Next() {
			switch event := stream.Current(); event.Type {
			case "response.completed":
				final = event.Response
			case "response.output_item.done":
				done = append(done, event.Item)
			}
		}
		if err := stream.Err(); err != nil {
			fmt.Fprintln(os.Stderr, "Error:", err)
			os.Exit(1)
		}
		items := final.Output
		if fromItems {
			items = done
		}
		calls := 0
		for _, item := range items {
			switch item.Type {
			case "message":
				message := item.AsMessage().ToParam()
				input = append(input, responses.ResponseInputItemUnionParam{OfOutputMessage: &message})
			case "function_call":
				call := item.AsFunctionCall()
				replayed := call.ToParam()
				output := responses.ResponseInputItemFunctionCallOutputParam{CallID: openai.String(call.CallID),
					Output: responses.ResponseInputItemFunctionCallOutputOutputUnionParam{OfString: openai.String(run(call))}}
				input = append(input, responses.ResponseInputItemUnionParam{OfFunctionCall: &replayed},
					responses.ResponseInputItemUnionParam{OfFunctionCallOutput: &output})
				calls++
			}
		}
		if calls == 0 {
			break
		}
	}
	fmt.Println(final.OutputText())
}
