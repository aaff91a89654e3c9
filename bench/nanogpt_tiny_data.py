"""nanoGPT's tiny data set for the benches that run it: 20,000 random tokens of a 65-token
vocabulary, train and val, in NANOGPT_DIR/data/tiny/ (made only where absent).

    python bench/nanogpt_tiny_data.py NANOGPT_DIR"""
import pathlib
import pickle
import sys

import numpy as np

out = pathlib.Path(sys.argv[1]) / "data" / "tiny"
if not (out / "train.bin").exists():
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    for split in ("train", "val"):
        rng.integers(0, 65, 20000).astype(np.uint16).tofile(out / f"{split}.bin")
    pickle.dump({"vocab_size": 65}, open(out / "meta.pkl", "wb"))
