"""Serve a web Minesweeper on localhost and show it in a Chromium window of its own; run by
bot/games as one process, so that stopping this stops both (SIGTERM).

    python -m bot.games.web_game --scale 1.5 --size 480,560 --profile DIR [--debug-port P] -- SERVER [ARGS...]

SERVER is started with ``--port N`` added (a free port); once it answers, Chromium opens its page
as an app window (no tabs or address bar) at the device scale asked for: what a user's browser
zoom does to the page's pixels.
"""

from __future__ import annotations

import argparse
import shutil
import signal
import socket
import subprocess
import sys
import time
from types import FrameType

SERVER_WAIT = 60.0  # s for the server to answer (a first start compiles its Python)
# Chromium on a machine with no network and no GPU, run as root: the flags that keep it quiet
CHROMIUM_FLAGS = (
    "--no-sandbox",
    "--test-type",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=Translate",
    "--password-store=basic",
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(port: int, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + SERVER_WAIT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"the game's server exited ({server.returncode}) before it served its page")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    sys.exit(f"the game's server did not answer on port {port} within {SERVER_WAIT:.0f} s")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.games.web_game")
    parser.add_argument(
        "--scale", type=float, default=1.0, help="Chromium's device scale (browser zoom)"
    )
    parser.add_argument("--size", default="480,560", help="window size W,H in page pixels")
    parser.add_argument("--profile", required=True, help="a new folder for Chromium's profile")
    parser.add_argument(
        "--debug-port",
        type=int,
        help="Chromium's remote debugging port, for a judge of the page's state",
    )
    parser.add_argument("server", nargs="+", help="the game's server command")
    ns = parser.parse_args(argv)
    browser_program = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser_program is None:
        sys.exit("chromium is not installed; run scripts/install-games")
    port = free_port()
    started: list[subprocess.Popen[bytes]] = []

    def stop(signum: int = 0, frame: FrameType | None = None) -> None:
        for process in reversed(started):
            process.terminate()
        for process in reversed(started):
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    started.append(subprocess.Popen([*ns.server, "--port", str(port)]))
    wait_for(port, started[0])
    started.append(
        subprocess.Popen(
            [
                browser_program,
                *CHROMIUM_FLAGS,
                f"--user-data-dir={ns.profile}",
                f"--force-device-scale-factor={ns.scale:g}",
                "--window-position=0,0",
                f"--window-size={ns.size}",
                *([f"--remote-debugging-port={ns.debug_port}"] if ns.debug_port else []),
                f"--app=http://127.0.0.1:{port}/",
            ]
        )
    )
    started[1].wait()
    stop()


if __name__ == "__main__":
    main()
