// Google's ADK for Go: an llmagent with two functiontools on openaimodel (Responses API),
// an in-memory runner with SSE streaming (ADK runs the tools).  BASE_URL from env.
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

type echoIn struct {
	Text string `json:"text"`
}

type out struct {
	Text string `json:"text"`
}

func check(err error) {
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
}

func main() {
	ctx := context.Background()
	model, err := openaimodel.NewModel(ctx, "gpt-5.1", &openaimodel.ClientConfig{APIKey: "sk-rejudge", BaseURL: os.Getenv("BASE_URL")})
	check(err)
	echo, err := functiontool.New(functiontool.Config{Name: "echo", Description: "Return the text unchanged."},
		func(_ agent.Context, in echoIn) (out, error) { fmt.Printf("RAN echo %q\n", in.Text); return out(in), nil })
	check(err)
	ping, err := functiontool.New(functiontool.Config{Name: "ping", Description: "Answer that it ran."},
		func(_ agent.Context, _ struct{}) (out, error) { fmt.Println("RAN ping"); return out{Text: "pong"}, nil })
	check(err)
	root, err := llmagent.New(llmagent.Config{Name: "rejudge", Model: model, Tools: []tool.Tool{echo, ping}})
	check(err)
	run, err := runner.NewInMemory("rejudge", root)
	check(err)
	for event, err := range run.Run(ctx, "user", "session", genai.NewContentFromText("Use a tool.", genai.RoleUser),
		agent.RunConfig{StreamingMode: agent.StreamingModeSSE}) {
		check(err)
		if event.Content != nil && !event.Partial {
			for _, part := range event.Content.Parts {
				if part.FunctionCall != nil {
					fmt.Printf("CALL %s %v\n", part.FunctionCall.Name, part.FunctionCall.Args)
				}
				if part.FunctionResponse != nil {
					fmt.Printf("RESULT %s %v\n", part.FunctionResponse.Name, part.FunctionResponse.Response)
				}
				if part.Text != "" {
					fmt.Printf("TEXT %s\n", part.Text)
				}
			}
		}
	}
}
