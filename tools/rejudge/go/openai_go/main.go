// openai-go: Responses.NewStreaming with two function tools; the SDK has no tool loop,
// so this is the README's loop.  Mode "completed" reads the turn's items from the
// response.completed event (as FinalResponse does), "items" from the
// response.output_item.done events.  BASE_URL from the environment.
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

func main() {
	client := openai.NewClient(option.WithBaseURL(os.Getenv("BASE_URL")), option.WithMaxRetries(0))
	schema := func(props map[string]any, required ...string) map[string]any {
		return map[string]any{"type": "object", "properties": props, "required": required,
			"additionalProperties": false}
	}
	tools := []responses.ToolUnionParam{
		responses.ToolParamOfFunction("echo", schema(map[string]any{"text": map[string]any{"type": "string"}}, "text"), true),
		responses.ToolParamOfFunction("ping", schema(map[string]any{}), true),
	}
	input := responses.ResponseInputParam{responses.ResponseInputItemParamOfMessage("Use a tool.", responses.EasyInputMessageRoleUser)}
	for turn := 0; turn < 3; turn++ {
		stream := client.Responses.NewStreaming(context.Background(), responses.ResponseNewParams{
			Model: "gpt-5.1", Tools: tools, Input: responses.ResponseNewParamsInputUnion{OfInputItemList: input}})
		var completed, done []responses.ResponseOutputItemUnion
		for stream.Next() {
			event := stream.Current()
			switch event.Type {
			case "response.completed":
				completed = event.Response.Output
			case "response.output_item.done":
				done = append(done, event.Item)
			}
		}
		if err := stream.Err(); err != nil {
			fmt.Println("ERROR", err)
			os.Exit(1)
		}
		items := completed
		if len(os.Args) > 1 && os.Args[1] == "items" {
			items = done
		}
		calls := 0
		for _, item := range items {
			if item.Type != "function_call" {
				continue
			}
			call := item.AsFunctionCall()
			var args map[string]any
			result := "pong"
			if err := json.Unmarshal([]byte(call.Arguments), &args); err != nil {
				result = "bad arguments: " + err.Error()
			} else if call.Name == "echo" {
				result = fmt.Sprint(args["text"])
			}
			fmt.Printf("RAN %s %q -> %s\n", call.Name, call.Arguments, result)
			replayed := call.ToParam()
			output := responses.ResponseInputItemFunctionCallOutputParam{CallID: openai.String(call.CallID),
				Output: responses.ResponseInputItemFunctionCallOutputOutputUnionParam{OfString: openai.String(result)}}
			input = append(input, responses.ResponseInputItemUnionParam{OfFunctionCall: &replayed},
				responses.ResponseInputItemUnionParam{OfFunctionCallOutput: &output})
			calls++
		}
		fmt.Println("CALLS", calls)
		if calls == 0 {
			break
		}
	}
}
