"""Stand-in for LiteLLM's completion()/acompletion() against an OpenAI-compatible server.

As LiteLLM does for such an endpoint: the standard OpenAI parameters and any provider-specific
ones go in the JSON body, parameters set to None are left out, LiteLLM's own arguments never
reach the wire, `extra_headers` become headers and `extra_body`'s fields join the body.
The provider prefix is routed as Hako routes it (`openai/`, `ollama/`, `ollama_chat/`: the rest
of the name; anything else: the whole name, as sent to a LiteLLM proxy).
Replies come back shaped as the reference reads them (pdl_llms.py).
"""
import os

from refpdl_wire import Obj, post, wrap

suppress_debug_info = False
input_callback = []
callbacks = []

# LiteLLM's own arguments (its completion() signature and chat-template options): consumed by
# LiteLLM, never sent to the server.
_LITELLM_ONLY = {
    "api_base", "base_url", "api_key", "api_version", "api_type", "custom_llm_provider",
    "drop_params", "timeout", "num_retries", "max_retries", "mock_response", "roles",
    "final_prompt_value", "initial_prompt_value", "bos_token", "eos_token", "fallbacks",
    "context_window_fallback_dict", "caching", "metadata", "logger_fn", "model_list",
    "input_cost_per_token", "output_cost_per_token", "stream_timeout", "deployment_id",
    "extra_headers", "extra_body", "litellm_logging_obj", "acompletion",
}
_STRIPPED_PREFIXES = ("openai/", "ollama/", "ollama_chat/")


def _model_name(model):
    for p in _STRIPPED_PREFIXES:
        if model.startswith(p):
            return model[len(p):]
    return model


def _request(model, messages, stream, kwargs):
    body = {"model": _model_name(model), "messages": messages}
    for k, v in kwargs.items():
        if k in _LITELLM_ONLY or v is None:
            continue
        body[k] = v
    if stream:
        body["stream"] = True
    if isinstance(kwargs.get("extra_body"), dict):
        body.update(kwargs["extra_body"])
    headers = {}
    # The OpenAI provider (`openai/` or no prefix) sends OPENAI_API_KEY; other providers'
    # credentials are their own business (Hako reaches them through a LiteLLM proxy).
    if model.startswith("openai/") or "/" not in model:
        key = kwargs.get("api_key") or os.environ.get("OPENAI_API_KEY")
        if key:
            headers["Authorization"] = f"Bearer {key}"
    for k, v in (kwargs.get("extra_headers") or {}).items():
        headers[k] = str(v)
    return body, headers


def _message(m):
    # LiteLLM's Message dumps these four fields whatever the server sent.
    return Obj(content=m.get("content"), role=m.get("role"), tool_calls=wrap(m.get("tool_calls")),
               function_call=wrap(m.get("function_call")))


def _response(data):
    choices = [Obj(finish_reason=c.get("finish_reason"), index=c.get("index", 0),
                   message=_message(c.get("message") or {}))
               for c in data.get("choices", [])]
    return Obj(id=data.get("id"), created=data.get("created"), model=data.get("model"),
               object=data.get("object"), choices=choices, usage=wrap(data.get("usage")))


def completion(model, messages, stream=False, **kwargs):
    body, headers = _request(model, messages, stream, kwargs)
    if not stream:
        return _response(post(body, headers, False))
    return _stream(post(body, headers, True))


async def acompletion(model, messages, stream=False, **kwargs):
    return completion(model, messages, stream=stream, **kwargs)


def _stream(events):
    # LiteLLM's stream wrapper gives every chunk one choice; the usage-only chunk the server
    # sends last (with no choices) becomes a chunk with an empty delta that carries the usage.
    for e in events:
        choices = e.get("choices") or [{"index": 0, "delta": {}, "finish_reason": None}]
        c = choices[0]
        d = c.get("delta") or {}
        delta = Obj(content=d.get("content"), role=d.get("role"),
                    function_call=wrap(d.get("function_call")),
                    tool_calls=wrap(d.get("tool_calls")))
        yield Obj(id=e.get("id"), created=e.get("created"), model=e.get("model"),
                  object=e.get("object"),
                  choices=[Obj(index=c.get("index", 0), delta=delta,
                               finish_reason=c.get("finish_reason"))],
                  usage=wrap(e.get("usage")))
