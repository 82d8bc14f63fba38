// openai-node's `client.responses.stream()` as a candidate: `diff --candidate openai-node`.
//
// Each request body goes the way a user's call takes it, through the SDK's public API:
// an OpenAI client whose `fetch` answers with the stream's SSE bytes, the stream iterated
// to the end, then `finalResponse()`.  The request declares a tool for every call the
// stream carries, as an app whose model calls them does: a function tool with a
// permissive, non-strict schema (the SDK then hands the arguments over as text,
// unparsed) or a custom tool.  `response.incomplete` / `response.failed`: the
// response that event carries.  Anything the SDK throws is the error answer.  The body is
// handed over whole (several responses in one body stay one body); the SDK returns one
// response per call, so the answer has one result.
import OpenAI from "openai";
import { PERMISSIVE, offlineFetch, serve, sseBody } from "./protocol.mjs";

let body = "";
const client = new OpenAI({
  apiKey: "sk-offline",
  baseURL: "http://oracle.invalid/v1",
  maxRetries: 0,
  fetch: offlineFetch(() => body),
});
const ENDINGS = new Set(["response.incomplete", "response.failed"]);

/** The Responses `tools` an app declares for the stream's calls. */
function appTools(tools) {
  return tools.map(({ type, name }) =>
    type === "custom" ? { type, name } : { type, name, parameters: PERMISSIVE, strict: false },
  );
}

async function parse(events, tools) {
  body = sseBody(events);
  const stream = client.responses.stream({ model: "oracle-candidate", input: "", tools: appTools(tools) });
  let ending = null;
  for await (const event of stream) {
    if (ENDINGS.has(event.type)) ending = event;
  }
  const final = ending !== null ? ending.response : await stream.finalResponse();
  return [
    {
      response: { id: final.id, status: final.status ?? "completed" },
      items: (final.output ?? []).map((item) => ({ item })),
    },
  ];
}

await serve(parse);
