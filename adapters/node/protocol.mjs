// The candidate protocol's Node end (docs/conformance-vectors.md, "The candidate protocol"):
// one JSON request per stdin line, one JSON answer per stdout line, in request order.
// `serve(parse)` answers each request with `parse(events)` -> a list of result objects;
// a rejection becomes that request's {"id", "error"} answer and serving goes on.
import { createInterface } from "node:readline";

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
      answer = { id: request.id, results: await parse(request.events) };
    } catch (error) {
      answer = { id: request.id, error: `${error?.name ?? "Error"}: ${error?.message ?? error}` };
    }
    process.stdout.write(JSON.stringify(answer) + "\n");
  }
}
