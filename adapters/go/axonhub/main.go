// AxonHub's Responses stream handling as two candidates: `diff --candidate
// axonhub-stream` and `diff --candidate axonhub-stored` (the argument `stream` or
// `stored` says which), built against a checkout given by `--src DIR`.
//
// AxonHub is a gateway.  When its upstream speaks the Responses API, the body reaches
// its llm module as SSE: httpclient.NewDefaultSSEDecoder cuts it into StreamEvents,
// and two things are made of them, both run here as the gateway runs them:
//
//   - stream: responses.OutboundTransformer.TransformStream turns the events into the
//     gateway's unified chunks (llm.Response, chat-completion shaped), which it then
//     re-encodes for its own client.  The answer is what those chunks carry once
//     accumulated the way a chat-completions client accumulates them: the text deltas
//     as one message, the reasoning deltas as one reasoning summary, and the tool calls
//     by their index (the first id and name given, the arguments or custom input
//     concatenated), each call a function_call or custom_tool_call item with its
//     call_id (the chunks carry no item id), items in the order the chunks first
//     showed them; the status from the finish reason (stop, tool_calls: completed;
//     length: incomplete; error: failed).  An error from the stream (an event it
//     cannot decode, an error event, a stream without a terminal event) aborts the
//     gateway's answer to its client: it is the error answer.
//   - stored: responses.AggregateStreamChunks makes the response the gateway stores
//     (and returns to a non-streaming caller) from the same events; the answer is that
//     response's status and output items as it serialises them.
//
// TransformStream's signature changed between AxonHub's commits (a request argument
// was added), so it is called through reflection with its declared parameters.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"

	"github.com/looplj/axonhub/llm"
	"github.com/looplj/axonhub/llm/httpclient"
	"github.com/looplj/axonhub/llm/streams"
	"github.com/looplj/axonhub/llm/transformer/openai/responses"

	"responses-oracle/adapters/go/candidate"
)

// decoded is the body cut into StreamEvents by AxonHub's own SSE decoder.
func decoded(body []byte) ([]*httpclient.StreamEvent, error) {
	decoder := httpclient.NewDefaultSSEDecoder(context.Background(), io.NopCloser(bytes.NewReader(body)))
	defer decoder.Close()
	return streams.All(decoder)
}

// transform calls TransformStream with what its parameters ask for.
func transform(events []*httpclient.StreamEvent) (streams.Stream[*llm.Response], error) {
	transformer, err := responses.NewOutboundTransformer("http://oracle.invalid/v1", "sk-offline")
	if err != nil {
		return nil, err
	}
	method := reflect.ValueOf(transformer).MethodByName("TransformStream")
	var source streams.Stream[*httpclient.StreamEvent] = streams.SliceStream(events)
	contextType := reflect.TypeFor[context.Context]()
	var arguments []reflect.Value
	for n := range method.Type().NumIn() {
		switch kind := method.Type().In(n); {
		case kind == contextType:
			arguments = append(arguments, reflect.ValueOf(context.Background()))
		case kind == reflect.TypeFor[*httpclient.Request]():
			arguments = append(arguments, reflect.ValueOf(&httpclient.Request{}))
		case kind == reflect.TypeFor[streams.Stream[*httpclient.StreamEvent]]():
			arguments = append(arguments, reflect.ValueOf(&source).Elem())
		default:
			return nil, fmt.Errorf("TransformStream takes a %v, which the adapter does not know", kind)
		}
	}
	out := method.Call(arguments)
	if failed, _ := out[1].Interface().(error); failed != nil {
		return nil, failed
	}
	return out[0].Interface().(streams.Stream[*llm.Response]), nil
}

// accumulated holds the chunks' content as a chat-completions client holds it.
type accumulated struct {
	text, reasoning []byte
	hasText         bool
	hasReasoning    bool
	calls           map[int]*call
	order           []any // "text", "reasoning" or a call's index, first shown first
	status          string
	id              string
}

type call struct {
	custom                 bool
	callID, name, argument string
}

func (a *accumulated) first(key any) {
	for _, seen := range a.order {
		if seen == key {
			return
		}
	}
	a.order = append(a.order, key)
}

