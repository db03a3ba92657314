"""The mouse-button presses that reach the X server, from any client, seen by an X event listener of
the test's own (the RECORD extension): when, and where on the screen. Not from minebot's log: the
fault tests count the presses after a fault with it, the end-to-end tests where every press fell."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable

Box = tuple[float, float, float, float]  # left, top, width, height in screen pixels


class ButtonPresses:
    """Each press as the server took it: when this test saw it (``times``, time.monotonic), the
    server's own time of it (``stamps``, ms) and where (``points``, root x and y)."""

    def __init__(self, enough: int = 1) -> None:
        from Xlib import X
        from Xlib.display import Display
        from Xlib.ext import record
        from Xlib.protocol import rq

        self.times: list[float] = []
        self.stamps: list[int] = []
        self.points: list[tuple[int, int]] = []
        self.reached = threading.Event()  # ``enough`` presses seen
        self._control, data = Display(), Display()
        spec = {
            "core_requests": (0, 0),
            "core_replies": (0, 0),
            "ext_requests": (0, 0, 0, 0),
            "ext_replies": (0, 0, 0, 0),
            "delivered_events": (0, 0),
            "device_events": (X.ButtonPress, X.ButtonPress),
            "errors": (0, 0),
            "client_started": False,
            "client_died": False,
        }
        self._context = self._control.record_create_context(0, [record.AllClients], [spec])
        self._control.sync()

        def seen(reply: object) -> None:
            if reply.category != record.FromServer:  # type: ignore[attr-defined]
                return
            raw = reply.data  # type: ignore[attr-defined]
            while raw:
                event, raw = rq.EventField(None).parse_binary_value(raw, data.display, None, None)
                if event.type == X.ButtonPress:
                    self.times.append(time.monotonic())
                    self.stamps.append(event.time)
                    self.points.append((event.root_x, event.root_y))
                    if len(self.times) >= enough:
                        self.reached.set()

        def listen() -> None:
            data.record_enable_context(self._context, seen)  # returns once the context is disabled
            data.close()

        self._thread = threading.Thread(target=listen, daemon=True)
        self._thread.start()

    def after(self, stamp: int) -> int:
        """The presses the server took after its time ``stamp`` (ms). By the server's clock, not
        this test's: the listener thread may see a press late while the test's own thread runs."""
        return sum(t > stamp for t in self.stamps)

    def close(self) -> None:
        self._control.record_disable_context(self._context)
        self._control.record_free_context(self._context)
        self._control.close()
        self._thread.join(5)


def outside(points: Iterable[tuple[int, int]], boxes: Iterable[Box]) -> list[tuple[int, int]]:
    """The points that fall in none of the boxes."""
    boxes = list(boxes)
    return [
        (x, y)
        for x, y in points
        if not any(left <= x < left + w and top <= y < top + h for left, top, w, h in boxes)
    ]
