"""Stand-in for httpx: the reference only catches `httpx.RequestError`."""


class Request:
    def __init__(self, method, url):
        self.method = method
        self.url = url


class RequestError(Exception):
    """A request that did not get an HTTP answer (as httpx names it)."""

    def __init__(self, message, request=None):
        super().__init__(message)
        self.request = request


class ConnectError(RequestError):
    pass
