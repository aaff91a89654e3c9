"""trainproof's recorder: what a training loop did, written crash-safe for `trainproof check`.

    import trainproof
    rec = trainproof.Recorder()                 # writes to $TRAINPROOF_TRACE; unset: every call is a no-op
    rec.log(step, loss=loss, lr=lr, grad_norm=norm)   # once per optimizer step
    rec.params(model)                           # at the end: the final parameters, bit for bit
    rec.close()

The file is append-only, one record per line, each flushed and fsynced as it is written:

    TPTRACE 1
    <json>\t<FNV-1a 64 of the json bytes, 16 hex digits>

A SIGKILL can tear only the last line; readers ignore a torn last record (no newline, or a
checksum that does not match) and reject a damaged record anywhere else. A restarted run
drops a torn last record and appends to the same file; for a step logged twice the last
record counts. numpy is the
only dependency; torch is optional (params() takes anything with named_parameters(), or a
mapping of names to arrays).

Under `trainproof check --regen`, the execution paths that vary the thread count set
TRAINPROOF_THREADS; a Recorder made after `import torch` applies it (torch.set_num_threads), as
trainproof's own scenarios do. Without that variable, nothing is changed."""
import json
import math
import os
import sys

import numpy as np

__all__ = ["Recorder", "read", "TraceError"]
HEADER = b"TPTRACE 1\n"
# trainproof's FNV-1a 64 (include/trainproof/core/hash.h): its offset basis is 1469598103934665603,
# which its checkpoints and goldens already use, not the published 14695981039346656037.
_FNV_OFFSET, _FNV_PRIME = 1469598103934665603, 0x100000001B3


def fnv1a64(data: bytes) -> int:
    h = _FNV_OFFSET
    for b in data:
        h = ((h ^ b) * _FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


class TraceError(ValueError):
    """A trace file that is not one, or is damaged before its last record."""


def _number(name, v):
    if hasattr(v, "item"):  # a 0-d tensor or numpy scalar
        v = v.item()
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"Recorder.log: {name}={v!r} is not a number")
    return float(v)


def _apply_thread_count():
    n = os.environ.get("TRAINPROOF_THREADS")
    torch = sys.modules.get("torch")
    if n and torch is not None:
        torch.set_num_threads(int(n))


class Recorder:
    def __init__(self, path=None, fsync=True):
        """fsync=False: each record still reaches the file in one write(), which survives a
        SIGKILL of the process; fsync only adds safety against the machine itself going down."""
        _apply_thread_count()
        path = path if path is not None else os.environ.get("TRAINPROOF_TRACE")
        self._fd = None
        self._fsync = fsync
        if not path:
            return  # outside the harness: a no-op
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        size = os.fstat(self._fd).st_size
        if size == 0:
            self._write_raw(HEADER)
            return
        # A restart after a SIGKILL: drop a torn last record before appending to the file.
        with open(path, "rb") as f:
            data = f.read()
        end = data.rfind(b"\n") + 1
        if end < len(data):
            os.ftruncate(self._fd, max(end, len(HEADER)) if data.startswith(HEADER) else end)

    @property
    def active(self):
        return self._fd is not None

    def _write_raw(self, data):
        os.write(self._fd, data)
        if self._fsync:
            os.fsync(self._fd)

    def _record(self, obj):
        if self._fd is None:
            return
        payload = json.dumps(obj, separators=(",", ":"), sort_keys=True, allow_nan=True).encode()
        self._write_raw(payload + b"\t" + f"{fnv1a64(payload):016x}".encode() + b"\n")

    def log(self, step, **scalars):
        """One optimizer step's scalars (loss, lr, grad_norm, ...), as float64."""
        if self._fd is None:
            return
        if not scalars:
            raise TypeError("Recorder.log: give at least one scalar, e.g. log(step, loss=loss)")
        values = {k: _number(k, v) for k, v in scalars.items()}
        self._record({"kind": "log", "step": int(step),
                      "values": {k: (v if math.isfinite(v) else repr(v)) for k, v in values.items()}})

    def params(self, model):
        """The final parameters, each as its exact bytes (little-endian) with dtype and shape."""
        if self._fd is None:
            return
        items = model.named_parameters() if hasattr(model, "named_parameters") else dict(model).items()
        for name, p in items:
            a = p.detach().cpu().float().numpy() if hasattr(p, "detach") else np.asarray(p, dtype=np.float32)
            a = np.ascontiguousarray(a, dtype="<f4")
            self._record({"kind": "param", "name": name, "dtype": "float32", "shape": list(a.shape),
                          "bits": a.tobytes().hex()})

    def close(self):
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def read(path):
    """(logs, params): logs maps step -> {name: value}; params maps name -> float32 array."""
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(HEADER):
        raise TraceError(f"{path}: not a trainproof trace (no '{HEADER.decode().strip()}' header)")
    lines = data[len(HEADER):].split(b"\n")
    logs, params = {}, {}
    for i, line in enumerate(lines):
        last = i == len(lines) - 1
        if last and line == b"":
            break
        payload, sep, digest = line.rpartition(b"\t")
        ok = sep and not last and digest == f"{fnv1a64(payload):016x}".encode()
        if not ok:
            if last or i == len(lines) - 2 and lines[-1] == b"":
                break  # the torn last record of a killed writer
            raise TraceError(f"{path}: record {i + 1} is damaged (bad checksum or format)")
        r = json.loads(payload)
        if r["kind"] == "log":
            logs[r["step"]] = {k: float(v) for k, v in r["values"].items()}
        elif r["kind"] == "param":
            params[r["name"]] = np.frombuffer(bytes.fromhex(r["bits"]), dtype="<f4").reshape(r["shape"])
        # other kinds ("start", "probe", "save", "final") are the probe's: trainproof check reads them
    return logs, params
