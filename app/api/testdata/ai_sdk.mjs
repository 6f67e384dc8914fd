// The Vercel AI SDK (ai, @ai-sdk/openai, @ai-sdk/anthropic), unmodified,
// against the gateway with baseURL = /gateway/v1: for its openai provider's
// Chat Completions model and its anthropic provider, generateText,
// streamText with a tool it runs (a two-step loop), and generateObject
// with a zod schema. Prints one JSON object.
import { generateText, streamText, generateObject, tool, stepCountIs } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { z } from "zod";

const [baseURL, apiKey] = process.argv.slice(2);
const weather = tool({
  description: "The weather in a city",
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, sunny: true }),
});

async function check(model) {
  const out = {};
  const text = await generateText({ model, prompt: "Say hi", maxOutputTokens: 200, maxRetries: 0 });
  out.text = text.text;
  const stream = streamText({ model, prompt: "Weather in Paris?", tools: { weather }, stopWhen: stepCountIs(2), maxOutputTokens: 200, maxRetries: 0 });
  const parts = [];
  for await (const p of stream.fullStream) {
    if (p.type === "error") throw p.error;
    if (["tool-call", "tool-result", "finish-step", "finish"].includes(p.type)) parts.push(p.type);
  }
  out.stream_parts = parts.join(",");
  out.stream_text = await stream.text;
  const obj = await generateObject({ model, schema: z.object({ name: z.string(), age: z.number() }), prompt: "A person", maxOutputTokens: 200, maxRetries: 0 });
  out.object = obj.object;
  return out;
}

const openai = createOpenAI({ baseURL, apiKey });
const anthropic = createAnthropic({ baseURL, apiKey });
console.log(JSON.stringify({ openai: await check(openai.chat("parapet-demo")), anthropic: await check(anthropic("parapet-demo")) }));
