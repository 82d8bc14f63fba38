// Driver: openai-agents for JavaScript (@openai/agents) as an application uses it,
// pointed at `serve`.
//
// `node openai_agents_js.mjs BASE_URL PROMPT`: an `Agent` with two `tool()`s (`echo`,
// parameters a zod object, and `ping`, of no parameter, for zero-argument calls) on
// `OpenAIResponsesModel` over `new OpenAI({ baseURL })`, run with
// `run(agent, prompt, { stream: true })`, the stream read to its end (every turn
// streams). The library runs the tools and sends their output back itself; the driver
// prints the final output. Tracing is off (it would reach past
// serve). The runner links the pinned install's node_modules beside this file's copy.
import { Agent, OpenAIResponsesModel, run, setTracingDisabled, tool } from "@openai/agents";
import OpenAI from "openai";
import { z } from "zod";

const [baseURL, prompt] = process.argv.slice(2);
setTracingDisabled(true);
const client = new OpenAI({ baseURL, apiKey: process.env.OPENAI_API_KEY, maxRetries: 0 });
const echo = tool({
  name: "echo",
  description: "Return the text unchanged.",
  parameters: z.object({ text: z.string() }),
  execute: async ({ text }) => text,
});
// What ping returns: serve's RAN_WITHOUT_ARGUMENTS, which tells the judge a
// zero-argument call ran.
const PONG = "responses-oracle-0";
const ping = tool({
  name: "ping",
  description: "Answer that it ran.",
  parameters: z.object({}),
  execute: async () => PONG,
});
const agent = new Agent({
  name: "responses-oracle driver",
  instructions: "Use the echo tool when asked to.",
  tools: [echo, ping],
  model: new OpenAIResponsesModel(client, "gpt-5.1"),
});
const result = await run(agent, prompt, { maxTurns: 4, stream: true });
for await (const _ of result) {
  // read every event: the run goes on as the stream is consumed
}
await result.completed;
console.log(result.finalOutput);
