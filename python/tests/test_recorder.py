"""The recorder's file: round trip bit for bit, a no-op without TRAINPROOF_TRACE, a torn last
record ignored, a damaged earlier record rejected, and a restarted run appending."""
import os
import pathlib
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
import trainproof  # noqa: E402


class RecorderTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "trace")

    def tearDown(self):
        self.dir.cleanup()

    def write(self, steps=3):
        with trainproof.Recorder(self.path) as rec:
            for s in range(steps):
                rec.log(s, loss=1.0 / (s + 1), lr=0.1 * 3 ** -s)
            rec.params({"w": np.array([[0.1, -2.5e-8], [3.0, np.float32(1) / 3]], dtype=np.float32)})

    def test_round_trips_bit_for_bit(self):
        self.write()
        logs, params = trainproof.read(self.path)
        self.assertEqual(sorted(logs), [0, 1, 2])
        self.assertEqual(logs[2]["lr"], 0.1 * 3 ** -2)  # float64, exactly
        self.assertEqual(params["w"].tobytes(),
                         np.array([[0.1, -2.5e-8], [3.0, np.float32(1) / 3]], dtype=np.float32).tobytes())

    def test_without_the_variable_every_call_is_a_no_op(self):
        os.environ.pop("TRAINPROOF_TRACE", None)
        rec = trainproof.Recorder()
        self.assertFalse(rec.active)
        rec.log(0, loss=1.0)
        rec.params({"w": np.zeros(2)})
        rec.close()
        self.assertEqual(os.listdir(self.dir.name), [])

    def test_a_torn_last_record_is_ignored(self):
        self.write()
        data = pathlib.Path(self.path).read_bytes()
        for cut in (1, 5, 20):  # a SIGKILL in the middle of the last write
            pathlib.Path(self.path).write_bytes(data[:-cut])
            logs, params = trainproof.read(self.path)
            self.assertEqual(sorted(logs), [0, 1, 2])
            self.assertNotIn("w", params)

    def test_a_restart_after_a_torn_record_appends_cleanly(self):
        self.write()
        data = pathlib.Path(self.path).read_bytes()
        pathlib.Path(self.path).write_bytes(data[:-7])  # killed while writing the parameters
        with trainproof.Recorder(self.path) as rec:
            rec.log(3, loss=0.125)
        logs, params = trainproof.read(self.path)
        self.assertEqual(sorted(logs), [0, 1, 2, 3])
        self.assertNotIn("w", params)

    def test_a_damaged_earlier_record_is_rejected(self):
        self.write()
        data = bytearray(pathlib.Path(self.path).read_bytes())
        data[len(trainproof.HEADER) + 12] ^= 0x01  # inside the first record
        pathlib.Path(self.path).write_bytes(bytes(data))
        with self.assertRaisesRegex(trainproof.TraceError, "record 1 is damaged"):
            trainproof.read(self.path)

    def test_a_restarted_run_appends_and_the_last_record_of_a_step_counts(self):
        self.write(steps=3)
        with trainproof.Recorder(self.path) as rec:  # resumed at step 2
            rec.log(2, loss=0.25, lr=0.5)
        logs, _ = trainproof.read(self.path)
        self.assertEqual(logs[2], {"loss": 0.25, "lr": 0.5})
        self.assertEqual(pathlib.Path(self.path).read_bytes().count(trainproof.HEADER), 1)

    def test_not_a_trace_is_rejected(self):
        pathlib.Path(self.path).write_bytes(b"hello\n")
        with self.assertRaisesRegex(trainproof.TraceError, "not a trainproof trace"):
            trainproof.read(self.path)

    def test_a_non_number_is_a_type_error(self):
        with trainproof.Recorder(self.path) as rec, self.assertRaisesRegex(TypeError, "loss='x' is not a number"):
            rec.log(0, loss="x")

    def test_thread_paths_set_torchs_thread_count(self):
        try:
            import torch
        except ImportError:
            self.skipTest("torch is not installed")
        before = torch.get_num_threads()
        try:
            os.environ["TRAINPROOF_THREADS"] = "3"
            trainproof.Recorder()  # no TRAINPROOF_TRACE: a no-op recorder still applies it
            self.assertEqual(torch.get_num_threads(), 3)
        finally:
            del os.environ["TRAINPROOF_THREADS"]
            torch.set_num_threads(before)


if __name__ == "__main__":
    unittest.main()
