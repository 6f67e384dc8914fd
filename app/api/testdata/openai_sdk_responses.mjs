// The Responses API with the official openai SDK, unmodified: a whole
// tool loop (the answer's output items sent back with the function's
// output), once with responses.create and once with
// responses.stream(...).finalResponse(), which rebuilds the response from
// the events; the event types of responses.create({stream: true}); and
// the error a stateful call raises. Prints one JSON object.
import OpenAI from "openai";

const [baseURL, apiKey] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey, maxRetries: 0 });
const tools = [{
  type: "function", name: "get_weather", description: "The weather in a city", strict: false,
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
}];

async function turn(stream, input) {
  const params = { model: "model-test", instructions: "Use the tools.", max_output_tokens: 512, tools, input };
  return stream ? client.responses.stream(params).finalResponse() : client.responses.create(params);
}

async function loop(stream) {
  const input = [{ role: "user", content: "What is the weather in Paris?" }];
  const first = await turn(stream, input);
  const call = first.output.find((item) => item.type === "function_call");
  input.push(...first.output);
  input.push({ type: "function_call_output", call_id: call.call_id, output: "sunny, 21 C" });
  const last = await turn(stream, input);
  return {
    first_status: first.status, tool: call.name, input: JSON.parse(call.arguments), id: call.call_id,
    last_status: last.status, text: last.output_text, usage: last.usage.total_tokens,
  };
}

const events = [];
for await (const ev of await client.responses.create({ model: "model-test", input: "What is the weather in Paris?", tools, stream: true })) {
  events.push(ev.type);
}

let refused = "";
try {
  await client.responses.create({ model: "model-test", input: "Hi", previous_response_id: "resp_1" });
} catch (e) {
  refused = `${e.constructor.name} ${e.status} ${e.message}`;
}

console.log(JSON.stringify({ plain: await loop(false), stream: await loop(true), events: [...new Set(events)], refused }));
