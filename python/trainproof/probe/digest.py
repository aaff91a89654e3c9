"""Exact digests of tensors and plain values, computed where the tensors live."""
import hashlib
import os

DIGEST_BYTES = 8


def blake2b_hex(data):
    """A short digest of bytes (an RNG's state, a scaler's): what a restore would set."""
    return hashlib.blake2b(data, digest_size=DIGEST_BYTES).hexdigest()


def local(t):
    """This rank's own part of a tensor: a DTensor's local shard (to_local() issues no collective),
    any other tensor as it is. The probe never computes on a DTensor: every op on one may be a
    collective that only this rank would enter (FSDP2's parameters and gradients are DTensors)."""
    to_local = getattr(type(t), "to_local", None)
    if to_local is None or os.environ.get("TRAINPROOF_INJECT_FAULT") == "probe-computes-on-dtensors":
        return t  # (the fault: the negative control of tests/probe_collectives_test.py)
    return t.to_local()


def local_value(t):
    """A tensor's value as this rank holds it, without a collective: a DTensor's only where every
    rank holds all of it (replicated); None where the value is spread over the ranks (a sharded or
    a partial sum's)."""
    if getattr(type(t), "to_local", None) is None:
        return t
    if all(type(p).__name__ == "Replicate" for p in getattr(t, "placements", ())):
        return t.to_local()
    return None


class Digest:
    """An exact digest of tensors and plain values. Small tensors go into a SHA-256 of their bytes;
    large ones, and every tensor on a device, are reduced where they live to two position-weighted
    sums of their 64-bit words (mod 2**64), so that nothing is copied and a step's parameters and
    optimizer state cost a few passes of vectorized integer arithmetic instead of a hash's rounds.

    Exact in the sense that matters here: a change to any one word always changes the first sum
    (its weight is odd), and the second sum, over the words shifted down by 32 bits, sees the high
    halves where the first is weakest (a change confined to the top bits of an even number of
    words). Integer sums wrap the same way in any order, so no thread count changes a digest."""

    _HOST_BYTES = 1 << 16  # below this, hashing the bytes costs less than a reduction's start
    _host_path = True  # False: CPU tensors take the device's path too (its tests run it on the CPU)
    _WORDS = 1 << 20  # words reduced at once: bounds what is held per device (2 x 8 MiB)
    _weights = {}  # device -> (the odd weights 1, 3, 5, ..., a buffer), _WORDS words each

    def __init__(self, torch, high_halves=True):
        self._torch = torch
        self._high_halves = high_halves  # the second sum: off for the optimizer state (see _optimizer_state)
        # SHA-256: OpenSSL's, with the CPU's SHA instructions where it has them (x86's SHA-NI,
        # ARMv8's): about 1.5x blake2b's speed on a step's parameters and optimizer state.
        self._host = hashlib.sha256()
        self._sums = []  # 0-d int64 tensors, read in one go (one copy from a device) by hex()

    def value(self, v):
        self._host.update(repr(v).encode())

    def any(self, v):
        """A value exactly: a tensor's every bit, a list's or dict's items one by one, else its repr."""
        if isinstance(v, self._torch.Tensor):
            self.tensor(v)
        elif isinstance(v, (list, tuple)):
            self._host.update(f"{type(v).__name__}{len(v)}".encode())
            for x in v:
                self.any(x)
        elif isinstance(v, dict):
            self._host.update(f"dict{len(v)}".encode())
            for k in sorted(v, key=repr):
                self.value(k)
                self.any(v[k])
        else:
            self.value(v)

    def tensor(self, t):
        torch = self._torch
        t = local(t.detach())
        if t.dim() == 0 and t.device.type == "cpu" and t.layout == torch.strided and not t.is_quantized:
            # a step counter, a scale: its value says every bit of it (repr round-trips a float exactly)
            self._host.update(f"{t.dtype}:{t.item()!r}".encode())
            return
        self._host.update(f"{t.dtype}{tuple(t.shape)}".encode())
        if t.numel() == 0:
            return
        if t.is_sparse or t.is_quantized:
            t = t.to_dense() if t.is_sparse else t.int_repr()
        flat = t.contiguous().reshape(-1)
        if flat.dtype == torch.bool:
            flat = flat.to(torch.uint8)
        raw = flat.view(torch.uint8)
        if raw.device.type == "cpu" and self._host_path and (raw.numel() < self._HOST_BYTES or raw.numel() % 8):
            self._host.update(raw.numpy().data)
            return
        # Eight bytes a word where the size allows (a half or byte tensor may hold a count that int64
        # cannot view), else the widest word that can, widened a part at a time. The word is chosen by
        # the size alone, so that equal tensors digest equal wherever they start in their storage.
        size, dtype = next((n, d) for n, d in ((8, torch.int64), (4, torch.int32), (2, torch.int16), (1, torch.uint8))
                           if raw.numel() % n == 0)
        if raw.storage_offset() % size:
            raw = raw.clone()  # a view from an offset the word cannot start at
        words = raw.view(dtype)
        weights, high = self._scratch(raw.device)
        cpu = raw.device.type == "cpu" and self._host_path
        for at in range(0, words.numel(), self._WORDS):  # each part's sums in order: parts cannot swap
            part = words[at:at + self._WORDS].to(torch.int64)  # a view where the words are int64 already
            n = part.numel()
            parts = [part]
            if words.dtype == torch.int64 and self._high_halves:  # a narrower word has no high half to miss
                parts.append(torch.bitwise_right_shift(part, 32, out=high[:n]))
            for x in parts:  # integer dot on the host; CUDA has none, so multiply and sum
                self._sums.append(torch.dot(x, weights[:n]) if cpu else (x * weights[:n]).sum())
        if len(self._sums) >= 4096:  # a digest fed for long (a loop that never steps): held in the hash
            self._fold()

    def _scratch(self, device):
        """The odd weights 1, 3, 5, ... and a buffer for the high halves, of _WORDS words, made once a device."""
        if device not in self._weights:
            torch = self._torch
            self._weights[device] = (torch.arange(self._WORDS, device=device, dtype=torch.int64) * 2 + 1,
                                     torch.empty(self._WORDS, device=device, dtype=torch.int64))
        return self._weights[device]

    def _fold(self):
        if self._sums:
            for v in self._torch.stack(self._sums).cpu().tolist():
                self._host.update(int(v).to_bytes(8, "little", signed=True))
            self._sums = []

    def hex(self):
        self._fold()
        return self._host.hexdigest()[:2 * DIGEST_BYTES]

