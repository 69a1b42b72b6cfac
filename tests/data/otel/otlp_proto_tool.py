#!/usr/bin/env python3
"""Independent OTLP/protobuf encoder and decoder for tst_otlpprotobuf (python3-protobuf).

usage: otlp_proto_tool.py GENERATED_DIR encode OUT.bin   writes a request with known content
       otlp_proto_tool.py GENERATED_DIR decode IN.bin    prints the request as JSON"""
import json
import sys

sys.path.insert(0, sys.argv[1])
import otlp_trace_pb2 as pb  # noqa: E402


def kv(key, value):
    out = pb.KeyValue(key=key)
    if isinstance(value, bool):
        out.value.bool_value = value
    elif isinstance(value, int):
        out.value.int_value = value
    elif isinstance(value, float):
        out.value.double_value = value
    elif isinstance(value, bytes):
        out.value.bytes_value = value
    elif isinstance(value, list):
        for v in value:
            out.value.array_value.values.append(kv("", v).value)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.value.kvlist_value.values.append(kv(k, v))
    else:
        out.value.string_value = value
    return out


def encode(path):
    req = pb.ExportTraceServiceRequest()
    rs = req.resource_spans.add()
    rs.resource.attributes.append(kv("service.name", "proto-app"))
    rs.schema_url = "https://opentelemetry.io/schemas/1.26.0"
    ss = rs.scope_spans.add()
    ss.scope.name = "proto-scope"
    ss.scope.version = "9.9"
    root = ss.spans.add(trace_id=bytes.fromhex("4bf92f3577b34da6a3ce929d0e0e4736"),
                        span_id=bytes.fromhex("00f067aa0ba902b7"), name="agent", kind=1,
                        start_time_unix_nano=1700000000000000000,
                        end_time_unix_nano=1700000000900000000, flags=1)
    root.attributes.append(kv("openinference.span.kind", "AGENT"))
    llm = ss.spans.add(trace_id=bytes.fromhex("4bf92f3577b34da6a3ce929d0e0e4736"),
                       span_id=bytes.fromhex("00f067aa0ba902b8"),
                       parent_span_id=bytes.fromhex("00f067aa0ba902b7"), name="chat",
                       kind=3, start_time_unix_nano=1700000000100000000,
                       end_time_unix_nano=1700000000500000000)
    for k, v in [("gen_ai.operation.name", "chat"), ("gen_ai.request.model", "gpt-4o"),
                 ("gen_ai.usage.input_tokens", 1234567890123), ("gen_ai.usage.output_tokens", -5),
                 ("gen_ai.request.temperature", 0.25), ("flag", True),
                 ("tags", ["a", 2, 3.5]), ("nested", {"x": "é✓", "y": [False]}),
                 ("blob", b"\x00\xff")]:
        llm.attributes.append(kv(k, v))
    ev = llm.events.add(time_unix_nano=1700000000200000000, name="gen_ai.user.message")
    ev.attributes.append(kv("content", "Bonjour ✓"))
    llm.links.add(trace_id=bytes(16), span_id=bytes(8))
    llm.status.code = pb.Status.STATUS_CODE_ERROR
    llm.status.message = "boom"
    with open(path, "wb") as f:
        f.write(req.SerializeToString())


def value(v):
    which = v.WhichOneof("value")
    if which == "array_value":
        return [value(x) for x in v.array_value.values]
    if which == "kvlist_value":
        return {x.key: value(x.value) for x in v.kvlist_value.values}
    if which == "bytes_value":
        return v.bytes_value.hex()
    return getattr(v, which) if which else None


def decode(path):
    req = pb.ExportTraceServiceRequest()
    with open(path, "rb") as f:
        req.ParseFromString(f.read())
    spans = []
    for rs in req.resource_spans:
        res = {a.key: value(a.value) for a in rs.resource.attributes}
        for ss in rs.scope_spans:
            for s in ss.spans:
                spans.append({
                    "traceId": s.trace_id.hex(), "spanId": s.span_id.hex(),
                    "parentSpanId": s.parent_span_id.hex(), "name": s.name, "kind": s.kind,
                    "start": str(s.start_time_unix_nano), "end": str(s.end_time_unix_nano),
                    "attributes": {a.key: value(a.value) for a in s.attributes},
                    "events": [{"name": e.name, "time": str(e.time_unix_nano),
                                "attributes": {a.key: value(a.value) for a in e.attributes}}
                               for e in s.events],
                    "status": [s.status.code, s.status.message],
                    "resource": res, "scope": ss.scope.name})
    print(json.dumps(spans, sort_keys=True))


if sys.argv[2] == "encode":
    encode(sys.argv[3])
else:
    decode(sys.argv[3])
