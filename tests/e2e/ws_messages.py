"""The messages a Streamlit page receives over its WebSocket, decoded: what each rerun re-sent, and its size.

Shared by the browser tests and ``benchmarks/readiness_browser.py``: a test asserts which elements an
interaction re-sends, the benchmark counts their bytes.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from playwright.sync_api import Page
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

#: Quiet time after the last message before an interaction counts as over: late frames still count.
SETTLE_MS = 400
#: How long an interaction is watched for the start of a rerun before it counts as causing none.
NO_RERUN_MS = 1500


def message_kind(payload: bytes) -> str:
    """A ForwardMsg's kind: ``delta:<element>`` for an element, ``delta:block`` for a container."""
    msg = ForwardMsg()
    msg.ParseFromString(payload)
    kind = msg.WhichOneof("type") or "unknown"
    if kind != "delta":
        return kind
    delta_kind = msg.delta.WhichOneof("type")
    if delta_kind == "new_element":
        return f"delta:{msg.delta.new_element.WhichOneof('type')}"
    return "delta:block" if delta_kind == "add_block" else f"delta:{delta_kind}"


@dataclass
class Frames:
    """Every message a page has received so far: when it came, its size on the wire, its kind."""

    times: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)

    def receive(self, payload: str | bytes) -> None:
        self.times.append(time.perf_counter())
        self.sizes.append(len(payload))
        self.kinds.append(message_kind(payload) if isinstance(payload, bytes) else "text")

    def mark(self) -> int:
        """A position to count from: :meth:`since` and :meth:`settle` take it."""
        return len(self.sizes)

    def at(self, mark: int, kind: str) -> list[float]:
        """Arrival times of the messages of ``kind`` from ``mark`` on."""
        return [t for t, k in zip(self.times[mark:], self.kinds[mark:], strict=True) if k == kind]

    def since(self, mark: int) -> Counter[str]:
        """How many messages of each kind came from ``mark`` on."""
        return Counter(self.kinds[mark:])

    def bytes_by_kind(self, mark: int) -> Counter[str]:
        """Bytes received from ``mark`` on, per message kind."""
        total: Counter[str] = Counter()
        for size, kind in zip(self.sizes[mark:], self.kinds[mark:], strict=True):
            total[kind] += size
        return total

    def received(self, mark: int) -> int:
        """Bytes received from ``mark`` on."""
        return sum(self.sizes[mark:])

    def settle(self, page: Page, mark: int, *, timeout_ms: float = 60_000) -> bool:
        """Wait for the rerun (if any) an action just before ``mark`` caused, then for quiet; True if one ran.

        A rerun announces itself at once (``session_status_changed``); one that has started is waited for
        to its ``script_finished``. Polling in short waits keeps Playwright's event loop turning, so each
        message's arrival is timed when it comes in, not when the caller next looks.
        """
        started = time.perf_counter()
        while not self.at(mark, "session_status_changed") and _ms_since(started) < NO_RERUN_MS:
            page.wait_for_timeout(20)
        ran = bool(self.at(mark, "session_status_changed"))
        while ran and not self.at(mark, "script_finished"):
            if _ms_since(started) > timeout_ms:
                raise TimeoutError("the rerun did not finish")
            page.wait_for_timeout(20)
        while self.times[mark:] and _ms_since(self.times[-1]) < SETTLE_MS:
            page.wait_for_timeout(50)
        return ran


def _ms_since(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def watch(page: Page) -> Frames:
    """Decode every WebSocket message ``page`` receives from now on."""
    frames = Frames()
    page.on("websocket", lambda ws: ws.on("framereceived", frames.receive))
    return frames
