"""Writes trainproof's checkpoint container (include/trainproof/training/checkpoint.h) from Python: magic,
payload size, FNV-1a checksum, then named entries. Used to hand weights to C++."""
import struct

import torch

MAGIC = b"TRAINPROOF-CKPT1"
DTYPE_CODE = {torch.uint8: 0, torch.int8: 1, torch.int16: 2, torch.int32: 3, torch.int64: 4, torch.float16: 5,
              torch.float32: 6, torch.float64: 7, torch.bool: 11, torch.bfloat16: 15}  # c10::ScalarType


def fnv1a(data: bytes) -> int:
    h = 1469598103934665603
    for b in data:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def write(path, entries):
    """entries: dict name -> torch.Tensor | int | float | str, written in sorted order."""
    p = bytearray(struct.pack("<I", len(entries)))
    for name in sorted(entries):
        v = entries[name]
        key = name.encode()
        p += struct.pack("<H", len(key)) + key
        if isinstance(v, torch.Tensor):
            t = v.detach().cpu().contiguous()
            data = t.numpy().tobytes() if t.dtype != torch.bfloat16 else t.view(torch.int16).numpy().tobytes()
            p += struct.pack("<BBB", 0, DTYPE_CODE[t.dtype], t.dim())
            p += b"".join(struct.pack("<q", d) for d in t.shape)
            p += struct.pack("<Q", len(data)) + data
        elif isinstance(v, bool) or isinstance(v, int):
            p += struct.pack("<Bq", 1, int(v))
        elif isinstance(v, float):
            p += struct.pack("<Bd", 2, v)
        else:
            s = str(v).encode()
            p += struct.pack("<BI", 3, len(s)) + s
    payload = bytes(p)
    with open(path, "wb") as f:
        f.write(MAGIC + struct.pack("<QQ", len(payload), fnv1a(payload)) + payload)
