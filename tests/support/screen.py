"""What a person sees on the screen while heybro acts: the outline on the element acted on, drawn
by the browser's DevTools overlay (extension/background/outline.js), found on a screenshot."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

# The outline's colour (extension/background/outline.js).
OUTLINE = (255, 45, 85)

Box = tuple[float, float, float, float]


def outline_pixels(png: bytes, box: Box) -> int:
    """How many pixels of the outline's colour lie on the border of `box` (x, y, w, h, CSS px at
    a device pixel ratio of 1)."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    x, y, w, h = (round(v) for v in box)
    ring = [(i, j) for i in range(x - 2, x + w + 3) for j in (y - 1, y, y + 1, y + h - 1, y + h, y + h + 1)]
    ring += [(i, j) for j in range(y - 2, y + h + 3) for i in (x - 1, x, x + 1, x + w - 1, x + w, x + w + 1)]

    def near(p: Any) -> bool:
        return all(abs(a - b) <= 40 for a, b in zip(p, OUTLINE))
    return sum(1 for p in ring if 0 <= p[0] < img.width and 0 <= p[1] < img.height and near(img.getpixel(p)))


def outline_box(page: Any, selector: str) -> Box:
    """Where heybro's outline of the element goes: 3 px outside its box."""
    r = page.evaluate("(s) => { const r = document.querySelector(s).getBoundingClientRect(); "
                      "return [r.x, r.y, r.width, r.height]; }", selector)
    return (r[0] - 3, r[1] - 3, r[2] + 6, r[3] + 6)


# Wraps the service worker's DevTools calls: each change of the overlay is logged, with a capture
# of the screen taken on the same attachment the moment the change is made (before the next one
# can be: the outline's changes run one at a time per tab). A test then waits for the changes it
# expects, however slowly a loaded machine makes them, instead of looking at the screen at a
# moment it guessed.
_WATCH_OVERLAY = """() => {
  if (globalThis.__overlay) { globalThis.__overlay.length = 0; return; }
  const real = chrome.debugger.sendCommand.bind(chrome.debugger);
  const log = globalThis.__overlay = [];
  const waiters = [];
  chrome.debugger.sendCommand = async (target, method, params) => {
    const out = await real(target, method, params);
    if (method === "Overlay.highlightRect" || method === "Overlay.hideHighlight") {
      const shot = await real(target, "Page.captureScreenshot", { format: "png" });
      log.push({ method, rect: method === "Overlay.highlightRect" ? [params.x, params.y, params.width, params.height] : null, png: shot.data });
      for (const w of waiters.splice(0)) w();
    }
    return out;
  };
  globalThis.__overlayWait = (n, ms) => new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${log.length} overlay changes, not ${n}`)), ms);
    const check = () => { if (log.length >= n) { clearTimeout(timer); ok(log.slice(0, n).map((e) => e.method)); } else waiters.push(check); };
    check();
  });
}"""


class OverlayWatch:
    """The outline's changes on the screen, each with what the screen showed when it was made."""

    def __init__(self, sw: Any) -> None:
        self.sw = sw
        sw.evaluate(_WATCH_OVERLAY)

    def wait(self, n: int, timeout_s: float = 30) -> list[str]:
        """The first `n` changes (waits for them: an error when they do not come)."""
        return list(self.sw.evaluate("([n, ms]) => globalThis.__overlayWait(n, ms)",
                                     [n, int(timeout_s * 1000)]))

    def until(self, done: Any, timeout_s: float = 30) -> list[str]:
        """The changes up to the first that makes `done(changes)` true (waits for them)."""
        n = 1
        while not done(changes := self.wait(n, timeout_s)):
            n += 1
        return changes

    def count(self) -> int:
        return int(self.sw.evaluate("() => globalThis.__overlay.length"))

    def screen(self, i: int) -> bytes:
        """The screen as the `i`-th change left it."""
        import base64

        return base64.b64decode(self.sw.evaluate("(i) => globalThis.__overlay[i].png", i))
