// The Vercel AI SDK's default OpenAI model, createOpenAI(...)(model),
// which speaks the Responses API: generateText with a tool it runs
// (stopWhen: the call, then the answer after its result), the same with
// streamText, and generateObject (text.format json_schema). Prints one
// JSON object.
import { generateText, streamText, generateObject, tool, stepCountIs } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { z } from "zod";

const [baseURL, apiKey] = process.argv.slice(2);
const model = createOpenAI({ baseURL, apiKey })("model-test");
const tools = {
  get_weather: tool({
    description: "The weather in a city", inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => `sunny in ${city}, 21 C`,
  }),
};
const prompt = "What is the weather in Paris?";

const gen = await generateText({ model, prompt, tools, stopWhen: stepCountIs(3), maxRetries: 0 });
const generate = { text: gen.text, steps: gen.steps.length, calls: gen.steps[0].toolCalls.map((c) => [c.toolName, c.input.city]), usage: gen.totalUsage.totalTokens };

const st = streamText({ model, prompt, tools, stopWhen: stepCountIs(3), maxRetries: 0 });
const parts = new Set();
for await (const part of st.fullStream) {
  if (part.type === "error") throw part.error;
  parts.add(part.type);
}
const stream = { text: await st.text, steps: (await st.steps).length, parts: [...parts].sort(), usage: (await st.totalUsage).totalTokens };

const obj = await generateObject({ model, prompt: "Weather in Paris?", schema: z.object({ city: z.string(), sunny: z.boolean() }), maxRetries: 0 });

console.log(JSON.stringify({ generate, stream, object: obj.object }));
