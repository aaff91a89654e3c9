"""Layout-free sums: what a step's parameters, optimizer state and batch hold, summed so that the
parts the ranks hold add up to the same number however the ranks split them. A resume at another
world size (check --restart-nproc) is judged with them: 2 ranks' shards of a weight and 1 rank's
whole weight give one sum when they hold the same values, and so do two halves of a global batch
and the whole of it.

Each rank sums its own part, where its tensors live, and issues no collective: a DTensor's local
shard is placed in the whole tensor by its placements (a local computation), a replicated tensor
(a DTensor's Replicate, a plain tensor under DDP) counts on the first rank only; check adds the
ranks' sums. Recorded only when check asks for them (TRAINPROOF_LAYOUT_SUMS=1).

- A tensor: every element's bits times an odd weight of its index in the whole tensor (and in one
  flat space over all the step's tensors, so that two tensors cannot swap), summed mod 2**64. Any
  one element changed changes the sum, as the probe's Digest does for a word.
- A batch: every sample (a row of an input tensor, along its first dimension) is mixed into a
  number of its own, and the numbers summed: a multiset, so the sum says which samples the step
  trained on, not which rank took which."""
import os

MASK = (1 << 64) - 1
MAX_SAMPLES = 4096  # a step's samples each said (check names the rank that took another's) up to this many
_MIX = 0x9E3779B97F4A7C15 - (1 << 64)  # an odd constant, as int64


def wanted():
    return os.environ.get("TRAINPROOF_LAYOUT_SUMS") == "1"


class Unplaceable(Exception):
    """A tensor whose part on this rank cannot be placed in the whole (a partial sum, an unknown layout)."""


def _first_rank():
    return os.environ.get("RANK", "0") in ("", "0")


def _placed(torch, t):
    """(this rank's part, the whole tensor's shape, the part's offset in it per dimension), or None
    where another rank counts the part (a replica)."""
    if getattr(type(t), "to_local", None) is None:
        return (t, tuple(t.shape), (0,) * t.dim()) if _first_rank() else None
    placements = tuple(t.placements)
    names = [type(p).__name__ for p in placements]
    if any(n not in ("Shard", "Replicate") for n in names):
        raise Unplaceable(f"a DTensor placed {names}")
    coordinate = t.device_mesh.get_coordinate()
    if coordinate is None:
        return None  # this rank holds none of it
    if any(n == "Replicate" and c != 0 for n, c in zip(names, coordinate)):
        return None  # a replica: the first rank along that mesh dimension counts it
    from torch.distributed.tensor._utils import compute_local_shape_and_global_offset
    _, offset = compute_local_shape_and_global_offset(t.shape, t.device_mesh, placements)
    return t.to_local(), tuple(t.shape), tuple(offset)


def _words(torch, flat):
    """The elements' bits as int64 numbers, one an element."""
    if flat.dtype == torch.bool:
        flat = flat.to(torch.uint8)
    size = flat.element_size()
    view = {8: torch.int64, 4: torch.int32, 2: torch.int16, 1: torch.uint8}[size]
    return flat.view(view).to(torch.int64)


class LayoutSums:
    """The sums of one step: tensor(...) for each of its parameters (or state tensors) in a fixed
    order, then hex()."""

    def __init__(self, torch):
        self._torch = torch
        self._base = 0  # where the next tensor starts in the one flat space
        self._total = 0
        self.samples = None  # rows(): each sample's number (an int64 tensor), its inputs' summed

    def tensor(self, t):
        torch = self._torch
        t = t.detach()
        placed = _placed(torch, t)
        numel = 1
        for n in t.shape:
            numel *= n
        base, self._base = self._base, self._base + numel
        if placed is None:
            return
        part, shape, offset = placed
        if part.numel() == 0:
            return
        if part.is_sparse or part.is_quantized:
            raise Unplaceable("a sparse or quantized tensor")
        strides = [1] * len(shape)
        for d in range(len(shape) - 2, -1, -1):
            strides[d] = strides[d + 1] * shape[d + 1]
        index = torch.full(part.shape, base, dtype=torch.int64, device=part.device)
        for d, n in enumerate(part.shape):  # the element's flat index in the whole tensor, then the space
            along = (torch.arange(n, dtype=torch.int64, device=part.device) + offset[d]) * strides[d]
            index += along.view([n if i == d else 1 for i in range(part.dim())])
        words = _words(torch, part.contiguous().reshape(-1))
        weights = index.reshape(-1) * 2 + 1
        total = int((words * weights).sum())
        if part.element_size() == 8:  # the high halves, where the first sum is weakest
            total += int((torch.bitwise_right_shift(words, 32) * weights).sum()) * _MIX
        self._total = (self._total + total) & MASK

    def rows(self, t, which):
        """A batch's input tensor `which` (its place among the forward's inputs): each sample mixed
        into a number of its own, the numbers summed."""
        torch = self._torch
        t = t.detach()
        if getattr(type(t), "to_local", None) is not None:
            raise Unplaceable("a batch held as a DTensor")
        if t.dim() == 0 or t.numel() == 0:
            return
        rows = _words(torch, t.contiguous().reshape(-1)).view(t.shape[0], -1)
        weights = torch.arange(rows.shape[1], dtype=torch.int64, device=t.device) * 2 + 1 + 2 * which
        x = (rows * weights).sum(1)
        x = x ^ torch.bitwise_right_shift(x, 31)  # mixed: a sum of mixed rows is no sum of their elements
        x = x * _MIX
        x = x ^ torch.bitwise_right_shift(x, 29)
        self._total = (self._total + int(x.sum())) & MASK
        if self.samples is None or self.samples.shape == x.shape:
            self.samples = x if self.samples is None else self.samples + x
        else:
            self.samples = torch.empty(0, dtype=torch.int64)  # inputs of other lengths: no sample is a row

    def hex(self):
        return f"{self._total:016x}"


def step_sums(torch, optimizer, batch_inputs):
    """This rank's layout-free sums of a step: "params", "optimizer" (each state tensor, keys in
    order), "batch" (the step's forward inputs), and "samples": each of this rank's samples' own
    number, so that check can say which rank trained on which step's samples. A part that cannot
    be placed leaves its sum out."""
    out = {}
    params = [p for g in optimizer.param_groups for p in g["params"]]
    try:
        s = LayoutSums(torch)
        for p in params:
            s.tensor(p)
        out["params"] = s.hex()
    except Unplaceable:
        pass
    try:
        s = LayoutSums(torch)
        for p in params:
            state = optimizer.state.get(p, {})
            for k in sorted(state):
                if isinstance(state[k], torch.Tensor):
                    s.tensor(state[k])
        out["optimizer"] = s.hex()
    except Unplaceable:
        pass
    if batch_inputs:
        try:
            s = LayoutSums(torch)
            for i, t in enumerate(batch_inputs):
                s.rows(t, i)
            out["batch"] = s.hex()
            if s.samples is not None and 0 < s.samples.numel() <= MAX_SAMPLES:
                out["samples"] = [f"{v & MASK:016x}" for v in s.samples.tolist()]
        except Unplaceable:
            pass
    return out
