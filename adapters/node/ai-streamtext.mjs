// `ai`'s `streamText` over the AI SDK's OpenAI Responses provider as a candidate:
// `diff --candidate ai-streamtext`.
//
// Each request body goes the way an app's call takes it: `streamText({ model, prompt,
// tools })` with `createOpenAI({ fetch })` answering with the stream's SSE bytes, the
// stream consumed, then what the app reads: `await result.content` (the step's text,
// reasoning and tool calls, in order), `await result.response` (its id) and
// `await result.finishReason`.  An app declares the tools its model may call, so the
// adapter declares the request's tools (one per name the stream's calls carry): a
// function tool with a permissive JSON schema and no `execute` (the app runs its tools
// itself), or `openai.tools.customTool()` for a custom tool; hosted tools are the
// provider's.
//
// streamText hands an app *parsed* tool input, not the wire string: a function call's
// arguments are JSON-parsed (an empty string becomes `{}`; text that is not JSON is
// handed over as that text, the call marked invalid), a custom tool's input is its
// text.  The adapter writes that value back as the item's `arguments` and says so with
// `"arguments_parsed": true` on the result entry (docs/conformance-vectors.md §6): the
// harness then compares it with the reference's arguments parsed as JSON, or with the
// reference's string where that is not JSON.  Invalid calls are kept: the app holds
// them in `toolCalls` like any other.
//
// Parts become wire items as in ai-sdk.mjs: text parts of one `itemId` are one
// `message`, reasoning parts one `reasoning` item, provider-executed tools their hosted
// item; a text part that never got text is dropped.  An error reported to `onError`
// (streamText does not throw; it tells the app there) or a throw is the error answer.
import { streamText } from "ai";
import {
  appTools,
  hostedItem,
  itemId,
  offlineModel,
  statusOf,
  withoutEmptyParts,
} from "./ai-parts.mjs";
import { serve } from "./protocol.mjs";

const { model, answerWith } = offlineModel();

async function parse(events, declared) {
  answerWith(events);
  const tools = appTools(declared);
  const errors = [];
  const result = streamText({
    model,
    prompt: "",
    tools,
    maxRetries: 0,
    onError: ({ error }) => errors.push(error),
  });
  await result.consumeStream();
  if (errors.length > 0) throw errors[0] instanceof Error ? errors[0] : new Error(String(errors[0]));
  const [content, response, finishReason] = await Promise.all([
    result.content,
    result.response,
    result.finishReason,
  ]);
  const items = new Map(); // key -> wire item, in the order the content first names it
  const parsed = new WeakSet();
  const item = (key, make) => {
    if (!items.has(key)) items.set(key, make());
    return items.get(key);
  };
  for (const part of content) {
    switch (part.type) {
      case "text": {
        const key = itemId(part) ?? `text:${items.size}`;
        const message = item(key, () => ({ type: "message", id: itemId(part), role: "assistant", content: [] }));
        message.content.push({ type: "output_text", text: part.text, annotations: [] });
        break;
      }
      case "reasoning": {
        const key = itemId(part) ?? `reasoning:${items.size}`;
        const reasoning = item(key, () => ({ type: "reasoning", id: itemId(part), summary: [] }));
        reasoning.summary.push({ type: "summary_text", text: part.text });
        break;
      }
      case "tool-call":
      case "tool-result": {
        if (part.providerExecuted) {
          const call = item(`call:${part.toolCallId}`, () => hostedItem(part));
          const { code } = part.type === "tool-call" ? hostedItem(part) : {};
          if (code !== undefined) call.code = code;
          break;
        }
        if (part.type === "tool-result") break;
        const custom = tools[part.toolName]?.type === "provider";
        const call = {
          type: custom ? "custom_tool_call" : "function_call",
          id: itemId(part),
          call_id: part.toolCallId,
          name: part.toolName,
        };
        if (custom) {
          call.input = part.input;
        } else {
          call.arguments = part.input;
          parsed.add(call);
        }
        items.set(`call:${part.toolCallId}:${items.size}`, call);
        break;
      }
      default:
        break;
    }
  }
  const status = statusOf(finishReason);
  const answer = { id: response?.id ?? null };
  if (status !== undefined) answer.status = status;
  const wires = withoutEmptyParts([...items.values()]);
  return [
    {
      response: answer,
      items: wires.map((wire) => (parsed.has(wire) ? { item: wire, arguments_parsed: true } : { item: wire })),
    },
  ];
}

await serve(parse);
