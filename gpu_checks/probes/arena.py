"""One random buffer per run that the probes carve their large tensors from.

Touching fresh memory the first time costs page faults (on some virtual machines more than the
copy itself), so a run pays that once: the arena is filled at creation and probes take views of
it. The fill tiles a block of random bfloat16 values in [-1, 1); read as float32 (pairs of
them), as bfloat16 or as float16 every element is then a finite, normal-range number, so no
probe runs into NaN, infinity or denormal slow paths. ``tensor(..., fresh=True)`` re-tiles a
region that an earlier probe wrote into.
"""

from __future__ import annotations

from typing import Any

#: Elements of the random block that is tiled over the arena (8 MiB of bfloat16).
BLOCK_ELEMENTS = 4 * 2**20
#: Every view starts on a multiple of this many bytes (a page; also any dtype's alignment).
ALIGN_BYTES = 4096


def align_up(n_bytes: int) -> int:
    """``n_bytes`` rounded up to a multiple of :data:`ALIGN_BYTES`."""
    return -(-n_bytes // ALIGN_BYTES) * ALIGN_BYTES


class Arena:
    """``capacity_bytes`` of random data on ``torch_device`` (filled at creation, seeded)."""

    def __init__(self, *, torch_device: str, capacity_bytes: int, seed: int = 0) -> None:
        import torch

        self.capacity_bytes = align_up(capacity_bytes)
        generator = torch.Generator(device="cpu").manual_seed(seed)
        block = torch.rand(BLOCK_ELEMENTS, generator=generator).mul_(2).sub_(1).to(torch.bfloat16)
        self._block = block.view(torch.uint8).to(torch_device)
        # Allocators align to 64 bytes or so; skip ahead so that views start on page boundaries.
        raw = torch.empty(self.capacity_bytes + ALIGN_BYTES, dtype=torch.uint8, device=torch_device)
        skip = -raw.data_ptr() % ALIGN_BYTES
        self._bytes = raw[skip : skip + self.capacity_bytes]
        self.fill(offset_bytes=0, n_bytes=self.capacity_bytes)

    def fill(self, *, offset_bytes: int, n_bytes: int) -> None:
        """Tile the random block over ``n_bytes`` from ``offset_bytes``."""
        region = self._bytes[offset_bytes : offset_bytes + n_bytes]
        width = self._block.numel()
        whole = region.numel() // width
        if whole:
            region[: whole * width].view(whole, width).copy_(self._block.expand(whole, width))
        tail = region.numel() - whole * width
        if tail:
            region[whole * width :].copy_(self._block[:tail])

    def tensor(self, n_elements: int, dtype: Any, *, offset_bytes: int = 0, fresh: bool = False) -> Any:
        """A 1-D view of ``n_elements`` of ``dtype`` starting at ``offset_bytes`` (aligned up).

        ``fresh`` re-tiles the region first. Raises ``ValueError`` when it does not fit.
        """
        start = align_up(offset_bytes)
        n_bytes = n_elements * dtype.itemsize
        if start + n_bytes > self.capacity_bytes:
            raise ValueError(
                f"arena of {self.capacity_bytes} bytes cannot hold {n_bytes} bytes at offset {start}"
            )
        if fresh:
            self.fill(offset_bytes=start, n_bytes=n_bytes)
        return self._bytes[start : start + n_bytes].view(dtype)

    def tensors(self, n_elements: int, dtype: Any, *, count: int, fresh: bool = False) -> list[Any]:
        """``count`` consecutive, page-aligned, non-overlapping 1-D views of ``n_elements`` each."""
        step = align_up(n_elements * dtype.itemsize)
        return [self.tensor(n_elements, dtype, offset_bytes=i * step, fresh=fresh) for i in range(count)]


def arena_bytes_for(*, n_bytes: int, count: int) -> int:
    """Arena capacity that holds ``count`` aligned views of ``n_bytes`` each."""
    return count * align_up(n_bytes)
