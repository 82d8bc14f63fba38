// Driver: the Vercel AI SDK (`ai` with `@ai-sdk/openai`) as an application uses it,
// pointed at `serve`.
//
// `node vercel_ai.mjs BASE_URL PROMPT`: `streamText` on the OpenAI provider's Responses
// model (`createOpenAI({ baseURL }).responses("gpt-5.1")`) with two tools declared by
// `tool()` (`echo`, its input a zod object, and `ping`, of no input, for zero-argument
// calls) and `stopWhen: isStepCount(4)`, so the SDK
// runs the tool itself and sends its output back in the next step's request. The
// driver reads the text stream to its end and prints it (or throws the step's error). Telemetry is off by default;
// retries are off (a retried request would hide a dropped call). The runner links the
// pinned install's node_modules beside this file's copy.
import { createOpenAI } from "@ai-sdk/openai";
import { isStepCount, streamText, tool } from "ai";
import { z } from "zod";

const [baseURL, prompt] = process.argv.slice(2);
const openai = createOpenAI({ baseURL, apiKey: process.env.OPENAI_API_KEY });
const echo = tool({
  description: "Return the text unchanged.",
  inputSchema: z.object({ text: z.string() }),
  execute: async ({ text }) => text,
});
// What ping returns: serve's RAN_WITHOUT_ARGUMENTS, which tells the judge a
// zero-argument call ran.
const PONG = "responses-oracle-0";
const ping = tool({
  description: "Answer that it ran.",
  inputSchema: z.object({}),
  execute: async () => PONG,
});
const result = streamText({
  model: openai.responses("gpt-5.1"),
  system: "Use the echo tool when asked to.",
  prompt,
  tools: { echo, ping },
  stopWhen: isStepCount(4),
  maxRetries: 0,
  // streamText reports a failed step here rather than throwing: rethrown below, so a
  // failure ends the run with the SDK's own error, as an application would surface it.
  onError: ({ error }) => {
    failure ??= error;
  },
});
let failure;
let text = "";
for await (const part of result.textStream) {
  text += part;
}
if (failure) {
  throw failure;
}
console.log(text);
