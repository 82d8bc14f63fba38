// @openai/agents as its README shows: an Agent with tool()s, run(agent, input,
// { stream: true }), the stream read to its end; the default OpenAI provider (Responses
// API) reads OPENAI_BASE_URL and OPENAI_API_KEY from the environment.
//   tools/rejudge/play.sh S.sse OUT tools/rejudge/node.sh ~/.cache/responses-oracle/agents/openai-agents-js-0.20.0-node22.23.5 tools/rejudge/openai_agents_js.mjs
import { Agent, run, setTracingDisabled, tool } from "@openai/agents";
import { z } from "zod";

setTracingDisabled(true);
const echo = tool({
  name: "echo", description: "Return the text unchanged.",
  parameters: z.object({ text: z.string() }),
  execute: async ({ text }) => { console.log("RAN echo", JSON.stringify(text)); return text; },
});
const ping = tool({
  name: "ping", description: "Answer that it ran.", parameters: z.object({}),
  execute: async () => { console.log("RAN ping"); return "pong"; },
});
const agent = new Agent({ name: "rejudge", model: "gpt-5.1", tools: [echo, ping] });
const result = await run(agent, "Use a tool.", { stream: true, maxTurns: 3 });
for await (const event of result) {
  if (event.type === "run_item_stream_event") console.log("ITEM", event.name);
}
await result.completed;
console.log("FINAL", JSON.stringify(result.finalOutput));
