#include "core/pdl/code/pythondriver.h"

namespace hako::pdl::code {

// Written for Python >= 3.8 with only the standard library. Kept small: everything that can be
// decided in C++ is decided there.
static const char kDriver[] = R"PY(
import builtins, json, linecache, math, os, struct, sys, traceback, types

_CH = 3
os.set_inheritable(_CH, False)
_TAG = "\x00hako"
_objects = {}
_counter = [0, 0]  # next handle, next code block number
_SESSION = types.SimpleNamespace()
_I64_MIN, _I64_MAX = -(1 << 63), (1 << 63) - 1
_MAX_DEPTH = 200


def _read_exact(n):
    buf = bytearray()
    while len(buf) < n:
        chunk = os.read(_CH, n - len(buf))
        if not chunk:
            os._exit(0)
        buf += chunk
    return bytes(buf)


def _send(obj):
    data = json.dumps(obj, ensure_ascii=False, allow_nan=False).encode("utf-8", "replace")
    view = memoryview(struct.pack(">I", len(data)) + data)
    while view:
        n = os.write(_CH, view)
        view = view[n:]


class _PdlOpaque:
    """A PDL function: shows its repr; a call runs it in the interpreter (a callback frame
    answered before the exec request is), unless the host gave it no id."""

    def __init__(self, text, fid=None):
        self._text = text
        self._fid = fid

    def __repr__(self):
        return self._text

    def __call__(self, *args, **kwargs):
        if self._fid is None:
            raise TypeError(self._text + " is a PDL function and cannot be called here")
        notes = []
        _send({"callback": self._fid, "args": [_enc(a, notes) for a in args],
               "kwargs": {k: _enc(v, notes) for k, v in kwargs.items()}})
        size = struct.unpack(">I", _read_exact(4))[0]
        reply = json.loads(_read_exact(size).decode("utf-8"))
        if not reply.get("ok"):
            raise RuntimeError(reply.get("message", "the PDL function failed"))
        return _dec(reply.get("result"))


def _dec(v):
    t = type(v)
    if t is list:
        return [_dec(x) for x in v]
    if t is dict:
        tag = v.get(_TAG)
        if tag is None:
            return {k: _dec(x) for k, x in v.items()}
        if tag == "object":
            try:
                return _objects[v["id"]]
            except KeyError:
                raise RuntimeError("the Python object %s is no longer available" % v.get("repr", ""))
        if tag == "float":
            return float(v["v"])
        if tag == "tuple":
            return tuple(_dec(x) for x in v["items"])
        if tag == "dict":
            out = {}
            for k, x in v["items"]:
                k = _dec(k)
                if type(k) is list:
                    k = tuple(k)
                out[k] = _dec(x)
            return out
        if tag == "opaque":
            return _PdlOpaque(v.get("repr", "<function>"), v.get("fid"))
        raise ValueError("unknown value tag %r" % tag)
    return v


def _handle(o):
    _counter[0] += 1
    h = _counter[0]
    _objects[h] = o
    try:
        text = repr(o)
    except Exception:
        text = "<%s object>" % type(o).__name__
    return {_TAG: "object", "id": h, "repr": text, "type": type(o).__name__,
            "callable": callable(o)}


def _enc(o, notes, depth=0):
    if depth > _MAX_DEPTH:
        raise ValueError("value nested more than %d levels deep (a cycle?) cannot be returned to PDL" % _MAX_DEPTH)
    if o is None or type(o) is bool:
        return o
    if isinstance(o, str):
        return str(o)
    if isinstance(o, int):
        o = int(o)
        if _I64_MIN <= o <= _I64_MAX:
            return o
        try:
            f = float(o)
        except OverflowError:
            f = math.inf if o > 0 else -math.inf
        notes.append("the integer %d does not fit in 64 bits; PDL received the float %r" % (o, f))
        return _enc(f, notes, depth)
    if isinstance(o, float):
        o = float(o)
        return o if math.isfinite(o) else {_TAG: "float", "v": repr(o)}
    if isinstance(o, (list, tuple)):
        return [_enc(x, notes, depth + 1) for x in o]
    if isinstance(o, dict):
        if all(type(k) is str for k in o) and _TAG not in o:
            return {k: _enc(x, notes, depth + 1) for k, x in o.items()}
        return {_TAG: "dict", "items": [[_enc(k, notes, depth + 1), _enc(x, notes, depth + 1)]
                                        for k, x in o.items()]}
    return _handle(o)


def _code_file(n):
    return "<pdl code %d>" % n


def _error(e):
    tb = e.__traceback__
    # Drop the driver's own frames: the traceback starts inside the user's code.
    while tb is not None and not tb.tb_frame.f_code.co_filename.startswith("<pdl code"):
        tb = tb.tb_next
    line = 0
    t = tb
    while t is not None:
        if t.tb_frame.f_code.co_filename.startswith("<pdl code"):
            line = t.tb_lineno
        t = t.tb_next
    if isinstance(e, SyntaxError) and str(e.filename or "").startswith("<pdl code"):
        line = e.lineno or 0
    try:
        text = "".join(traceback.format_exception(type(e), e, tb))
    except Exception:
        text = "%s: %s\n" % (type(e).__name__, e)
    try:
        message = str(e)
    except Exception:
        message = "<exception str() failed>"
    return {"ok": False, "type": type(e).__name__,
            "types": [c.__name__ for c in type(e).__mro__ if c is not object],
            "message": message, "traceback": text, "line": line}


def _run(req, notes):
    for h in req.get("release", ()):
        _objects.pop(h, None)
    op = req["op"]
    if op == "exec":
        _counter[1] += 1
        name = _code_file(_counter[1])
        source = req["code"]
        linecache.cache[name] = (len(source), None, source.splitlines(True), name)
        g = {k: _dec(v) for k, v in req["globals"].items()}
        g["PDL_SESSION"] = _SESSION
        g["__builtins__"] = builtins
        exec(compile(source, name, "exec"), g)
        return g.get("result")
    if op == "call":
        fn = _objects.get(req["id"])
        if fn is None:
            raise RuntimeError("the Python object %s is no longer available" % req.get("repr", ""))
        args = [_dec(a) for a in req.get("args", ())]
        kwargs = {k: _dec(v) for k, v in req.get("kwargs", {}).items()}
        return fn(*args, **kwargs)
    if op == "ping":
        return None
    raise ValueError("unknown request %r" % op)


def _flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


def _main():
    _send({"ok": True, "ready": True, "version": sys.version.split()[0]})
    while True:
        size = struct.unpack(">I", _read_exact(4))[0]
        req = json.loads(_read_exact(size).decode("utf-8"))
        notes = []
        try:
            reply = {"ok": True, "result": _enc(_run(req, notes), notes), "notes": notes}
        except BaseException as e:
            reply = _error(e)
        finally:
            _flush()
        try:
            _send(reply)
        except Exception as e:
            _send(_error(e))


_main()
)PY";

const char* pythonDriverSource()
{
    return kDriver;
}

} // namespace hako::pdl::code
