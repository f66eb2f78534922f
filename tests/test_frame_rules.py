"""Frames are pages: the user's per-site rules hold in every frame heybro reads or acts in, as in a
tab. A frame on a site kept off is not read (the map says in one line that it was left out, and
why), an action naming one of its elements is refused with the site's verdict — judged by where
the frame is when the action comes, not where it was when it was read — and a screenshot covers
it. Tools go through the coordinator's real `runTool`, carrying the rules as a host's call does.
"""

from __future__ import annotations

import base64
import io
from typing import Any

import pytest
from PIL import Image

from support.dom_rig import browser, find_id, open_page, page, sites  # noqa: F401 (fixtures)
from support.static_server import serve

pytestmark = pytest.mark.browser

FIXTURES = __import__("pathlib").Path(__file__).parent / "fixtures" / "dom"


def run(eb: Any, name: str, args: dict[str, Any] | None = None, sites_rules: dict[str, Any] | None = None) -> dict[str, Any]:
    return eb.sw.evaluate(
        """async ([name, args, rules]) => {
            const [tab] = await chrome.tabs.query({active: true});
            return await globalThis.heybro.runTool({tool: name, args, tab_id: tab.id, timeout_ms: 15000, sites: rules});
        }""", [name, args or {}, sites_rules or {}])


def site_of(base: str) -> str:
    return base.split("://", 1)[1]  # 127.0.0.1:PORT


def frame_id(eb: Any, part: str) -> int:
    frames = eb.sw.evaluate("""async () => { const [tab] = await chrome.tabs.query({active: true});
        return (await chrome.webNavigation.getAllFrames({tabId: tab.id})).map((f) => [f.frameId, f.url]); }""")
    return next(i for i, u in frames if part in u and i)


def with_cross_frame(page: Any, base: str, other: str) -> None:
    open_page(page, f"{base}/frames.html?xo={other.rsplit(':', 1)[1]}")
    page.frame_locator("#cross").locator("button").wait_for()


def test_a_frame_on_a_kept_off_site_is_left_out_and_its_elements_refused(browser, page, sites):
    with_cross_frame(page, sites[0], sites[1])
    kept_off = {"never": [site_of(sites[1])]}
    obs = run(browser, "observe", {}, kept_off)
    assert obs["ok"], obs
    text = obs["result"]["text"]
    # Not a word, an element or a title of it; one line, inside the fence, says why.
    assert "Cross button" not in text and "Cross-origin frame" not in text
    assert not [e for e in obs["result"]["elements"] if e.startswith("f")]
    line = next(ln for ln in text.splitlines() if ln.startswith("[frame left out:"))
    assert f"{site_of(sites[1])}/frame_cross.html" in line and "your settings list" in line, line
    assert text.index('"""') < text.index(line) < text.rindex('"""')
    assert find_id(obs["result"], "Inner button")  # the page's same-origin frame is read as before
    assert [f["reason"] for f in obs["result"]["frames_unreadable"]] == [line]
    # An action naming one of its elements is refused, with the site's verdict; so is a look at it.
    fid = frame_id(browser, "frame_cross.html")
    for tool, args in (("click", {"element_id": f"f{fid}e1"}), ("observe", {"frame": fid})):
        out = run(browser, tool, args, kept_off)
        assert not out["ok"] and out["error"]["code"] == "not_allowed", out
        assert out["error"]["detail"]["rule"] == "never" and out["error"]["detail"]["site"] == site_of(sites[1])
        assert "a frame of this page" in out["error"]["message"]
    assert page.frame_locator("#cross").locator("button").text_content() == "Cross button"


def test_a_frame_that_moved_to_a_kept_off_site_since_it_was_read_is_refused_when_acted_in(browser, page, sites):
    with serve(FIXTURES) as third:
        with_cross_frame(page, sites[0], sites[1])
        kept_off = {"never": [site_of(third)]}
        obs = run(browser, "observe", {}, kept_off)["result"]
        cross = find_id(obs, "Cross button")
        # The frame goes to the kept-off site: the same page there, the same button.
        page.evaluate(f"document.getElementById('cross').src = '{third}/frame_cross.html'")
        page.wait_for_function(f"() => [...document.querySelectorAll('iframe')].some((f) => f.src.startsWith('{third}'))")
        page.frame_locator("#cross").locator("button").wait_for()
        page.wait_for_timeout(200)
        out = run(browser, "click", {"element_id": cross}, kept_off)
        assert not out["ok"] and out["error"]["code"] == "not_allowed", out
        assert out["error"]["detail"]["site"] == site_of(third)
        assert page.frame_locator("#cross").locator("button").text_content() == "Cross button"


def test_an_ask_first_frame_is_read_once_the_user_said_yes_in_this_task(browser, page, sites):
    with_cross_frame(page, sites[0], sites[1])
    ask = {"ask": [site_of(sites[1])]}
    before = run(browser, "observe", {}, ask)["result"]
    assert "Cross button" not in before["text"]
    assert "is a site to ask the user about first" in before["text"]
    out = run(browser, "click", {"element_id": f"f{frame_id(browser, 'frame_cross.html')}e1"}, ask)
    assert out["error"]["detail"]["rule"] == "ask"  # (the host asks the user on this refusal)
    after = run(browser, "observe", {}, {**ask, "approved": [site_of(sites[1])]})["result"]
    assert "Cross button" in after["text"]


def grey_share(png: bytes, box: tuple[int, int, int, int]) -> float:
    img = Image.open(io.BytesIO(png)).convert("RGB")
    x, y, w, h = box
    pixels = [img.getpixel((i, j)) for i in range(x, x + w, 3) for j in range(y, y + h, 3)]
    return sum(1 for p in pixels if p == (128, 128, 128)) / len(pixels)


def test_a_screenshot_covers_a_kept_off_frame_and_shows_the_rest(browser, page, sites):
    with_cross_frame(page, sites[0], sites[1])
    page.evaluate("document.getElementById('cross').style.background = 'rgb(0, 160, 60)'")
    page.frame_locator("#cross").locator("body").evaluate("(b) => b.style.background = 'rgb(0, 160, 60)'")
    r = page.evaluate("(() => { const r = document.getElementById('cross').getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()")
    inner = (round(r[0]) + 4, round(r[1]) + 4, round(r[2]) - 8, round(r[3]) - 8)
    plain = run(browser, "screenshot", {}, {})
    covered = run(browser, "screenshot", {}, {"never": [site_of(sites[1])]})
    assert plain["ok"] and covered["ok"], covered

    def png(out: dict[str, Any]) -> bytes:
        return base64.b64decode(out["result"]["data_url"].split(",", 1)[1])
    assert grey_share(png(plain), inner) < 0.1
    assert grey_share(png(covered), inner) > 0.9
    # The rest of the page is as it is: its same-origin frame's button shows on both.
    same = page.evaluate("(() => { const r = document.getElementById('same').getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()")
    box = (round(same[0]) + 4, round(same[1]) + 4, round(same[2]) - 8, round(same[3]) - 8)
    assert grey_share(png(covered), box) < 0.1
