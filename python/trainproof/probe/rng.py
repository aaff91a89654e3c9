"""Random number generators: the first draw from torch's global RNG before any seed, the seed,
a restore of its state (a resume's), and the digests of every RNG a step may draw from (torch,
CUDA's, numpy's, random's)."""
import hashlib
import sys

from trainproof.probe import compiled
from trainproof.probe.digest import DIGEST_BYTES, blake2b_hex
from trainproof.probe.frames import user_frame


def _as_builtin(wrapper, fn):
    """TorchScript compiles a call of torch.rand as the operator aten::rand, found by the function's
    identity; a wrapper in its place is a Python function it cannot compile (varargs). Registered as
    the same operator, the wrapper compiles as the function did: a scripted draw is the draw itself."""
    try:
        from torch.jit import _builtins
        op = _builtins._find_builtin(fn)
        if op is not None:
            _builtins._register_builtin(wrapper, op)
    except Exception:  # an older or newer torch without these: scripting code that draws is rarer
        pass
    return wrapper


def _seed_sources():
    """The functions whose results differ in every run, as (owner, name, function)."""
    import os
    import random
    import time
    out = [(random, n) for n in ("randint", "randrange", "random", "getrandbits", "uniform")]
    out += [(time, n) for n in ("time", "time_ns")] + [(os, "getpid"), (os, "urandom")]
    return [(owner, n, getattr(owner, n)) for owner, n in out if hasattr(owner, n)]


def _drawn_at(seed, drawn):
    """The line that drew the value a seed was made from: the last draw that equals it, or whose
    integer part, milliseconds or low 32 bits do (int(time.time()), a pid, urandom's bytes)."""
    try:
        want = int(seed)
    except (TypeError, ValueError):
        return ""
    for value, where in reversed(drawn):
        if isinstance(value, (bytes, bytearray)):
            candidates = {int.from_bytes(value, "little"), int.from_bytes(value, "big")}
        elif isinstance(value, (int, float)):
            candidates = {int(value), int(value * 1000), int(value) % 2**32, int(value) % 2**31}
        else:
            continue
        if want in candidates or want % 2**32 in {c % 2**32 for c in candidates}:
            return where
    return ""


