// Record fixtures of a real web Minesweeper in a real Chromium window on the X display, at every
// device scale a user's browser zoom gives: fixtures/react-minesweeper/scale<S>-<state>.png + .board.
//
// The game is the npm package react-minesweeper (its own built demo page, served here from its
// folder); the browser is Debian's chromium, driven by playwright-core only to set up each position
// (clicks, flags) and to read the true board from the page's own cells. The picture is a grab of
// the X screen itself (mss, through minebot's Python), as minebot sees a desktop.
//
//   cd FOLDER && npm install react-minesweeper playwright-core
//   DISPLAY=:N node .../scripts/record-web.mjs node_modules/react-minesweeper/demo/dist OUT_DIR PYTHON
//
// (run from FOLDER: playwright-core is found in its node_modules); needs Debian's chromium and Xvfb.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

const { chromium } = createRequire(path.join(process.cwd(), "/"))("playwright-core");

const [dist, out, python] = process.argv.slice(2);
const SCALES = [1, 1.25, 1.5, 1.75, 2];
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".png": "image/png", ".ttf": "font/ttf" };

const server = http.createServer((req, res) => {
  let file = path.join(dist, decodeURIComponent(req.url.split("?")[0]));
  if (file.endsWith("/")) file += "index.html";
  fs.readFile(file, (err, data) => {
    if (err) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { "Content-Type": TYPES[path.extname(file)] || "application/octet-stream" });
    res.end(data);
  });
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const url = `http://127.0.0.1:${server.address().port}/`;

// The true board, from the page's own cells, and where they are on the screen (device pixels).
function truth() {
  const table = document.querySelector("table.minesweeper");
  const rows = [...table.querySelectorAll("tr.minesweeper__row")];
  const lost = table.classList.contains("minesweeper_lost");
  const won = table.classList.contains("minesweeper_won");
  let mines = 0;
  const grid = rows.map((tr) => [...tr.querySelectorAll("td")].map((td) => {
    const c = td.classList;
    if (c.contains("minesweeper__field_bomb")) mines++;
    if (c.contains("minesweeper__field_flag")) return "F";
    if (c.contains("minesweeper__field_cloud")) return "#";
    if (c.contains("minesweeper__field_bomb")) return "*"; // shown when lost; the one clicked looks the same
    return String([...c].map((k) => k.match(/^minesweeper__field_(\d)$/)).find(Boolean)[1]);
  }).join(""));
  const cells = rows[0].querySelectorAll("td");
  const first = cells[0].getBoundingClientRect();
  const right = cells[1].getBoundingClientRect();
  const below = rows[1].querySelector("td").getBoundingClientRect();
  const dpr = window.devicePixelRatio;
  const top = window.screenY + window.outerHeight - window.innerHeight; // no window manager: no frame
  return {
    grid, mines, state: lost ? "lost" : won ? "won" : "playing",
    origin: [Math.round((window.screenX + first.left) * dpr), Math.round((top + first.top) * dpr)],
    pitch: [(right.left - first.left) * dpr, (below.top - first.top) * dpr],
    cell: Math.round(first.width * dpr),
  };
}

async function shot(page, name) {
  await page.mouse.move(2, 2); // the pointer off the board
  await page.waitForTimeout(300);
  const t = await page.evaluate(truth);
  const png = path.join(out, `${name}.png`);
  execFileSync(python, ["-c", "import sys, mss, mss.tools\nwith (mss.MSS() if hasattr(mss, \"MSS\") else mss.mss()) as m:\n    s = m.grab(m.monitors[0])\n    mss.tools.to_png(s.rgb, s.size, output=sys.argv[1])", png]);
  const header = [
    "game: react-minesweeper", `rows: ${t.grid.length}`, `cols: ${t.grid[0].length}`, `mines: ${t.mines}`,
    `cell_px: ${t.cell}`, `origin: ${t.origin[0]},${t.origin[1]}`, `state: ${t.state}`,
    `pitch: ${+t.pitch[0].toFixed(3)},${+t.pitch[1].toFixed(3)}`,
  ];
  fs.writeFileSync(path.join(out, `${name}.board`), header.join("\n") + "\n\n" + t.grid.join("\n") + "\n");
  console.log(`${name}: ${t.state}, ${t.mines} mines, pitch ${t.pitch}`);
}

// cells (row, col) of the page's board with a property, in CSS pixels
const centres = (page, selector) => page.$$eval(`table.minesweeper tr`, (trs, sel) => trs.flatMap((tr, r) =>
  [...tr.querySelectorAll("td")].map((td, c) => ({ r, c, td })).filter(({ td }) => td.matches(sel)).map(({ r, c, td }) => {
    const b = td.getBoundingClientRect();
    return { r, c, x: b.left + b.width / 2, y: b.top + b.height / 2 };
  })), selector);

fs.mkdirSync(out, { recursive: true });
for (const [i, scale] of SCALES.entries()) {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium", headless: false,
    args: [`--force-device-scale-factor=${scale}`, "--window-position=0,0", `--window-size=${Math.floor(1280 / scale)},${Math.floor(1024 / scale)}`, "--test-type",
      "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-sandbox"],
  });
  const context = await browser.newContext({ viewport: null });
  // the same boards on every run: the page's Math.random seeded
  await context.addInitScript((seed) => {
    let s = seed >>> 0;
    Math.random = () => { s = (s + 0x6d2b79f5) >>> 0; let t = s; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  }, 1000 + i);
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector("table.minesweeper");
  await page.$eval("table.minesweeper", (t) => t.scrollIntoView({ block: "center", inline: "center" }));
  const name = `scale${scale}`;
  await shot(page, `${name}-fresh`);
  // open an area: a cell with no mine around it
  const [zero] = await centres(page, ".minesweeper__field_0:not(.minesweeper__field_bomb)");
  await page.mouse.click(zero.x, zero.y);
  // flag two mines beside the opened area
  const mines = await centres(page, ".minesweeper__field_bomb");
  const open = await centres(page, ":not(.minesweeper__field_cloud)");
  const beside = mines.filter((m) => open.some((o) => Math.abs(o.r - m.r) <= 1 && Math.abs(o.c - m.c) <= 1));
  for (const m of beside.slice(0, 2)) await page.mouse.click(m.x, m.y, { button: "right" });
  await shot(page, `${name}-midgame`);
  const [mine] = await centres(page, ".minesweeper__field_bomb:not(.minesweeper__field_flag)");
  await page.mouse.click(mine.x, mine.y);
  await shot(page, `${name}-lost`);
  await browser.close();
}
server.close();
