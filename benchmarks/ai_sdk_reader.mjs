// The AI SDK reading an answer as an app does, for benchmarks/proxy_throughput.py.
//
// One process, many answers: each line on stdin is a base URL; the reader runs
// `streamText({ model: createOpenAI({ baseURL }).responses("bench"), prompt, tools })`
// against it -- the function tool the answer calls declared with no `execute` (the app
// runs its tools itself), no retries -- consumes `fullStream` part by part, and writes
// one JSON line: the seconds from the call to the stream's end, the parts read, the
// tool calls the step holds and the error reported to `onError`, if any.  Kept alive
// between answers so Node's start-up and the SDK's first-call set-up are paid once, as
// in an app; the benchmark alternates the upstream and the proxy through it.
//
// The SDK comes from the Node adapters' pinned install (`adapters/node`, `npm ci`).
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const adapters = createRequire(new URL("../adapters/node/package.json", import.meta.url));
const load = (name) => import(pathToFileURL(adapters.resolve(name)).href);
const { streamText, tool, jsonSchema } = await load("ai");
const { createOpenAI } = await load("@ai-sdk/openai");

const tools = {
  get_weather: tool({
    description: "The weather in a city.",
    inputSchema: jsonSchema({ type: "object", properties: { city: { type: "string" } } }),
  }),
};

async function read(baseURL) {
  const model = createOpenAI({ baseURL, apiKey: "bench" }).responses("bench");
  const errors = [];
  const started = performance.now();
  const result = streamText({
    model,
    prompt: "hi",
    tools,
    maxRetries: 0,
    onError: ({ error }) => errors.push(String(error)),
  });
  let parts = 0;
  for await (const _part of result.fullStream) parts += 1;
  const seconds = (performance.now() - started) / 1000;
  const calls = (await result.toolCalls).length;
  return { seconds, parts, calls, error: errors[0] ?? null };
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === "") continue;
  process.stdout.write(`${JSON.stringify(await read(line.trim()))}\n`);
}
