#!/usr/bin/env python3
"""Writes the OTLP/JSON fixtures of tests/core/otel (run from this folder; output committed).

An agent with an LLM call that asks for a tool, the tool call, a retriever and a final LLM
call, once in OpenInference attributes and once in OpenTelemetry GenAI attributes. Spans are
sent as several requests (one per line) in an order other than the tree's: children before
their parents. A second trace has a span whose parent never arrives."""
import json

T0 = 1_700_000_000_000_000_000


def av(v):
    if isinstance(v, bool):
        return {"boolValue": v}
    if isinstance(v, int):
        return {"intValue": str(v)}
    if isinstance(v, float):
        return {"doubleValue": v}
    if isinstance(v, list):
        return {"arrayValue": {"values": [av(x) for x in v]}}
    if isinstance(v, dict):
        return {"kvlistValue": {"values": [{"key": k, "value": av(x)} for k, x in v.items()]}}
    return {"stringValue": v}


def span(trace, sid, parent, name, start_ms, end_ms, attrs, events=(), error=None):
    s = {"traceId": trace, "spanId": sid, "name": name, "kind": 1,
         "startTimeUnixNano": str(T0 + start_ms * 1_000_000),
         "endTimeUnixNano": str(T0 + end_ms * 1_000_000),
         "attributes": [{"key": k, "value": av(v)} for k, v in attrs.items()],
         "status": {"code": 2, "message": error} if error else {}}
    if parent:
        s["parentSpanId"] = parent
    if events:
        s["events"] = [{"timeUnixNano": str(T0 + start_ms * 1_000_000), "name": n,
                        "attributes": [{"key": k, "value": av(v)} for k, v in a.items()]}
                       for n, a in events]
    return s


def request(spans, service):
    return {"resourceSpans": [{
        "resource": {"attributes": [{"key": "service.name", "value": av(service)},
                                    {"key": "deployment.environment", "value": av("test")}]},
        "scopeSpans": [{"scope": {"name": "fixture", "version": "1"}, "spans": spans}]}]}


