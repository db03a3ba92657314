"""Read a web page's own state through Chromium's remote debugging port (the DevTools protocol):
what a judge of a web game needs, and what the player never reads.

The port's ``/json`` lists the pages; each has a WebSocket on which ``Runtime.evaluate`` runs an
expression in the page and returns its value. websocket-client speaks the WebSocket.
"""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

from bot.errors import ScreenError

ANSWER_WAIT = 10.0  # s for the page to answer one evaluation
PAGE_WAIT = 30.0  # s for Chromium to list the page once started


def page_socket(port: int, wait: float = PAGE_WAIT) -> str:
    """The WebSocket address of the first page Chromium shows on ``port``."""
    deadline = time.monotonic() + wait
    last = "nothing"
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json", timeout=2) as answer:
                targets = json.load(answer)
            pages = [t for t in targets if t.get("type") == "page" and "webSocketDebuggerUrl" in t]
            if pages:
                return str(pages[0]["webSocketDebuggerUrl"])
            last = f"{len(targets)} targets, no page"
        except OSError as exc:
            last = str(exc)
        time.sleep(0.2)
    raise ScreenError(
        f"Chromium showed no page on its debugging port {port} within {wait:.0f} s ({last})"
    )


def evaluate(port: int, expression: str) -> Any:
    """The value of ``expression`` in the page (JSON-able: returned by value)."""
    import websocket  # websocket-client

    socket = websocket.create_connection(page_socket(port), timeout=ANSWER_WAIT)
    try:
        socket.send(
            json.dumps(
                {
                    "id": 1,
                    "method": "Runtime.evaluate",
                    "params": {"expression": expression, "returnByValue": True},
                }
            )
        )
        while True:
            message = json.loads(socket.recv())
            if message.get("id") == 1:
                break
    finally:
        socket.close()
    if "error" in message:
        raise ScreenError(f"the page did not evaluate {expression!r}: {message['error']}")
    result = message["result"]
    if "exceptionDetails" in result:
        raise ScreenError(f"the page threw on {expression!r}: {result['exceptionDetails']}")
    return result["result"].get("value")
