// Driver: charm.land/fantasy, the LLM layer crush is built on, its openai provider on the
// Responses API, pointed at serve.
//
// fantasy BASE_URL PROMPT: an agent with two tools (echo, which returns its text, and
// ping, which takes nothing), streamed with Agent.Stream; fantasy's own loop runs the
// tools and sends the next request, as crush's coding agent does (at most four steps).
package main

import (
	"context"
	"fmt"
	"os"

	"charm.land/fantasy"
	"charm.land/fantasy/providers/openai"
)

type echoArgs struct {
	Text string `json:"text" description:"The text to return."`
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "Error:", err)
	os.Exit(1)
}

func main() {
	ctx := context.Background()
	provider, err := openai.New(openai.WithBaseURL(os.Args[1]),
		openai.WithAPIKey(os.Getenv("OPENAI_API_KEY")), openai.WithUseResponsesAPI())
	if err != nil {
		fail(err)
	}
	model, err := provider.LanguageModel(ctx, "gpt-5.1")
	if err != nil {
		fail(err)
	}
	echo := fantasy.NewAgentTool("echo", "Return the text unchanged.",
		func(_ context.Context, in echoArgs, _ fantasy.ToolCall) (fantasy.ToolResponse, error) {
			return fantasy.NewTextResponse(in.Text), nil
		})
	ping := fantasy.NewAgentTool("ping", "Answer that it ran.",
		func(_ context.Context, _ struct{}, _ fantasy.ToolCall) (fantasy.ToolResponse, error) {
			return fantasy.NewTextResponse("responses-oracle-0"), nil
		})
	agent := fantasy.NewAgent(model, fantasy.WithTools(echo, ping),
		fantasy.WithStopConditions(fantasy.StepCountIs(4)))
	noRetry := 0
	result, err := agent.Stream(ctx, fantasy.AgentStreamCall{Prompt: os.Args[2], MaxRetries: &noRetry})
	if err != nil {
		fail(err)
	}
	fmt.Println(result.Response.Content.Text())
}
