// The AI SDK as its docs show a tool loop: streamText on the OpenAI Responses model,
// tools with execute(), stopWhen a step count, the text stream read to its end.
//   tools/rejudge/play.sh S.sse OUT tools/rejudge/node.sh ~/.cache/responses-oracle/agents/vercel-ai-7.0.173 tools/rejudge/vercel_ai.mjs
import { createOpenAI } from "@ai-sdk/openai";
import { isStepCount, streamText, tool } from "ai";
import { z } from "zod";

const openai = createOpenAI({ baseURL: process.env.BASE_URL, apiKey: "sk-rejudge" });
const tools = {
  echo: tool({
    description: "Return the text unchanged.",
    inputSchema: z.object({ text: z.string() }),
    execute: async ({ text }) => { console.log("RAN echo", JSON.stringify(text)); return text; },
  }),
  ping: tool({
    description: "Answer that it ran.",
    inputSchema: z.object({}),
    execute: async () => { console.log("RAN ping"); return "pong"; },
  }),
};
const result = streamText({
  model: openai.responses("gpt-5.1"), prompt: "Use a tool.", tools,
  stopWhen: isStepCount(3), maxRetries: 0,
  onError: ({ error }) => console.log("ERROR", String(error).slice(0, 300)),
});
for await (const part of result.fullStream) {
  if (["tool-call", "tool-result", "tool-error", "error"].includes(part.type)) {
    const shown = JSON.stringify(part.input ?? part.output ?? part.error?.message ?? part.error);
    console.log(part.type, shown.slice(0, 300));
  }
}
console.log("TEXT", await result.text);
