// Driver: Google's ADK for Go, its openaimodel (the Responses API) pointed at serve.
//
// adk_go BASE_URL PROMPT: an llmagent with two functiontool tools (echo, which returns
// its text, and ping, which takes nothing), run by an in-memory runner with SSE
// streaming; ADK's own loop runs the tools and sends the next request.
package main

import (
	"context"
	"fmt"
	"os"

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/agent/llmagent"
	"google.golang.org/adk/v2/model/openaimodel"
	"google.golang.org/adk/v2/runner"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/adk/v2/tool/functiontool"
	"google.golang.org/genai"
)

type echoArgs struct {
	Text string `json:"text"`
}

type reply struct {
	Text string `json:"text"`
}

func must[T any](value T, err error) T {
	if err != nil {
		fmt.Fprintln(os.Stderr, "Error:", err)
		os.Exit(1)
	}
	return value
}

func main() {
	ctx := context.Background()
	model := must(openaimodel.NewModel(ctx, "gpt-5.1", &openaimodel.ClientConfig{
		APIKey: os.Getenv("OPENAI_API_KEY"), BaseURL: os.Args[1]}))
	echo := must(functiontool.New(functiontool.Config{Name: "echo", Description: "Return the text unchanged."},
		func(_ agent.Context, in echoArgs) (reply, error) { return reply(in), nil }))
	ping := must(functiontool.New(functiontool.Config{Name: "ping", Description: "Answer that it ran."},
		func(_ agent.Context, _ struct{}) (reply, error) { return reply{Text: "responses-oracle-0"}, nil }))
	root := must(llmagent.New(llmagent.Config{Name: "driver", Model: model, Tools: []tool.Tool{echo, ping}}))
	run := must(runner.NewInMemory("responses-oracle", root))
	events := run.Run(ctx, "user", "session", genai.NewContentFromText(os.Args[2], genai.RoleUser),
		agent.RunConfig{StreamingMode: agent.StreamingModeSSE})
	last := ""
	for event, err := range events {
		must(event, err)
		if event.Content != nil && !event.Partial {
			for _, part := range event.Content.Parts {
				last += part.Text
			}
		}
	}
	fmt.Println(last)
}
