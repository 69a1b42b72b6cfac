"""Stand-in for the OpenAI Python client's `OpenAI(...).chat.completions.create(...)`.

As the real client: every argument given is sent in the body (None as null), `extra_headers`
as headers, `extra_body` merged into the body, `extra_query`/`timeout` never in the body, and an
argument the real create() does not take is a TypeError. The request goes to the local server.
"""
from refpdl_wire import post, wrap

# The keyword arguments of the real Completions.create() (chat).
_CREATE_ARGS = {
    "messages", "model", "audio", "frequency_penalty", "function_call", "functions",
    "logit_bias", "logprobs", "max_completion_tokens", "max_tokens", "metadata", "modalities",
    "n", "parallel_tool_calls", "prediction", "presence_penalty", "reasoning_effort",
    "response_format", "seed", "service_tier", "stop", "store", "stream", "stream_options",
    "temperature", "tool_choice", "tools", "top_logprobs", "top_p", "user", "web_search_options",
    "extra_headers", "extra_query", "extra_body", "timeout", "prompt_cache_key",
    "safety_identifier", "verbosity",
}


class _Completions:
    def __init__(self, client):
        self._client = client

    def create(self, **kwargs):
        for k in kwargs:
            if k not in _CREATE_ARGS:
                raise TypeError(f"Completions.create() got an unexpected keyword argument '{k}'")
        body = {k: v for k, v in kwargs.items()
                if k not in ("extra_headers", "extra_query", "extra_body", "timeout")}
        if isinstance(kwargs.get("extra_body"), dict):
            body.update(kwargs["extra_body"])
        headers = {"Authorization": f"Bearer {self._client.api_key}"}
        if self._client.organization:
            headers["OpenAI-Organization"] = self._client.organization
        for k, v in (kwargs.get("extra_headers") or {}).items():
            headers[k] = str(v)
        stream = bool(kwargs.get("stream"))
        data = post(body, headers, stream)
        if not stream:
            return wrap(data)
        return (wrap(e) for e in data)


class _Chat:
    def __init__(self, client):
        self.completions = _Completions(client)


class OpenAI:
    def __init__(self, api_key=None, base_url=None, organization=None, **_kwargs):
        import os

        self.api_key = api_key or os.environ.get("OPENAI_API_KEY")
        if self.api_key is None:
            raise OpenAIError("The api_key client option must be set either by passing api_key "
                              "to the client or by setting the OPENAI_API_KEY environment variable")
        self.base_url = base_url
        self.organization = organization
        self.chat = _Chat(self)


class OpenAIError(Exception):
    pass
