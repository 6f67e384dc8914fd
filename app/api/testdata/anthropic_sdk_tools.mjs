// A whole tool-use loop with the official Anthropic SDK, unmodified:
// define a tool, the model calls it, the client sends the result, the
// model answers; once with messages.create and once with
// messages.stream(...).finalMessage(). Prints one JSON object.
import Anthropic from "@anthropic-ai/sdk";

const [baseURL, apiKey] = process.argv.slice(2);
const client = new Anthropic({ baseURL, apiKey, maxRetries: 0 });
const tools = [{
  name: "get_weather",
  description: "The weather in a city",
  input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
}];

async function turn(stream, messages) {
  const params = { model: "model-test", max_tokens: 512, tools, messages };
  return stream ? client.messages.stream(params).finalMessage() : client.messages.create(params);
}

async function loop(stream) {
  const messages = [{ role: "user", content: "What is the weather in Paris?" }];
  const first = await turn(stream, messages);
  const call = first.content.find((b) => b.type === "tool_use");
  messages.push({ role: "assistant", content: first.content });
  messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: "sunny, 21 C" }] });
  const last = await turn(stream, messages);
  return {
    first_stop: first.stop_reason, tool: call.name, input: call.input, id: call.id,
    last_stop: last.stop_reason, text: last.content.filter((b) => b.type === "text").map((b) => b.text).join(""),
  };
}

console.log(JSON.stringify({ plain: await loop(false), stream: await loop(true) }));