def openinference():
    t = "0af7651916cd43dd8448eb211c80319c"
    agent = span(t, "a000000000000001", None, "weather-agent", 0, 900, {
        "openinference.span.kind": "AGENT", "input.value": "Weather in Paris?",
        "output.value": "It is sunny in Paris, 21 C.", "agent.name": "weather-agent",
        "session.id": "s-42"})
    llm1 = span(t, "a000000000000002", "a000000000000001", "ChatOpenAI", 10, 200, {
        "openinference.span.kind": "LLM", "llm.model_name": "gpt-4o-mini",
        "llm.provider": "openai",
        "llm.invocation_parameters": json.dumps({"temperature": 0.2, "max_tokens": 256}),
        "llm.input_messages.0.message.role": "system",
        "llm.input_messages.0.message.content": "You answer weather questions.",
        "llm.input_messages.1.message.role": "user",
        "llm.input_messages.1.message.content": "Weather in Paris?",
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.tool_calls.0.tool_call.id": "call_1",
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "get_weather",
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments":
            json.dumps({"city": "Paris"}),
        "llm.token_count.prompt": 42, "llm.token_count.completion": 9,
        "llm.token_count.total": 51,
        "llm.prompt_template.template": "Weather in {city}?",
        "llm.prompt_template.variables": json.dumps({"city": "Paris"}),
        "custom.flag": True})
    tool = span(t, "a000000000000003", "a000000000000001", "get_weather", 210, 300, {
        "openinference.span.kind": "TOOL", "tool.name": "get_weather",
        "tool.parameters": json.dumps({"type": "object", "properties": {"city": {"type": "string"}}}),
        "input.value": json.dumps({"city": "Paris"}), "input.mime_type": "application/json",
        "output.value": json.dumps({"temp_c": 21, "sky": "sunny"}),
        "output.mime_type": "application/json"})
    retr = span(t, "a000000000000004", "a000000000000001", "retrieve-guides", 310, 400, {
        "openinference.span.kind": "RETRIEVER", "input.value": "Paris travel",
        "retrieval.documents.0.document.id": "doc-7",
        "retrieval.documents.0.document.content": "Paris in June is mild.",
        "retrieval.documents.0.document.score": 0.92,
        "retrieval.documents.1.document.id": "doc-3",
        "retrieval.documents.1.document.content": "Bring an umbrella in autumn.",
        "retrieval.documents.1.document.score": 0.41})
    llm2 = span(t, "a000000000000005", "a000000000000001", "ChatOpenAI", 410, 880, {
        "openinference.span.kind": "LLM", "llm.model_name": "gpt-4o-mini",
        "llm.input_messages.0.message.role": "user",
        "llm.input_messages.0.message.content": "Weather in Paris?",
        "llm.input_messages.1.message.role": "tool",
        "llm.input_messages.1.message.content": "{\"temp_c\": 21, \"sky\": \"sunny\"}",
        "llm.input_messages.1.message.tool_call_id": "call_1",
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.content": "It is sunny in Paris, 21 C.",
        "llm.token_count.prompt": 80, "llm.token_count.completion": 12})
    # Arrival: the last LLM and the tool first, then the root, then the rest.
    lines = [request([llm2, tool], "weather-app"), request([agent], "weather-app"),
             request([retr, llm1], "weather-app")]
    # A second trace whose middle span never arrives.
    t2 = "1bf7651916cd43dd8448eb211c80319d"
    root2 = span(t2, "b000000000000001", None, "batch", 0, 100, {"openinference.span.kind": "CHAIN"})
    orphan = span(t2, "b000000000000003", "b000000000000002", "ChatOpenAI", 20, 60, {
        "openinference.span.kind": "LLM", "llm.model_name": "gpt-4o-mini",
        "llm.input_messages.0.message.role": "user",
        "llm.input_messages.0.message.content": "hi",
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.content": "hello"}, error="rate limited")
    lines.append(request([orphan, root2], "weather-app"))
    return lines


def genai():
    t = "2cf7651916cd43dd8448eb211c80319e"
    agent = span(t, "c000000000000001", None, "invoke_agent weather", 0, 900, {
        "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "weather",
        "gen_ai.provider.name": "openai"})
    chat1 = span(t, "c000000000000002", "c000000000000001", "chat gpt-4o", 10, 200, {
        "gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-4o", "gen_ai.response.model": "gpt-4o-2024-08-06",
        "gen_ai.request.temperature": 0.2, "gen_ai.request.max_tokens": 256,
        "gen_ai.system_instructions": json.dumps([{"type": "text", "content": "You answer weather questions."}]),
        "gen_ai.input.messages": json.dumps([{"role": "user", "parts": [{"type": "text", "content": "Weather in Paris?"}]}]),
        "gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": [
            {"type": "tool_call", "id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}}],
            "finish_reason": "tool_call"}]),
        "gen_ai.usage.input_tokens": 42, "gen_ai.usage.output_tokens": 9,
        "gen_ai.response.finish_reasons": ["tool_call"], "gen_ai.response.id": "resp-1",
        "server.address": "api.openai.com"})
    tool = span(t, "c000000000000003", "c000000000000001", "execute_tool get_weather", 210, 300, {
        "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "get_weather",
        "gen_ai.tool.call.id": "call_1",
        "gen_ai.tool.call.arguments": json.dumps({"city": "Paris"}),
        "gen_ai.tool.call.result": json.dumps({"temp_c": 21, "sky": "sunny"})})
    retr = span(t, "c000000000000004", "c000000000000001", "search guides", 310, 400, {
        "gen_ai.retrieval.documents": json.dumps([
            {"id": "doc-7", "score": 0.92, "content": "Paris in June is mild."},
            {"id": "doc-3", "score": 0.41, "content": "Bring an umbrella in autumn."}])})
    # The older form: messages as span events.
    chat2 = span(t, "c000000000000005", "c000000000000001", "chat gpt-4o", 410, 880, {
        "gen_ai.operation.name": "chat", "gen_ai.system": "openai",
        "gen_ai.request.model": "gpt-4o",
        "gen_ai.usage.input_tokens": 80, "gen_ai.usage.output_tokens": 12},
        events=[("gen_ai.user.message", {"content": "Weather in Paris?"}),
                ("gen_ai.tool.message", {"content": "{\"temp_c\": 21}", "id": "call_1"}),
                ("gen_ai.choice", {"index": 0, "finish_reason": "stop",
                                   "message": json.dumps({"role": "assistant", "content": "It is sunny in Paris, 21 C."})})])
    return [request([chat2, retr, tool, chat1, agent], "weather-genai")]


with open("openinference_agent.jsonl", "w") as f:
    for line in openinference():
        f.write(json.dumps(line, separators=(",", ":")) + "\n")
with open("genai_agent.json", "w") as f:
    json.dump(genai()[0], f, indent=1)
    f.write("\n")
