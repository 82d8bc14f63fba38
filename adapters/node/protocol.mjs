// The candidate protocol's Node end (docs/conformance-vectors.md, "The candidate protocol"):
// one JSON request per stdin line, one JSON answer per stdout line, in request order.
// `serve(parse)` answers each request with `parse(events, tools)` -> a list of result
// objects; a rejection becomes that request's {"id", "error"} answer and serving goes
// on.  `tools` are the request's: the tools an application whose model calls what the
// stream calls declares, `{type: "function" | "custom", name}` each (the harness's
// `declared_tools`), so every adapter sets its client up as such an application does.
import { createInterface } from "node:readline";

/** The parameters of every declared function tool: any JSON object (not strict, so no
 * client parses or checks the arguments against it). */
export const PERMISSIVE = { type: "object", additionalProperties: true };

/** The events as the SSE body a server sends. */
export function sseBody(events) {
  return events
    .map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
    .join("");
}

/** A fetch that answers every request with `body()` as an event stream. */
export function offlineFetch(body) {
  return async () =>
    new Response(body(), { status: 200, headers: { "content-type": "text/event-stream" } });
}

/** Serve requests from stdin with the async `parse(events)` until stdin closes. */
export async function serve(parse) {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const request = JSON.parse(line);
    let answer;
    try {
      answer = { id: request.id, results: await parse(request.events, request.tools ?? []) };
    } catch (error) {
      answer = { id: request.id, error: `${error?.name ?? "Error"}: ${error?.message ?? error}` };
    }
    process.stdout.write(JSON.stringify(answer) + "\n");
  }
}
