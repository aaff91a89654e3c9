"""The environment of the process that trained: what a check golden's fingerprint records, so that
a golden made under one torch and held under another says the environment moved, naming it (not
the trainproof binary's LibTorch, which trained nothing)."""
import platform
import sys

# The training frameworks whose version changes what a script's loop does, by the module a script imports.
FRAMEWORKS = ("transformers", "accelerate", "lightning", "pytorch_lightning", "timm", "deepspeed", "torchvision",
              "peft", "trl", "torchtitan")


def environment(torch):
    """Fields of the fingerprint, each a string: torch's version and build, its threads and ATen's
    CPU capability, the devices, Python, and the frameworks the script imported."""
    env = {"torch": torch.__version__.split("+")[0], "python": platform.python_version(),
           "threads": str(torch.get_num_threads())}
    cuda, hip = getattr(torch.version, "cuda", None), getattr(torch.version, "hip", None)
    env["torch_build"] = f"rocm {hip}" if hip else f"cuda {cuda}" if cuda else "cpu"
    try:
        env["cpu_capability"] = torch.backends.cpu.get_cpu_capability()
    except Exception:  # an older torch
        pass
    if torch.cuda.is_available() and torch.cuda.is_initialized():  # never the probe's to initialize CUDA
        env["devices"] = ", ".join(torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count()))
        if torch.backends.cudnn.is_available():
            env["cudnn"] = str(torch.backends.cudnn.version())
    for name in FRAMEWORKS:
        module = sys.modules.get(name)
        version = getattr(module, "__version__", None) if module is not None else None
        if version:
            env[f"framework.{name}"] = str(version)
    return env
