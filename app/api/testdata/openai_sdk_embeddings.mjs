// Embeddings through the official openai SDK, unmodified: a string and an
// array of strings (the SDK asks for base64 and decodes it itself), and
// explicit floats. Prints one JSON object, or the error a call raised.
import OpenAI from "openai";

const [baseURL, apiKey] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey, maxRetries: 0 });
const out = {};
try {
  const one = await client.embeddings.create({ model: "embed-test", input: "Parapet guards the gateway." });
  const two = await client.embeddings.create({ model: "embed-test", input: ["first", "second"], encoding_format: "float" });
  out.one = one.data[0].embedding;
  out.two = two.data.map((d) => d.embedding);
  out.usage = one.usage.prompt_tokens + two.usage.prompt_tokens;
  out.models = (await client.models.list()).data.map((m) => `${m.id}:${m.kind}`);
} catch (e) {
  out.error = [e.constructor.name, e.status, e.code].join(" | ");
}
console.log(JSON.stringify(out));
