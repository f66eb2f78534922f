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
