// A whole tool-use loop with the official openai SDK, unmodified: define
// a function tool, the model calls it, the client sends the result as a
// role "tool" message, the model answers; once with
// chat.completions.create and once with chat.completions.stream(...)
// .finalChatCompletion(), which joins the streamed tool-call deltas.
// Prints one JSON object.
import OpenAI from "openai";

const [baseURL, apiKey] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey, maxRetries: 0 });
const tools = [{
  type: "function",
  function: {
    name: "get_weather", description: "The weather in a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
}];

async function turn(stream, messages) {
  const params = { model: "model-test", max_completion_tokens: 512, tools, messages };
  return stream
    ? client.chat.completions.stream({ ...params, stream_options: { include_usage: true } }).finalChatCompletion()
    : client.chat.completions.create(params);
}

async function loop(stream) {
  const messages = [{ role: "user", content: "What is the weather in Paris?" }];
  const first = await turn(stream, messages);
  const msg = first.choices[0].message;
  const call = msg.tool_calls[0];
  messages.push({ role: "assistant", content: msg.content, tool_calls: msg.tool_calls });
  messages.push({ role: "tool", tool_call_id: call.id, content: "sunny, 21 C" });
  const last = await turn(stream, messages);
  return {
    first_stop: first.choices[0].finish_reason, tool: call.function.name, input: JSON.parse(call.function.arguments), id: call.id,
    last_stop: last.choices[0].finish_reason, text: last.choices[0].message.content,
  };
}

console.log(JSON.stringify({ plain: await loop(false), stream: await loop(true) }));
