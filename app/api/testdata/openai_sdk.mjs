// Drives Parapet's gateway with the official openai TypeScript SDK,
// unmodified, with baseURL = the gateway's /gateway/v1: a completion, a
// stream with usage, models.list, models.retrieve, a call over quota, and
// a call with a bad key. Prints one JSON object for the Go test to check.
import OpenAI from "openai";

const [baseURL, apiKey] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey, maxRetries: 0 });
const out = {};

const done = await client.chat.completions.create({
  model: "parapet-demo",
  max_tokens: 64,
  temperature: 0.5,
  user: "sdk-user",
  messages: [
    { role: "system", content: "Answer briefly." },
    { role: "user", content: "Hello from the openai SDK" },
  ],
});
out.object = done.object;
out.text = done.choices[0].message.content;
out.finish_reason = done.choices[0].finish_reason;
out.usage = done.usage;

const stream = await client.chat.completions.create({
  model: "parapet-demo",
  max_completion_tokens: 64,
  stop: ["never-there"],
  // what clients that send every option with its default add
  frequency_penalty: 0,
  presence_penalty: 0,
  logit_bias: {},
  store: false,
  stream: true,
  stream_options: { include_usage: true },
  messages: [{ role: "user", content: [{ type: "text", text: "Stream to the openai SDK" }] }],
});
let text = "";
let chunks = 0;
for await (const chunk of stream) {
  chunks++;
  if (chunk.choices.length > 0) text += chunk.choices[0].delta.content ?? "";
  if (chunk.usage) out.stream_usage = chunk.usage;
}
out.stream_text = text;
out.stream_chunks = chunks;

const models = [];
for await (const m of client.models.list()) models.push(m.id);
out.models = models;

// models.retrieve: one model as the list has it; any other is NotFoundError.
const model = await client.models.retrieve("parapet-demo");
out.model = [model.id, model.object, model.owned_by].join(" ");
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
  await new OpenAI({ baseURL, apiKey, maxRetries: 2, fetch: counting }).chat.completions.create({
    model: "parapet-demo", max_tokens: 8192, messages: [{ role: "user", content: "x" }],
  });
  out.quota = "accepted";
} catch (e) {
  out.quota = e.constructor.name + " " + e.status + " after " + attempts + " call(s)";
}

try {
  await new OpenAI({ baseURL, apiKey: "ppk_wrong", maxRetries: 0 }).chat.completions.create({
    model: "parapet-demo", messages: [{ role: "user", content: "x" }],
  });
  out.bad_key = "accepted";
} catch (e) {
  out.bad_key = e.constructor.name + " " + e.status;
}
console.log(JSON.stringify(out));
