"""The one error tree of ``gpu_checks``.

``GpuChecksError`` is the base. ``DeviceUnavailableError``, ``MemoryCapError`` and ``PlanError``
are also ``ValueError`` (the caller asked for something this machine or this plan cannot do);
``RunInProgressError`` is also a ``RuntimeError`` (another run holds this process's lock);
``UnsafeLockError`` is also a ``PermissionError`` (the lock's folder or file is not this user's alone). Every
message says what to do instead.
"""

from __future__ import annotations


class GpuChecksError(Exception):
    """Base of every error raised on purpose by ``gpu_checks``."""


class DeviceUnavailableError(GpuChecksError, ValueError):
    """The requested device (``cuda``, ``mps``) is not present in this torch build or machine."""


class MemoryCapError(GpuChecksError, ValueError):
    """A buffer would exceed the safe fraction of free memory that probes may use."""


class PlanError(GpuChecksError, ValueError):
    """A plan or a size option is malformed (unknown name, non-positive or unparsable size)."""


class RunInProgressError(GpuChecksError, RuntimeError):
    """Another run already holds this process's run lock; only one run at a time is allowed."""


class UnsafeLockError(GpuChecksError, PermissionError):
    """The device lock's folder or file could be another user's: a link, shared, or owned by someone else."""
