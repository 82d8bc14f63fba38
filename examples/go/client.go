// Package yourclient stands for the Go client you maintain: Ask streams a Responses
// request with one tool, runs the tool's calls and sends their outputs back.
package yourclient

import (
	"context"
	"encoding/json"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

var echo = responses.ToolParamOfFunction("echo", map[string]any{"type": "object",
	"properties": map[string]any{"text": map[string]any{"type": "string"}},
	"required":   []string{"text"}, "additionalProperties": false}, true)

// Ask runs the conversation to its text answer, chaining turns by previous_response_id.
func Ask(ctx context.Context, baseURL, prompt string) (string, error) {
	client := openai.NewClient(option.WithBaseURL(baseURL), option.WithAPIKey("unused"))
	params := responses.ResponseNewParams{Model: "gpt-5.1", Tools: []responses.ToolUnionParam{echo},
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String(prompt)}}
	for {
		stream := client.Responses.NewStreaming(ctx, params)
		var final responses.Response
		for stream.Next() {
			if event := stream.Current(); event.Type == "response.completed" {
				final = event.Response
			}
		}
		if err := stream.Err(); err != nil {
			return "", err
		}
		var outputs responses.ResponseInputParam
		for _, item := range final.Output {
			if item.Type == "function_call" {
				call := item.AsFunctionCall()
				var args struct{ Text string }
				if err := json.Unmarshal([]byte(call.Arguments), &args); err != nil {
					return "", err
				}
				output := responses.ResponseInputItemParamOfFunctionCallOutput(args.Text)
				output.OfFunctionCallOutput.CallID = openai.String(call.CallID)
				outputs = append(outputs, output)
			}
		}
		if len(outputs) == 0 {
			return final.OutputText(), nil
		}
		params.PreviousResponseID = openai.String(final.ID)
		params.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: outputs}
	}
}
