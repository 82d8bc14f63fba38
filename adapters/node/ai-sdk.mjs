// The AI SDK's OpenAI Responses provider as a candidate: `diff --candidate ai-sdk`.
//
// Each request body goes through `createOpenAI({ fetch }).responses(model).doStream()`,
// the language-model stream that `streamText` and `generateText` of `ai` consume, with
// a `fetch` that answers with the stream's SSE bytes.  The call declares the tools an
// app whose model calls what the stream calls declares, as `streamText` hands them to
// the provider: a function tool with a permissive JSON schema per function name, the
// provider's `openai.custom` tool per custom tool name.  The SDK answers in parts, not
// items; the adapter writes the parts back as the wire items they stand for, because
// the protocol compares wire-shaped items:
//
// - text-start/-delta/-end with one `providerMetadata.openai.itemId` -> one `message`
//   item with an `output_text` part per text part;
// - reasoning-start/-delta/-end -> one `reasoning` item with a `summary_text` part each;
// - tool-call (not provider-executed) -> a `function_call` item: `call_id` = toolCallId,
//   `name` = toolName, `arguments` = the input string, `id` = the item id; the SDK
//   hands a custom tool's input over JSON-encoded (`JSON.stringify(item.input)`), so
//   an input that is a JSON string literal is a `custom_tool_call` with that string;
// - the parts of a provider-executed tool (web search, code interpreter, file search,
//   image generation) -> its hosted item (`web_search_call`, ...), `id` = toolCallId,
//   a code interpreter's `code` read back from its input;
// items in the order the SDK first announced them.  The status is read from the finish
// reason (stop, tool-calls: completed; length, content-filter: incomplete; error:
// failed; anything else: not given).  An `error` part, or a throw, is the error answer:
// the protocol has no answer with both items and an error, and the SDK's user is told
// of the error either way.
import { HOSTED, hostedItem, itemId, offlineModel, statusOf, withoutEmptyParts } from "./ai-parts.mjs";
import { PERMISSIVE, serve } from "./protocol.mjs";

const { model, answerWith } = offlineModel();
const PROMPT = [{ role: "user", content: [{ type: "text", text: "" }] }];
const CALL_PAYLOAD = { function_call: "arguments", custom_tool_call: "input" };
const PENDING = new WeakSet();

/** The language-model tools an app declares for the stream's calls. */
function modelTools(tools) {
  return tools.map(({ type, name }) =>
    type === "custom"
      ? { type: "provider", id: "openai.custom", name, args: {} }
      : { type: "function", name, inputSchema: PERMISSIVE },
  );
}

async function parse(events, tools) {
  answerWith(events);
  const { stream } = await model.doStream({ prompt: PROMPT, tools: modelTools(tools) });
  const items = new Map(); // key -> wire item, in order of first announcement
  const textParts = new Map(); // part id -> the content part being written
  let responseId = null;
  let status;
  const item = (key, make) => {
    if (!items.has(key)) items.set(key, make());
    return items.get(key);
  };
  for await (const part of stream) {
    switch (part.type) {
      case "response-metadata":
        responseId ??= part.id ?? null;
        break;
      case "text-start": {
        const key = itemId(part) ?? part.id;
        const message = item(key, () => ({ type: "message", id: key, role: "assistant", content: [] }));
        const text = { type: "output_text", text: "", annotations: [] };
        message.content.push(text);
        textParts.set(part.id, text);
        break;
      }
      case "reasoning-start": {
        const key = itemId(part) ?? part.id;
        const reasoning = item(key, () => ({ type: "reasoning", id: key, summary: [] }));
        const text = { type: "summary_text", text: "" };
        reasoning.summary.push(text);
        textParts.set(part.id, text);
        break;
      }
      case "text-delta":
      case "reasoning-delta": {
        const text = textParts.get(part.id);
        if (text !== undefined) text.text += part.delta;
        break;
      }
      case "tool-input-start":
      case "tool-result":
      case "tool-call": {
        const id = part.type === "tool-input-start" ? part.id : part.toolCallId;
        const hosted = HOSTED[part.toolName];
        if (part.providerExecuted || (part.type === "tool-result" && hosted !== undefined)) {
          const call = item(`call:${id}`, () => hostedItem({ ...part, toolCallId: id }));
          const { code } = part.type === "tool-call" ? hostedItem(part) : {};
          if (code !== undefined) call.code = code;
          break;
        }
        if (part.type === "tool-result") break;
        const call = item(`call:${id}`, () => {
          const fresh = { type: "function_call", call_id: id };
          PENDING.add(fresh);
          return fresh;
        });
        call.name = part.toolName;
        if (part.type === "tool-call") {
          const custom = typeof part.input === "string" && part.input.startsWith('"');
          if (custom) {
            call.type = "custom_tool_call";
            call.input = JSON.parse(part.input);
          } else {
            call.arguments = part.input;
          }
          if (itemId(part) !== undefined) call.id = itemId(part);
        }
        break;
      }
      case "finish":
        status = statusOf(part.finishReason);
        break;
      case "error":
        throw part.error instanceof Error ? part.error : new Error(JSON.stringify(part.error));
      default:
        break;
    }
  }
  const response = { id: responseId };
  if (status !== undefined) response.status = status;
  // A call the SDK never committed to (no tool-call part: its input was cut off) is not
  // one its user holds; an announced part that never got text is not one either.
  const held = [...items.values()].filter(
    (wire) => !PENDING.has(wire) || !(wire.type in CALL_PAYLOAD) || CALL_PAYLOAD[wire.type] in wire,
  );
  return [{ response, items: withoutEmptyParts(held).map((wire) => ({ item: wire })) }];
}

await serve(parse);
