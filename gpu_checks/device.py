"""The device the checks run on: discovery, capabilities, free memory and a stable fingerprint.

Discovery imports torch; the helpers that read ``/proc`` and ``/sys`` do not. Sizes are bytes.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import platform
import re
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from gpu_checks.errors import DeviceUnavailableError, PlanError
from gpu_checks.presets import preset_id_for
from gpu_checks.record import Record

#: Last-level cache assumed when the machine does not say (a large desktop or server L3).
DEFAULT_LLC_BYTES = 32 * 2**20
_SYS_CACHE = Path("/sys/devices/system/cpu/cpu0/cache")
_CPUINFO = Path("/proc/cpuinfo")
_MEMINFO = Path("/proc/meminfo")
# CPU feature flags that mean native bf16 arithmetic (x86 AVX-512 BF16 or AMX; Arm BF16).
_BF16_FLAGS = frozenset({"avx512_bf16", "amx_bf16", "bf16"})


class DeviceKind(StrEnum):
    """Which backend the probes run on."""

    CPU = "cpu"
    CUDA = "cuda"
    MPS = "mps"


@dataclass(frozen=True)
class DeviceInfo(Record):
    """What the checks know about a device.

    ``memory_bytes`` is the total and ``free_memory_bytes`` what was free at discovery (both None
    when unknown); ``llc_bytes`` is the last-level cache (L3 on a CPU, L2 on a GPU) and
    ``llc_source`` says where that figure came from. ``fast_dtypes`` are torch dtype names whose
    matmuls run natively (never float16 on a CPU, which takes a slow path). ``fingerprint`` is a
    short hash of kind, name, total memory and cache size, equal across runs on the same device.
    """

    kind: DeviceKind
    torch_device: str
    name: str
    memory_bytes: int | None
    free_memory_bytes: int | None
    llc_bytes: int
    llc_source: str
    threads: int
    torch_version: str
    fast_dtypes: tuple[str, ...]
    preset_id: str | None = None
    fingerprint: str = field(default="", init=False)

    def __post_init__(self) -> None:
        memory_gib = round((self.memory_bytes or 0) / 2**30)
        key = f"{self.kind.value}|{self.name}|{memory_gib}|{self.llc_bytes}"
        object.__setattr__(self, "fingerprint", hashlib.sha256(key.encode()).hexdigest()[:16])


def parse_cache_size(text: str) -> int:
    """Bytes from a sysfs cache size such as ``48K``, ``2048K`` or ``32M``."""
    match = re.fullmatch(r"\s*(\d+)\s*([KMG]?)\s*", text, flags=re.IGNORECASE)
    if match is None:
        raise ValueError(f"unreadable cache size {text!r}")
    scale = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}[match.group(2).upper()]
    return int(match.group(1)) * scale


def cpu_llc_bytes(*, cache_dir: Path = _SYS_CACHE) -> tuple[int, str]:
    """The CPU's last-level cache in bytes and where it came from (sysfs, else the default)."""
    best_level, best_size = -1, 0
    for index in sorted(cache_dir.glob("index*")):
        try:
            kind = (index / "type").read_text().strip()
            level = int((index / "level").read_text())
            size = parse_cache_size((index / "size").read_text())
        except (OSError, ValueError):
            continue
        if kind != "Instruction" and level > best_level:
            best_level, best_size = level, size
    if best_size > 0:
        return best_size, f"sysfs L{best_level}"
    return DEFAULT_LLC_BYTES, "default (cache size unknown)"


def meminfo_bytes(field_name: str, *, meminfo: Path = _MEMINFO) -> int | None:
    """A ``/proc/meminfo`` field (``MemTotal``, ``MemAvailable``) in bytes, None when unavailable."""
    try:
        text = meminfo.read_text()
    except OSError:
        return None
    match = re.search(rf"^{field_name}:\s*(\d+)\s*kB", text, flags=re.MULTILINE)
    return int(match.group(1)) * 1024 if match else None


def cpu_flags(*, cpuinfo: Path = _CPUINFO) -> frozenset[str]:
    """CPU feature flags from ``/proc/cpuinfo`` (x86 ``flags`` or Arm ``Features``); empty elsewhere."""
    try:
        text = cpuinfo.read_text()
    except OSError:
        return frozenset()
    match = re.search(r"^(?:flags|Features)\s*:(.*)$", text, flags=re.MULTILINE)
    return frozenset(match.group(1).split()) if match else frozenset()


def cpu_fast_dtypes(flags: frozenset[str]) -> tuple[str, ...]:
    """float32 always; bfloat16 only with native bf16 instructions. float16 never (slow path)."""
    return ("float32", "bfloat16") if flags & _BF16_FLAGS else ("float32",)


