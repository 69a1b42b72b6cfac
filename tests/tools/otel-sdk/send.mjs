// Sends one agent trace through the real OpenTelemetry JavaScript SDK to an OTLP/HTTP
// endpoint: node send.mjs URL json|protobuf. An AGENT span with an LLM child (OpenInference
// messages and token counts), a TOOL child and a GenAI chat child.
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { context, trace } from '@opentelemetry/api';

const [url, encoding] = process.argv.slice(2);
const Exporter = encoding === 'protobuf' ? ProtoExporter : JsonExporter;
const exporter = new Exporter({ url });
const provider = new TracerProvider({
  resource: resourceFromAttributes({ 'service.name': `sdk-${encoding}`, 'deployment.environment': 'ci' }),
  spanProcessors: [new SimpleSpanProcessor({ exporter })],
});
const tracer = provider.getTracer('hako-sdk-test', '1.0.0');

const agent = tracer.startSpan('sdk-agent', { attributes: { 'openinference.span.kind': 'AGENT' } });
const ctx = trace.setSpan(context.active(), agent);
const llm = tracer.startSpan('sdk-llm', {
  attributes: {
    'openinference.span.kind': 'LLM',
    'llm.model_name': 'gpt-4o-mini',
    'llm.input_messages.0.message.role': 'user',
    'llm.input_messages.0.message.content': 'What is 2+2?',
    'llm.output_messages.0.message.role': 'assistant',
    'llm.output_messages.0.message.content': '4',
    'llm.token_count.prompt': 7,
    'llm.token_count.completion': 1,
  },
}, ctx);
llm.end();
const tool = tracer.startSpan('calculator', {
  attributes: { 'openinference.span.kind': 'TOOL', 'tool.name': 'calculator', 'input.value': '2+2', 'output.value': '4' },
}, ctx);
tool.end();
const chat = tracer.startSpan('chat gpt-4o', {
  attributes: {
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': 'gpt-4o',
    'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Thanks!' }] }]),
    'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'You are welcome.' }] }]),
    'gen_ai.usage.input_tokens': 3,
    'gen_ai.usage.output_tokens': 4,
  },
}, ctx);
chat.end();
agent.end();
await provider.forceFlush();
await provider.shutdown();