class RngState:
    """A part of the probe (core.Probe): torch's global RNG (its first draw, its seed, its restores)
    and the digests of every RNG a step may draw from."""

    def __init__(self, probe):
        self.probe = probe
        self.seeded = False
        self.rng_at_install = probe.torch.get_rng_state()
        self.rng_at_first_step = None
        self.first_draw = None  # file:line of the first draw from the global RNG before any seed

    def install(self, torch):
        """The first draw from torch's RNG before any seed, seeding, and restores of its state."""
        part, probe = self, self.probe
        seed = torch.manual_seed

        # The first draw from torch's global RNG before any seed: where a script that never seeds
        # should have seeded first. Its entry points are wrapped until a seed or that draw, then
        # restored; a wrapper calls the same function with the same arguments.
        draws = [(torch, n) for n in ("rand", "randn", "randint", "randperm", "normal", "bernoulli", "multinomial",
                                      "rand_like", "randn_like", "randint_like")]
        draws += [(torch.Tensor, n) for n in ("uniform_", "normal_", "random_", "bernoulli_", "exponential_",
                                              "geometric_", "log_normal_", "cauchy_")]
        originals = [(owner, n, getattr(owner, n), n in vars(owner)) for owner, n in draws if hasattr(owner, n)]

        def restore_draws():
            for owner, n, fn, own in originals:
                if own:
                    setattr(owner, n, fn)
                elif n in vars(owner):
                    delattr(owner, n)
            originals.clear()

        def drew(before):
            if not torch.equal(before, torch.get_rng_state()):
                part.first_draw = user_frame()
                restore_draws()

        def traced_draw(fn):
            def draw(*args, **kwargs):
                if compiled.is_compiling() or not probe.on() or part.seeded or part.first_draw is not None:
                    return fn(*args, **kwargs)
                before = probe.safely(torch.get_rng_state)
                out = fn(*args, **kwargs)
                if before is not None:
                    probe.safely(drew, before)
                return out

            return draw

        for owner, n, fn, _ in originals:
            setattr(owner, n, _as_builtin(traced_draw(fn), fn))

        # Where a seed that differs between runs came from: the draws from sources that differ in
        # every run (random's module functions, the time, the pid, os.urandom) before the first seed,
        # their values kept, so that the seed given to manual_seed can be traced to the line that drew it.
        sources = _seed_sources()
        drawn = []  # (value, file:line), the last few

        inside = []  # the probe's own calls of them (os.getpid in _on) are not the script's draws

        def traced_source(fn):
            def source(*args, **kwargs):
                out = fn(*args, **kwargs)
                if not inside:
                    inside.append(True)
                    try:
                        if probe.on() and not part.seeded:
                            probe.safely(lambda: drawn.append((out, user_frame())) or drawn.__delitem__(slice(0, -16)))
                    finally:
                        inside.clear()
                return out

            return source

        for owner, n, fn in sources:
            setattr(owner, n, traced_source(fn))

        def seeding(value):
            if probe.on() and not part.seeded:
                part.seeded = True
                restore_draws()
                for owner, n, fn in sources:  # the first seed is what they were watched for
                    setattr(owner, n, fn)
                if not torch.equal(torch.get_rng_state(), part.rng_at_install):
                    probe.fact("torch-random-before-seed")
                probe.fact("torch-seeded", seed=repr(value), drawn_at=_drawn_at(value, drawn))

        def traced_seed(*args, **kwargs):
            probe.guarded(seeding, args[0] if args else kwargs.get("seed"))
            return seed(*args, **kwargs)

        torch.manual_seed = traced_seed
        torch.random.manual_seed = traced_seed

        # A restore of the torch RNG (a resume's, accelerate's load_state): the state it set, so
        # that check can tell a state that was restored and then drawn from before the first step
        # (a new DataLoader iterator's shuffle) from one that was never restored.
        set_rng_state = torch.set_rng_state

        def rng_restored():
            if probe.on():
                probe.fact("rng-restored", once=False, digest=part.rng_digest())

        def traced_set_rng_state(*args, **kwargs):
            out = set_rng_state(*args, **kwargs)
            probe.guarded(rng_restored)
            return out

        torch.set_rng_state = traced_set_rng_state
        torch.random.set_rng_state = traced_set_rng_state

    def rng_digest(self):
        """The torch RNG's state, digested (what a save's rng-at-save fact says)."""
        return blake2b_hex(self.probe.torch.get_rng_state().numpy().data)

    # -- hooks (core.HOOKS) ------------------------------------------------------------------------
    def step_begins(self):
        torch = self.probe.torch
        if self.rng_at_first_step is None:
            self.rng_at_first_step = torch.get_rng_state()
            if not self.seeded and not torch.equal(self.rng_at_first_step, self.rng_at_install):
                self.probe.fact("torch-random-unseeded", where=self.first_draw)

    def needs(self):
        torch = self.probe.torch
        drawn = self.rng_at_first_step is not None and not torch.equal(torch.get_rng_state(), self.rng_at_first_step)
        return ["rng"] if drawn else []

    def step_digests(self):
        torch = self.probe.torch
        out = {"rng.torch": self.rng_digest()}
        if torch.cuda.is_available() and torch.cuda.is_initialized():
            for i in range(torch.cuda.device_count()):
                out[f"rng.cuda{i}"] = blake2b_hex(torch.cuda.get_rng_state(i).numpy().data)
        np = sys.modules.get("numpy")
        if np is not None and hasattr(np, "random"):
            kind, keys, pos, has_gauss, cached = np.random.get_state()
            h = hashlib.blake2b(keys.tobytes(), digest_size=DIGEST_BYTES)
            h.update(repr((kind, pos, has_gauss, cached)).encode())
            out["rng.numpy"] = h.hexdigest()
        random = sys.modules.get("random")
        if random is not None:
            out["rng.random"] = blake2b_hex(repr(random.getstate()).encode())
        return out

