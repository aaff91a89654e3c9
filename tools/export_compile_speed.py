"""torch.compile's C++ counterpart, step one: build the document's model (seed 0, eval),
export it ahead of time with AOTInductor for CPU (and CUDA when present), and write the
weights and input the C++ eager model loads, so both run the same parameters.
    python tools/export_compile_speed.py OUT_DIR
writes OUT_DIR/mlp_cpu.pt2, [OUT_DIR/mlp_cuda.pt2], OUT_DIR/mlp_weights.tpck"""
import os
import pathlib
import sys
import time

import torch
import torch.nn as nn

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "reference"))
import tpck  # noqa: E402


def main(out):
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(512, 1024), nn.GELU(), nn.Linear(1024, 1024), nn.GELU(),
                          nn.Linear(1024, 10)).eval()
    x = torch.randn(64, 512)
    entries = {f"model/{k}": v for k, v in model.state_dict().items()}
    entries["input"] = x
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    for device in devices:
        m, xd = model.to(device), x.to(device)
        t0 = time.perf_counter()
        with torch.no_grad():
            program = torch.export.export(m, (xd,))
            tmp = out / f".tmp-mlp_{device}.pt2"
            torch._inductor.aoti_compile_and_package(program, package_path=str(tmp))
        os.replace(tmp, out / f"mlp_{device}.pt2")  # a package is either complete or absent
        entries[f"export_seconds/{device}"] = time.perf_counter() - t0
        print(f"exported mlp_{device}.pt2 in {entries[f'export_seconds/{device}']:.1f} s")
    entries["torch_version"] = torch.__version__
    tmp = out / ".mlp_weights.tpck.tmp"
    tpck.write(tmp, entries)
    os.replace(tmp, out / "mlp_weights.tpck")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: export_compile_speed.py OUT_DIR")
    main(sys.argv[1])
