// Drives Parapet's gateway with the official Anthropic SDK as users write
// code today, against a fake upstream: a system prompt as cached text
// blocks, top-level cache_control, thinking disabled and adaptive, structured
// output (messages.parse), metadata.user_id,
// the stream helpers, models.list's paging parameters, refusals that must
// be clear (a thinking budget below 1,024, a server tool, an image that is not one), a stream aborted
// midway, and an upstream's refusal that the SDK must not retry. Prints
// one JSON object for the Go test to check.
import Anthropic from "@anthropic-ai/sdk";
import { jsonSchemaOutputFormat } from "@anthropic-ai/sdk/helpers/json-schema";

const [baseURL, apiKey] = process.argv.slice(2);
let calls = 0;
const counting = (url, init) => { calls++; return fetch(url, init); };
const client = new Anthropic({ baseURL, apiKey, maxRetries: 0 });
const out = {};
const user = [{ role: "user", content: "Hello" }];

const msg = await client.messages.create({
  model: "claude-test",
  max_tokens: 50,
  system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }],
  cache_control: { type: "ephemeral" },
  thinking: { type: "disabled" },
  metadata: { user_id: "u-1" },
  stop_sequences: ["never-there"],
  temperature: 0.2,
  top_k: 5,
  messages: [{ role: "user", content: [{ type: "text", text: "Hello", citations: null }] }],
}, { headers: { "anthropic-beta": "prompt-caching-2024-07-31" } });
out.accepted = msg.content[0].text;

// Adaptive thinking with an effort, as the newest Claude models take it.
const adaptive = await client.messages.create({
  model: "claude-test",
  max_tokens: 2000,
  thinking: { type: "adaptive", display: "summarized" },
  output_config: { effort: "low" },
  messages: user,
});
out.adaptive = adaptive.content[0].text;

// Structured output: messages.parse with output_config.format, read back
// as parsed_output.
const parsed = await client.messages.parse({
  model: "claude-test",
  max_tokens: 200,
  output_config: { format: jsonSchemaOutputFormat({
    type: "object", properties: { city: { type: "string" }, sunny: { type: "boolean" } },
    required: ["city", "sunny"], additionalProperties: false,
  }) },
  messages: [{ role: "user", content: "Weather in Paris?" }],
});
out.parsed = parsed.parsed_output;

const stream = client.messages.stream({ model: "claude-test", max_tokens: 50, messages: user });
let text = "";
stream.on("text", (t) => { text += t; });
const final = await stream.finalMessage();
out.stream_same = text === final.content[0].text && text.length > 0;

const pages = {};
for (const [name, params] of Object.entries({ first: { limit: 1 }, after: { after_id: "claude-test" }, before: { before_id: "claude-test" } })) {
  const p = await client.models.list(params);
  pages[name] = [p.data.map((m) => m.id).join(","), p.has_more, p.first_id].join(" ");
}
try {
  await client.models.list({ limit: 0 });
  pages.limit0 = "accepted";
} catch (e) {
  pages.limit0 = e.constructor.name + " " + e.status;
}
out.pages = pages;

const refused = {};
for (const [name, extra] of Object.entries({
  thinking: { thinking: { type: "enabled", budget_tokens: 512 } },
  tool_use: { tools: [{ type: "web_search_20250305", name: "web_search" }] },
  image: { messages: [{ role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } }] }] },
})) {
  try {
    await client.messages.create({ model: "claude-test", max_tokens: 10, messages: user, ...extra });
    refused[name] = "accepted";
  } catch (e) {
    refused[name] = [e.constructor.name, e.status, e.error?.error?.type, e.error?.error?.message].join(" | ");
  }
}
out.refused = refused;

const cut = client.messages.stream({ model: "claude-test", max_tokens: 200, messages: user });
let deltas = 0;
cut.on("text", () => { if (++deltas === 3) cut.abort(); });
try {
  await cut.finalMessage();
  out.aborted = "not aborted";
} catch (e) {
  out.aborted = e.constructor.name;
}

try {
  await new Anthropic({ baseURL, apiKey, maxRetries: 2, fetch: counting }).messages.create({ model: "refuse-me", max_tokens: 10, messages: user });
  out.upstream_refusal = "accepted";
} catch (e) {
  out.upstream_refusal = e.constructor.name + " " + e.status + " after " + calls + " call(s)";
}
console.log(JSON.stringify(out));
