// Drives Parapet's gateway with the official openai SDK as users write code
// today, against a fake upstream: the newer options (max_completion_tokens,
// developer role, seed, metadata, safety_identifier, store false, logprobs
// false, response_format text), refusals that must be clear (n > 1, a
// custom tool, a function turn, an image by plain http, a json_schema
// without its schema), headers through withResponse,
// a stream aborted midway, and an upstream's refusal that the SDK must not
// retry. Prints one JSON object for the Go test to check.
import OpenAI from "openai";

const [baseURL, apiKey] = process.argv.slice(2);
let calls = 0;
const counting = (url, init) => { calls++; return fetch(url, init); };
const client = new OpenAI({ baseURL, apiKey, maxRetries: 0 });
const out = {};
const user = [{ role: "user", content: "Hello" }];

const { data, response } = await client.chat.completions.create({
  model: "claude-test",
  max_completion_tokens: 50,
  seed: 42,
  user: "u-1",
  safety_identifier: "u-2",
  metadata: { run: "nightly" },
  store: false,
  logprobs: false,
  response_format: { type: "text" },
  stop: "never-there",
  messages: [{ role: "developer", content: "Be brief." }, ...user],
}).withResponse();
out.accepted = data.choices[0].message.content;
out.request_id = response.headers.get("x-request-id") === data._request_id && data._request_id.startsWith("req_");

const refused = {};
for (const [name, extra] of Object.entries({
  n: { n: 2 },
  tools: { tools: [{ type: "custom", custom: { name: "f" } }] },
  tool_turn: { messages: [...user, { role: "function", name: "f", content: "42" }] },
  image: { messages: [{ role: "user", content: [{ type: "text", text: "What?" }, { type: "image_url", image_url: { url: "http://169.254.169.254/a.png" } }] }] },
  json: { response_format: { type: "json_schema", json_schema: { name: "answer" } } },
})) {
  try {
    await client.chat.completions.create({ model: "claude-test", messages: user, ...extra });
    refused[name] = "accepted";
  } catch (e) {
    refused[name] = [e.constructor.name, e.status, e.code, e.error?.message].join(" | ");
  }
}
out.refused = refused;

// A stream the caller aborts after three chunks.
const stream = await client.chat.completions.create({
  model: "claude-test", max_tokens: 200, stream: true, stream_options: { include_usage: true }, messages: user,
});
let chunks = 0;
try {
  for await (const chunk of stream) {
    if (++chunks === 3) stream.controller.abort();
  }
  out.aborted = "ended after " + chunks;
} catch (e) {
  out.aborted = e.constructor.name + " after " + chunks;
}

// The upstream refuses the request (400): allowed 2 retries, the SDK
// makes one call.
try {
  await new OpenAI({ baseURL, apiKey, maxRetries: 2, fetch: counting }).chat.completions.create({ model: "refuse-me", messages: user });
  out.upstream_refusal = "accepted";
} catch (e) {
  out.upstream_refusal = e.constructor.name + " " + e.status + " after " + calls + " call(s)";
}
console.log(JSON.stringify(out));
