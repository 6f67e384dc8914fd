// Drives Parapet's gateway with the official Anthropic TypeScript SDK,
// unmodified, pointed at the gateway: a plain call, a streamed call,
// countTokens, models.list, models.retrieve, a call over quota, and a call
// with a bad key. Prints one JSON object for the Go test to check.
import Anthropic from "@anthropic-ai/sdk";

const [baseURL, apiKey] = process.argv.slice(2);
const client = new Anthropic({ baseURL, apiKey, maxRetries: 0 });
const out = {};

const msg = await client.messages.create({
  model: "parapet-demo",
  max_tokens: 64,
  system: "Answer briefly.",
  messages: [{ role: "user", content: "Hello from the official SDK" }],
});
out.text = msg.content.map((b) => b.text).join("");
out.usage = msg.usage;
out.stop_reason = msg.stop_reason;

const stream = client.messages.stream({
  model: "parapet-demo",
  max_tokens: 64,
  messages: [{ role: "user", content: "Stream to the SDK" }],
});
let deltas = 0;
stream.on("text", () => { deltas++; });
const final = await stream.finalMessage();
out.stream_text = final.content.map((b) => b.text).join("");
out.stream_deltas = deltas;
out.stream_usage = final.usage;

const count = await client.messages.countTokens({
  model: "parapet-demo",
  messages: [{ role: "user", content: "How many tokens is this?" }],
});
out.count_tokens = count.input_tokens;

const models = [];
for await (const m of client.models.list()) models.push(m.id);
out.models = models;

// models.retrieve: one model as the list has it; any other is NotFoundError.
const model = await client.models.retrieve("parapet-demo");
out.model = [model.id, model.type, model.display_name].join(" ");
try {
  await client.models.retrieve("not-a-model");
  out.unknown_model = "found";
} catch (e) {
  out.unknown_model = e.constructor.name + " " + e.status;
}

// Over quota (the test's organization has 8,000 tokens a month): the
// SDK, though allowed 2 retries, makes one call.
let attempts = 0;
const counting = (url, init) => { attempts++; return fetch(url, init); };
try {
  await new Anthropic({ baseURL, apiKey, maxRetries: 2, fetch: counting }).messages.create({
    model: "parapet-demo", max_tokens: 8192, messages: [{ role: "user", content: "x" }],
  });
  out.quota = "accepted";
} catch (e) {
  out.quota = e.constructor.name + " " + e.status + " after " + attempts + " call(s)";
}

try {
  await new Anthropic({ baseURL, apiKey: "ppk_wrong", maxRetries: 0 }).messages.create({
    model: "parapet-demo", max_tokens: 8, messages: [{ role: "user", content: "x" }],
  });
  out.bad_key = "accepted";
} catch (e) {
  out.bad_key = e.constructor.name + " " + e.status;
}
console.log(JSON.stringify(out));
