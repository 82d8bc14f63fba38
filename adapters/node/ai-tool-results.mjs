// What an app using `ai`'s `streamText` is handed as tools run: every tool part of
// `fullStream`, in order (tests/proxy/test_ai_sdk_tool_results.py plays each capture to
// it directly and behind the proxy, and compares).
//
// The app is set up as in ai-streamtext.mjs: the AI SDK's OpenAI Responses provider
// over an offline fetch that answers with the request's events, and the tools an app
// whose model calls what the stream calls declares (`tools`, the harness's
// `declared_tools`).  Per request, the answer is one entry per tool part:
// `tool-call` (its input), `tool-result` (its output, `preliminary` for a partial
// result such as a partial image), `tool-error`, each with its `toolCallId`,
// `toolName` and `providerExecuted`.  An error the SDK reports is the request's error.
import { streamText } from "ai";
import { appTools, offlineModel } from "./ai-parts.mjs";
import { serve } from "./protocol.mjs";

const { model, answerWith } = offlineModel();
const KEPT = {
  "tool-call": "input",
  "tool-result": "output",
  "tool-error": "error",
};

async function parse(events, declared) {
  answerWith(events);
  const parts = [];
  const errors = [];
  const result = streamText({
    model,
    prompt: "",
    tools: appTools(declared),
    maxRetries: 0,
    onError: ({ error }) => errors.push(error),
  });
  for await (const part of result.fullStream) {
    const field = KEPT[part.type];
    if (field === undefined) continue;
    const value = part[field];
    parts.push({
      type: part.type,
      toolCallId: part.toolCallId,
      toolName: part.toolName,
      providerExecuted: part.providerExecuted ?? false,
      preliminary: part.preliminary ?? false,
      [field]: value instanceof Error ? `${value.name}: ${value.message}` : value,
    });
  }
  if (errors.length > 0) throw errors[0] instanceof Error ? errors[0] : new Error(String(errors[0]));
  return parts;
}

await serve(parse);
