// What the two AI SDK adapters (ai-sdk.mjs: the provider's doStream; ai-streamtext.mjs:
// `ai`'s streamText) share: the provider over an offline fetch, and how the SDK's
// vocabulary maps back onto wire items.
import { createOpenAI, openai } from "@ai-sdk/openai";
import { jsonSchema, tool } from "ai";
import { offlineFetch, PERMISSIVE, sseBody } from "./protocol.mjs";

/** The provider's Responses model whose fetch answers with the body `answerWith(events)`
 * last set: one model per process, one body per request. */
export function offlineModel() {
  let body = "";
  const provider = createOpenAI({
    apiKey: "sk-offline",
    baseURL: "http://oracle.invalid/v1",
    fetch: offlineFetch(() => body),
  });
  const answerWith = (events) => {
    body = sseBody(events);
  };
  return { model: provider.responses("oracle-candidate"), answerWith };
}

/** The tools an app whose model calls what this stream calls declares (the request's:
 * function tools with a permissive schema and no `execute`, custom tools as the
 * provider's `customTool`). */
export function appTools(declared) {
  const tools = {};
  for (const { type, name } of declared) {
    tools[name] =
      type === "custom" ? openai.tools.customTool({}) : tool({ inputSchema: jsonSchema(PERMISSIVE) });
  }
  return tools;
}

/** The response status a finish reason stands for (anything else: not given). */
export const STATUS = {
  stop: "completed",
  "tool-calls": "completed",
  length: "incomplete",
  "content-filter": "incomplete",
  error: "failed",
};

/** The hosted item type of a provider-executed tool, by the SDK's tool name. */
export const HOSTED = {
  web_search: "web_search_call",
  code_interpreter: "code_interpreter_call",
  file_search: "file_search_call",
  image_generation: "image_generation_call",
};

/** A finish reason as a status: v7 reports `{ unified, raw }`, earlier a string. */
export function statusOf(finishReason) {
  return STATUS[finishReason?.unified ?? finishReason];
}

/** A hosted tool's input (JSON text), or `{}` when it is not JSON. */
export function hostedInput(input) {
  if (typeof input !== "string") return input ?? {};
  try {
    return JSON.parse(input);
  } catch {
    return {};
  }
}

/** The wire item id the provider put on a part. */
export function itemId(part) {
  return part.providerMetadata?.openai?.itemId;
}

/** A provider-executed tool's part as its hosted item (`id` = the tool call id). */
export function hostedItem(part) {
  const wire = { type: HOSTED[part.toolName] ?? part.toolName, id: part.toolCallId ?? part.id };
  if (part.type === "tool-call" && wire.type === "code_interpreter_call") {
    const { code } = hostedInput(part.input);
    if (typeof code === "string") wire.code = code;
  }
  return wire;
}

/** The items without the text parts that never got text (announced, then empty). */
export function withoutEmptyParts(items) {
  for (const wire of items) {
    for (const key of ["content", "summary"]) {
      if (Array.isArray(wire[key])) wire[key] = wire[key].filter((part) => part.text !== "");
    }
  }
  return items;
}
