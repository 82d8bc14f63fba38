// openai-go's Responses streaming as a candidate: `diff --candidate openai-go`.
//
// Each request body goes the way a user's call takes it, through the SDK's public API:
// a client whose HTTP transport answers every request with the stream's SSE bytes,
// client.Responses.NewStreaming with a tool declared for every call the stream carries
// (a function tool with a permissive, non-strict schema, so the SDK hands the arguments
// over as text; or a custom tool), the stream iterated to its end.  openai-go keeps no
// accumulated response for a streamed call (its README reads the final response from
// the terminal event), so the answer is the response the last response.completed,
// response.incomplete or response.failed event carries, its output items as the SDK
// decoded them.  A stream without a terminal event leaves the app without a response,
// and anything the SDK reports through stream.Err() is an error: both are the error
// answer.  The SDK answers one response per call, so the answer has one result.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"responses-oracle/adapters/go/candidate"
)

// offline answers every request with body as an event stream.
type offline struct{ body []byte }

func (o *offline) RoundTrip(request *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: http.StatusOK,
		Header:     http.Header{"Content-Type": []string{"text/event-stream"}},
		Body:       io.NopCloser(bytes.NewReader(o.body)),
		Request:    request,
	}, nil
}

// appTools are the Responses tools an app declares for the stream's calls.
func appTools(tools []candidate.Tool) []responses.ToolUnionParam {
	var out []responses.ToolUnionParam
	for _, tool := range tools {
		if tool.Type == "custom" {
			out = append(out, responses.ToolUnionParam{OfCustom: &responses.CustomToolParam{Name: tool.Name}})
			continue
		}
		out = append(out, responses.ToolParamOfFunction(tool.Name,
			map[string]any{"type": "object", "additionalProperties": true}, false))
	}
	return out
}

var errNoTerminal = errors.New("the stream ended without response.completed, response.incomplete or response.failed: no response to read")

func main() {
	transport := &offline{}
	client := openai.NewClient(option.WithAPIKey("sk-offline"),
		option.WithBaseURL("http://oracle.invalid/v1"), option.WithMaxRetries(0),
		option.WithHTTPClient(&http.Client{Transport: transport}))
	candidate.Serve(func(request candidate.Request) ([]candidate.Result, error) {
		transport.body = request.SSEBody()
		stream := client.Responses.NewStreaming(context.Background(), responses.ResponseNewParams{
			Model: "gpt-5.1", Tools: appTools(request.Tools),
			Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("")}})
		var final *responses.Response
		for stream.Next() {
			switch event := stream.Current(); event.Type {
			case "response.completed", "response.incomplete", "response.failed":
				response := event.Response
				final = &response
			}
		}
		if err := stream.Err(); err != nil {
			return nil, err
		}
		if final == nil {
			return nil, errNoTerminal
		}
		result := candidate.Result{Response: candidate.Response{ID: final.ID, Status: string(final.Status)},
			Items: []candidate.Entry{}}
		for _, item := range final.Output {
			result.Items = append(result.Items, candidate.Entry{Item: json.RawMessage(item.RawJSON())})
		}
		return []candidate.Result{result}, nil
	})
}
