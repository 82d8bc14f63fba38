// charm.land/fantasy: its openai provider on the Responses API, an agent with two tools,
// Agent.Stream (fantasy runs the tools and sends the next request).  BASE_URL from env.
package main

import (
	"context"
	"fmt"
	"os"

	"charm.land/fantasy"
	"charm.land/fantasy/providers/openai"
)

type echoIn struct {
	Text string `json:"text" description:"The text."`
}

func main() {
	ctx := context.Background()
	provider, err := openai.New(openai.WithBaseURL(os.Getenv("BASE_URL")), openai.WithAPIKey("sk-rejudge"), openai.WithUseResponsesAPI())
	if err != nil {
		panic(err)
	}
	model, err := provider.LanguageModel(ctx, "gpt-5.1")
	if err != nil {
		panic(err)
	}
	echo := fantasy.NewAgentTool("echo", "Return the text unchanged.",
		func(_ context.Context, in echoIn, call fantasy.ToolCall) (fantasy.ToolResponse, error) {
			fmt.Printf("RAN echo %q (input %q)\n", in.Text, call.Input)
			return fantasy.NewTextResponse(in.Text), nil
		})
	ping := fantasy.NewAgentTool("ping", "Answer that it ran.",
		func(_ context.Context, _ struct{}, call fantasy.ToolCall) (fantasy.ToolResponse, error) {
			fmt.Printf("RAN ping (input %q)\n", call.Input)
			return fantasy.NewTextResponse("pong"), nil
		})
	agent := fantasy.NewAgent(model, fantasy.WithTools(echo, ping), fantasy.WithStopConditions(fantasy.StepCountIs(3)))
	retries := 0
	result, err := agent.Stream(ctx, fantasy.AgentStreamCall{Prompt: "Use a tool.", MaxRetries: &retries})
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	fmt.Println("TEXT", result.Response.Content.Text())
}
