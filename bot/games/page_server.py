"""Serve one of bot/games/pages/ at a level, for a web game minebot's tests run in Chromium
(bot/games/web_game.py adds ``--port``)::

    python -m bot.games.page_server bevel98 --cols 9 --rows 9 --mines 10 [--sprites classic98 [--faces]] [--end-over MS] --port N
    python -m bot.games.page_server world --seed N --port N

``--sprites SKIN`` draws the cells with a shipped skin pack's tile pictures (templates/SKIN), and
names the page after it (``--faces``: its face too). ``--end-over MS``: that long after a game ends, a
panel hides the board.
"""

from __future__ import annotations

import argparse
import base64
import http.server
import json
from importlib import resources

from bot.vision.pack import templates_root


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.games.page_server")
    parser.add_argument("page")
    parser.add_argument("--cols", type=int, default=9)
    parser.add_argument("--rows", type=int, default=9)
    parser.add_argument("--mines", type=int, default=10)
    parser.add_argument("--sprites", help="draw the cells with this shipped skin pack's pictures")
    parser.add_argument(
        "--faces",
        action="store_true",
        help="with --sprites, draw the face with the pack's faces too",
    )
    parser.add_argument(
        "--end-over",
        type=int,
        help="ms after a game ends that a panel hides the board (none if not given)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="the world page's seed (bot/games/pages/world.html)"
    )
    parser.add_argument("--port", type=int, required=True)
    ns = parser.parse_args(argv)
    html = resources.files("bot.games").joinpath("pages", f"{ns.page}.html").read_text()
    script = f"const LEVEL = [{ns.cols}, {ns.rows}, {ns.mines}]; const SEED = {ns.seed};"
    if ns.end_over is not None:
        script += f"const END_OVER = {ns.end_over};"
    if ns.sprites:
        pack = templates_root() / ns.sprites
        tiles = {
            png.name.removesuffix(".png"): "data:image/png;base64,"
            + base64.b64encode(png.read_bytes()).decode()
            for png in pack.iterdir()
            if png.name.endswith(".png") and (ns.faces or not png.name.startswith("face"))
        }
        script += f"const TILES = {json.dumps(tiles)};"
        html = html.replace("<title>Bevel98</title>", f"<title>Sprites-{ns.sprites}</title>")
    page = html.replace("<script>", f"<script>{script}", 1).encode()

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, format: str, *args: object) -> None:  # quiet
            return

    http.server.HTTPServer(("127.0.0.1", ns.port), Page).serve_forever()


if __name__ == "__main__":
    main()
