"""What the LiteLLM and OpenAI stand-ins share: one HTTP exchange with the local test server.

Every request goes to HAKO_REFPDL_SERVER (http://127.0.0.1:PORT/v1) + /chat/completions, whatever
the model's provider: the conformance cases compare what is sent, not where.
"""
import json
import os

import requests

import httpx


class Obj:
    """An attribute bag that dumps itself back to a dict, as the pydantic objects of the real
    clients do (`model_dump()`, LiteLLM's `json()`), and can be read like a dict."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def __getattr__(self, name):
        # A field the server left out reads as None, as in the clients' pydantic models.
        if name.startswith("__"):
            raise AttributeError(name)
        return None

    def model_dump(self, **_kwargs):
        return {k: _dump(v) for k, v in self.__dict__.items()}

    def json(self, **_kwargs):
        return self.model_dump()

    def get(self, key, default=None):
        return self.__dict__.get(key, default)

    def __getitem__(self, key):
        return self.__dict__[key]

    def __setitem__(self, key, value):
        self.__dict__[key] = value


def _dump(v):
    if isinstance(v, Obj):
        return v.model_dump()
    if isinstance(v, list):
        return [_dump(x) for x in v]
    if isinstance(v, dict):
        return {k: _dump(x) for k, x in v.items()}
    return v


def wrap(v):
    if isinstance(v, dict):
        return Obj(**{k: wrap(x) for k, x in v.items()})
    if isinstance(v, list):
        return [wrap(x) for x in v]
    return v


def url(base_url=None):
    base = os.environ.get("HAKO_REFPDL_SERVER") or base_url or "http://127.0.0.1:9/v1"
    return base.rstrip("/") + "/chat/completions"


class ApiError(Exception):
    """An HTTP error status from the server, named as the OpenAI client names it."""

    def __init__(self, status, body):
        try:
            message = json.loads(body)["error"]["message"]
        except (ValueError, KeyError, TypeError):
            message = body
        super().__init__(f"Error code: {status} - {message}")
        self.status_code = status


def post(body, headers, stream):
    target = url()
    all_headers = {"Content-Type": "application/json"}
    all_headers.update(headers)
    try:
        r = requests.post(target, data=json.dumps(body), headers=all_headers, stream=stream,
                          timeout=60)
    except requests.RequestException as exc:
        raise httpx.ConnectError(str(exc), request=httpx.Request("POST", target)) from exc
    if r.status_code != 200:
        raise ApiError(r.status_code, r.text)
    if not stream:
        return r.json()
    return _events(r)


def _events(r):
    for line in r.iter_lines(decode_unicode=False):
        if not line.startswith(b"data: "):
            continue
        data = line[len(b"data: "):]
        if data == b"[DONE]":
            return
        yield json.loads(data.decode("utf-8"))