def cpu_name(*, cpuinfo: Path = _CPUINFO) -> str:
    """The processor's model name, or the platform's description when ``/proc/cpuinfo`` is absent."""
    try:
        match = re.search(r"^model name\s*:\s*(.+)$", cpuinfo.read_text(), flags=re.MULTILINE)
    except OSError:
        match = None
    if match:
        return match.group(1).strip()
    return platform.processor() or platform.machine() or "CPU"


def _physical_memory_bytes() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def usable_cpus() -> int:
    """How many CPUs this process may run on (its affinity mask where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def check_threads(threads: int, *, cpus: int | None = None) -> int:
    """``threads`` when it is between 1 and the usable CPUs; else :class:`PlanError` saying what to give.

    More threads than CPUs only measures the scheduler, and tens of thousands crash the BLAS and
    OpenMP runtimes outright, so they are refused before torch sees them.
    """
    limit = cpus if cpus is not None else usable_cpus()
    if not 1 <= threads <= limit:
        raise PlanError(
            f"{threads} threads: this machine lets the checks use {limit} CPU"
            f"{'s' if limit != 1 else ''}; give a number from 1 to {limit}"
        )
    return threads


def _torch(torch_module: Any) -> Any:
    return torch_module if torch_module is not None else importlib.import_module("torch")


def resolve_kind(requested: str | None, *, torch_module: Any = None) -> DeviceKind:
    """The device kind to use: ``requested``, or the best available (CUDA, then MPS, then CPU).

    ``torch_module`` stands in for torch (tests describe a CUDA machine without one).
    """
    torch = _torch(torch_module)
    cuda = torch.cuda.is_available()
    mps = torch.backends.mps.is_available()
    if requested is None:
        return DeviceKind.CUDA if cuda else DeviceKind.MPS if mps else DeviceKind.CPU
    try:
        kind = DeviceKind(requested.lower())
    except ValueError:
        raise DeviceUnavailableError(f"unknown device {requested!r}: use cpu, cuda or mps") from None
    if (kind is DeviceKind.CUDA and not cuda) or (kind is DeviceKind.MPS and not mps):
        raise DeviceUnavailableError(
            f"{kind.value} is not available with torch {torch.__version__} on this machine; use --device cpu"
        )
    return kind


def discover(
    requested: str | None = None, *, threads: int | None = None, torch_module: Any = None
) -> DeviceInfo:
    """Describe the requested device (default: the best available). ``threads`` sets the CPU count.

    ``torch_module`` stands in for torch: only the attributes read here are needed (``cuda.*``,
    ``backends.mps``, ``mps.*``, ``get_num_threads``, ``__version__``).
    """
    torch = _torch(torch_module)
    kind = resolve_kind(requested, torch_module=torch)
    n_threads = check_threads(threads) if threads is not None else torch.get_num_threads()
    version = str(torch.__version__)
    if kind is DeviceKind.CUDA:
        index = torch.cuda.current_device()
        props = torch.cuda.get_device_properties(index)
        free, total = torch.cuda.mem_get_info(index)
        fast = (
            ("float32", "bfloat16", "float16") if torch.cuda.is_bf16_supported() else ("float32", "float16")
        )
        return DeviceInfo(
            kind=kind,
            torch_device=f"cuda:{index}",
            name=str(props.name),
            memory_bytes=int(total),
            free_memory_bytes=int(free),
            llc_bytes=int(props.L2_cache_size) or DEFAULT_LLC_BYTES,
            llc_source="CUDA L2" if props.L2_cache_size else "default (L2 size unknown)",
            threads=n_threads,
            torch_version=version,
            fast_dtypes=fast,
            preset_id=preset_id_for(str(props.name)),
        )
    if kind is DeviceKind.MPS:
        # Unified memory: the Metal working-set limit minus what the driver already holds.
        limit = int(torch.mps.recommended_max_memory())
        held = int(torch.mps.driver_allocated_memory())
        return DeviceInfo(
            kind=kind,
            torch_device="mps",
            name=f"Apple MPS ({platform.machine()})",
            memory_bytes=limit,
            free_memory_bytes=max(0, limit - held),
            llc_bytes=DEFAULT_LLC_BYTES,
            llc_source="default (system-level cache size unknown)",
            threads=n_threads,
            torch_version=version,
            fast_dtypes=("float32", "float16"),
        )
    llc, source = cpu_llc_bytes()
    total = meminfo_bytes("MemTotal") or _physical_memory_bytes()
    free = meminfo_bytes("MemAvailable")
    return DeviceInfo(
        kind=kind,
        torch_device="cpu",
        name=cpu_name(),
        memory_bytes=total,
        free_memory_bytes=free if free is not None else (total // 2 if total else None),
        llc_bytes=llc,
        llc_source=source,
        threads=n_threads,
        torch_version=version,
        fast_dtypes=cpu_fast_dtypes(cpu_flags()),
    )