func (a *accumulated) add(chunk *llm.Response) {
	if chunk.ID != "" && a.id == "" {
		a.id = chunk.ID
	}
	for _, choice := range chunk.Choices {
		if choice.FinishReason != nil {
			a.status = map[string]string{"stop": "completed", "tool_calls": "completed",
				"length": "incomplete", "error": "failed"}[*choice.FinishReason]
		}
		delta := choice.Delta
		if delta == nil {
			continue
		}
		if delta.Content.Content != nil && *delta.Content.Content != "" {
			a.hasText = true
			a.text = append(a.text, *delta.Content.Content...)
			a.first("text")
		}
		if delta.ReasoningContent != nil && *delta.ReasoningContent != "" {
			a.hasReasoning = true
			a.reasoning = append(a.reasoning, *delta.ReasoningContent...)
			a.first("reasoning")
		}
		for _, tool := range delta.ToolCalls {
			held, known := a.calls[tool.Index]
			if !known {
				held = &call{}
				a.calls[tool.Index] = held
				a.first(tool.Index)
			}
			if held.callID == "" {
				held.callID = tool.ID
			}
			if custom := tool.ResponseCustomToolCall; custom != nil {
				held.custom = true
				if held.callID == "" {
					held.callID = custom.CallID
				}
				if held.name == "" {
					held.name = custom.Name
				}
				held.argument += custom.Input
				continue
			}
			if held.name == "" {
				held.name = tool.Function.Name
			}
			held.argument += tool.Function.Arguments
		}
	}
}

func (a *accumulated) result() candidate.Result {
	result := candidate.Result{Response: candidate.Response{ID: a.id, Status: a.status}, Items: []candidate.Entry{}}
	for _, key := range a.order {
		var item map[string]any
		switch key {
		case "text":
			item = map[string]any{"type": "message", "role": "assistant",
				"content": []any{map[string]any{"type": "output_text", "text": string(a.text)}}}
		case "reasoning":
			item = map[string]any{"type": "reasoning",
				"summary": []any{map[string]any{"type": "summary_text", "text": string(a.reasoning)}}}
		default:
			held := a.calls[key.(int)]
			if held.custom {
				item = map[string]any{"type": "custom_tool_call", "call_id": held.callID,
					"name": held.name, "input": held.argument}
			} else {
				item = map[string]any{"type": "function_call", "call_id": held.callID,
					"name": held.name, "arguments": held.argument}
			}
		}
		result.Items = append(result.Items, candidate.Entry{Item: item})
	}
	return result
}

func streamed(events []*httpclient.StreamEvent) ([]candidate.Result, error) {
	chunks, err := transform(events)
	if err != nil {
		return nil, err
	}
	held := &accumulated{calls: map[int]*call{}}
	for chunks.Next() {
		if chunk := chunks.Current(); chunk != nil && chunk != llm.DoneResponse {
			held.add(chunk)
		}
	}
	if err := chunks.Err(); err != nil {
		return nil, err
	}
	return []candidate.Result{held.result()}, nil
}

func stored(events []*httpclient.StreamEvent) ([]candidate.Result, error) {
	body, _, err := responses.AggregateStreamChunks(context.Background(), events)
	if err != nil {
		return nil, err
	}
	var response struct {
		ID     string            `json:"id"`
		Status *string           `json:"status"`
		Output []json.RawMessage `json:"output"`
	}
	if err := json.Unmarshal(body, &response); err != nil {
		return nil, err
	}
	result := candidate.Result{Response: candidate.Response{ID: response.ID}, Items: []candidate.Entry{}}
	if response.Status != nil {
		result.Response.Status = *response.Status
	}
	for _, item := range response.Output {
		result.Items = append(result.Items, candidate.Entry{Item: item})
	}
	return []candidate.Result{result}, nil
}

func main() {
	modes := map[string]func([]*httpclient.StreamEvent) ([]candidate.Result, error){
		"stream": streamed, "stored": stored}
	if len(os.Args) != 2 || modes[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: axonhub stream|stored (the candidate protocol on stdin and stdout)")
		os.Exit(2)
	}
	run := modes[os.Args[1]]
	candidate.Serve(func(request candidate.Request) ([]candidate.Result, error) {
		events, err := decoded(request.SSEBody())
		if err != nil {
			return nil, fmt.Errorf("decoding the SSE body: %w", err)
		}
		return run(events)
	})
}
