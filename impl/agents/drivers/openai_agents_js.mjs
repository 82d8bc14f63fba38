// Driver: openai-agents for JavaScript (@openai/agents) as an application uses it,
// pointed at `serve`.
//
// `node openai_agents_js.mjs BASE_URL PROMPT`: an `Agent` with one `tool()` (`echo`,
// parameters a zod object) on `OpenAIResponsesModel` over `new OpenAI({ baseURL })`,
// run with `run(agent, prompt)`. The library runs the tool and sends its output back
// itself; the driver prints the final output. Tracing is off (it would reach past
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
const agent = new Agent({
  name: "responses-oracle driver",
  instructions: "Use the echo tool when asked to.",
  tools: [echo],
  model: new OpenAIResponsesModel(client, "gpt-5.1"),
});
const result = await run(agent, prompt, { maxTurns: 4 });
console.log(result.finalOutput);
