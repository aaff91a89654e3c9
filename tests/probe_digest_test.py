"""The probe's digest of a tensor (python/trainproof/probe/digest.py, Digest), on the path a device
tensor takes, run here on CPU tensors (the same code: _host_path off): any dtype, any view or
storage offset, bounded scratch, and a change of any one bit seen. And the probe's hooks swallow
their failures: reported as a "probe-error" fact, never raised into the script.

    python tests/probe_digest_test.py
"""
import pathlib
import sys
import unittest

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python"))
from trainproof import probe  # noqa: E402


class DevicePath(probe._Digest):
    _host_path = False
    _WORDS = 64  # small parts: a tensor of a few hundred words is reduced in several
    _weights = {}


def digest(t, cls=DevicePath):
    d = cls(torch)
    d.tensor(t)
    return d.hex()


DTYPES = (torch.float16, torch.bfloat16, torch.uint8, torch.bool, torch.int32, torch.float32, torch.int64,
          torch.float64)


def sample(dtype, n, seed=0):
    g = torch.Generator().manual_seed(seed)
    if dtype == torch.bool:
        return torch.rand(n, generator=g) > 0.5
    if dtype in (torch.uint8, torch.int32, torch.int64):
        return torch.randint(0, 100, (n,), generator=g).to(dtype)
    return torch.randn(n, generator=g).to(dtype)


class DeviceDigestTest(unittest.TestCase):
    def test_equal_tensors_digest_equal_at_any_offset_and_layout(self):
        for dtype in DTYPES:
            for n in (1, 7, 333, 1000):  # sizes of every word width, and several parts
                t = sample(dtype, n)
                for offset in (1, 3):
                    base = torch.zeros(n + offset, dtype=dtype)
                    base[offset:] = t
                    self.assertEqual(digest(base[offset:]), digest(t), (dtype, n, offset))
                m = sample(dtype, 6 * 50).reshape(6, 50)
                self.assertEqual(digest(m.t()), digest(m.t().contiguous()), dtype)

    def test_any_one_bit_changed_is_seen(self):
        for dtype in (torch.float16, torch.uint8, torch.float32, torch.int64):
            t = sample(dtype, 200)
            raw = t.view(torch.uint8)
            before = digest(t)
            for byte in range(0, raw.numel(), 7):
                for bit in (0, 7):
                    changed = raw.clone()
                    changed[byte] ^= 1 << bit
                    self.assertNotEqual(digest(changed.view(dtype)), before, (dtype, byte, bit))
        # The top bits of two words at once: the first sum's weak spot, the second sum's to see.
        w = torch.zeros(8, dtype=torch.int64)
        flipped = w.clone()
        flipped[0] ^= -(1 << 63)
        flipped[1] ^= -(1 << 63)
        self.assertNotEqual(digest(flipped), digest(w))

    def test_scratch_is_bounded_by_the_part_size(self):
        DevicePath._weights.clear()
        digest(sample(torch.float32, 10_000))
        (weights, high), = DevicePath._weights.values()
        self.assertEqual((weights.numel(), high.numel()), (DevicePath._WORDS, DevicePath._WORDS))

    def test_the_control_a_digest_blind_to_the_high_halves_misses_the_top_bits(self):
        class Blind(DevicePath):
            def __init__(self, torch):
                super().__init__(torch, high_halves=False)
        w = torch.zeros(8, dtype=torch.int64)
        flipped = w.clone()
        flipped[0] ^= -(1 << 63)
        flipped[1] ^= -(1 << 63)
        self.assertEqual(digest(flipped, Blind), digest(w, Blind))


class SwallowedTest(unittest.TestCase):
    def test_a_failing_observation_is_reported_not_raised(self):
        facts = []

        class Quiet(probe.Probe):
            def __init__(self):  # the probe's state that safely reads, and nothing it would record
                self.clock_s, self.clock_inside, self.failed = None, False, set()

            def fact(self, fact, once=True, **data):
                facts.append((fact, data))

        def observe_digest():
            raise RuntimeError("view size is not compatible")

        p = Quiet()
        self.assertIsNone(p.safely(observe_digest))
        self.assertIsNone(p.safely(observe_digest))  # reported once
        self.assertEqual(facts, [("probe-error", {"observation": "observe_digest",
                                                  "error": "RuntimeError: view size is not compatible"})])


if __name__ == "__main__":
    unittest.main()
