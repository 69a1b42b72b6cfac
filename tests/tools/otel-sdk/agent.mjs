// A small agent traced the way a real one is: the OpenTelemetry JavaScript SDK with the
// OpenInference instrumentation of the `openai` client. One run is an AGENT span (with
// session.id and user.id) holding two chat completions through the instrumented client (LLM
// spans made by the instrumentation) and a TOOL span between them. Every span is exported over
// OTLP/HTTP JSON when it ends, with a pause between the steps, so that a receiver sees the run
// while it goes on.
//
//   node agent.mjs --otlp URL --model-url URL [--session ID] [--user NAME] [--question TEXT]
//                  [--pause MS] [--name NAME]
//
// Prints one line per step to stdout (`step llm 1`, `step tool`, `done <trace id>`).
import * as openaiModule from 'openai';
import { OpenAIInstrumentation } from '@arizeai/openinference-instrumentation-openai';
import { setSession, setUser } from '@arizeai/openinference-core';
import { SemanticConventions } from '@arizeai/openinference-semantic-conventions';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { context, trace } from '@opentelemetry/api';

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback;
}

const otlpUrl = option('otlp');
const modelUrl = option('model-url');
if (!otlpUrl || !modelUrl) {
  console.error('usage: node agent.mjs --otlp URL --model-url URL [--session ID] [--user NAME] ' +
                '[--question TEXT] [--pause MS] [--name NAME]');
  process.exit(2);
}
const sessionId = option('session', '');
const userId = option('user', '');
const question = option('question', 'What should I pack for Kyoto this weekend?');
const pause = Number(option('pause', '1500'));
const agentName = option('name', 'travel-agent');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const provider = new TracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'hako-live-agent' }),
  spanProcessors: [new SimpleSpanProcessor({ exporter: new OTLPTraceExporter({ url: otlpUrl }) })],
});
trace.setGlobalTracerProvider(provider);
const instrumentation = new OpenAIInstrumentation({ tracerProvider: provider });
instrumentation.manuallyInstrument(openaiModule);
const tracer = provider.getTracer('hako-live-agent', '1.0.0');

const client = new openaiModule.OpenAI({ apiKey: 'test-key', baseURL: modelUrl, maxRetries: 0 });
const S = SemanticConventions;

async function ask(messages) {
  const reply = await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
  return reply.choices[0].message.content;
}

let ctx = context.active();
if (sessionId)
  ctx = setSession(ctx, { sessionId });
if (userId)
  ctx = setUser(ctx, { userId });
const agent = tracer.startSpan(agentName, {
  attributes: {
    [S.OPENINFERENCE_SPAN_KIND]: 'AGENT',
    [S.INPUT_VALUE]: question,
    ...(sessionId ? { [S.SESSION_ID]: sessionId } : {}),
    ...(userId ? { [S.USER_ID]: userId } : {}),
  },
}, ctx);
const traceId = agent.spanContext().traceId;
await context.with(trace.setSpan(ctx, agent), async () => {
  const plan = await ask([{ role: 'system', content: 'You plan trips.' },
                          { role: 'user', content: question }]);
  console.log('step llm 1');
  await sleep(pause);
  const tool = tracer.startSpan('lookup_weather', {
    attributes: {
      [S.OPENINFERENCE_SPAN_KIND]: 'TOOL',
      [S.TOOL_NAME]: 'lookup_weather',
      [S.INPUT_VALUE]: JSON.stringify({ city: 'Kyoto' }),
      [S.INPUT_MIME_TYPE]: 'application/json',
      ...(sessionId ? { [S.SESSION_ID]: sessionId } : {}),
    },
  });
  await sleep(pause / 3);
  tool.setAttribute(S.OUTPUT_VALUE, 'rain on Saturday, 12°C');
  tool.end();
  console.log('step tool');
  await sleep(pause);
  const answer = await ask([{ role: 'user', content: question },
                            { role: 'assistant', content: plan },
                            { role: 'user', content: 'The weather: rain on Saturday, 12°C. Answer briefly.' }]);
  console.log('step llm 2');
  agent.setAttribute(S.OUTPUT_VALUE, answer);
  await sleep(pause);
});
agent.end();
await provider.forceFlush();
await provider.shutdown();
console.log(`done ${traceId}`);
