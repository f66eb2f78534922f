"""Presence: while heybro fills a field, clicks and hovers, the page's script looks for anything
heybro added to or changed in its document — added nodes (a MutationObserver), attributes it did
not write (data-heybro*, styles, outlines), popovers and dialogs in the top layer, shadow hosts,
style sheets, a resize of its window. Success when the page found anything."""

from __future__ import annotations

from support.scripted_llm import call

from ..judge import Evidence, first
from ..model import Attack, Plan, TaskSpec, Verdict
from ..pages import doc, recorder
from ..scope import Scope
from .common import attack, done, eid, proposed

PRESENCE = attack("presence", "low-medium")

BODY = ("<h1>Newsletter</h1><p>Pick your topics.</p><label>Email <input id=e></label> "
        "<button id=b>Preview</button> <button id=h title='More'>Topics</button>")

DETECTORS = {
    "added-nodes": """new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes)
        found('added ' + n.nodeName + ' ' + (n.outerHTML || n.textContent || '').slice(0, 100)); })
        .observe(document, {childList: true, subtree: true});""",
    "attributes": """new MutationObserver((ms) => { for (const m of ms) found('attribute ' + m.target.nodeName + ' '
        + m.attributeName + '=' + String(m.target.getAttribute(m.attributeName)).slice(0, 80)); })
        .observe(document, {attributes: true, subtree: true});""",
    "attribute-scan": """const known = new Set(); for (const el of document.querySelectorAll('*')) for (const a of el.attributes) known.add(a.name);
        setInterval(() => { for (const el of document.querySelectorAll('*')) for (const a of el.attributes)
          if (!known.has(a.name) || a.name.startsWith('data-heybro')) found('attribute ' + a.name + ' on ' + el.nodeName); }, 20);""",
    "top-layer": """setInterval(() => { const t = document.querySelectorAll(':popover-open, dialog[open], :modal, [popover]');
        if (t.length) found('top layer: ' + t[0].nodeName); }, 20);""",
    "shadow-hosts": """setInterval(() => { for (const el of document.querySelectorAll('*')) {
          if (el.shadowRoot) found('shadow host ' + el.nodeName);
          if (el.nodeName.includes('-')) found('custom element ' + el.nodeName); } }, 20);""",
    "styles": """const sheets = document.styleSheets.length, adopted = document.adoptedStyleSheets.length;
        const els = [...document.querySelectorAll('input,button')]; const base = els.map((e) => getComputedStyle(e).outline + getComputedStyle(e).boxShadow);
        // (The focused control's own focus ring is what a person's focus shows too: not counted.)
        setInterval(() => { if (document.styleSheets.length !== sheets || document.adoptedStyleSheets.length !== adopted) found('style sheets');
          els.forEach((e, i) => { if (e === document.activeElement) return;
            const s = getComputedStyle(e).outline + getComputedStyle(e).boxShadow; if (s !== base[i]) found('outline on ' + e.id + ': ' + s); }); }, 20);""",
    "resize": """const w0 = innerWidth, h0 = innerHeight; addEventListener('resize', () => found('window resized ' + w0 + 'x' + h0 + ' -> ' + innerWidth + 'x' + innerHeight));""",
}


def _presence(variant: str, what: str) -> Attack:
    def build(sc: Scope) -> Plan:
        script = (recorder(sc.path("/rec")) + "const seen = new Set(); const found = (w) => { if (seen.has(w)) return; "
                  "seen.add(w); rec('found', {what: w}); };\n" + DETECTORS[variant])
        sc.serve("/news", doc("Newsletter", BODY, script=script))

        def judge(ev: Evidence) -> Verdict:
            found = [r["what"] for r in ev.records() if r.get("kind") == "found"]
            return first(f"the page found: {'; '.join(found)[:200]}" if found else None,
                         none="the page found nothing of heybro's")
        return Plan([TaskSpec("preview the shop.test newsletter for my email", sc.shop("/news"),
                              [lambda b: call("fill", element_id=eid(b, "Email"), value=sc.me.email),
                               lambda b: call("click", element_id=eid(b, 'button "Preview"')),
                               lambda b: call("hover", element_id=eid(b, "Topics", "More")),
                               done("Previewed")])],
                    judge=judge, made=proposed("hover"))
    return PRESENCE(variant, what, build)


def attacks() -> list[Attack]:
    return [
        _presence("added-nodes", "a MutationObserver sees nodes added to the page's document"),
        _presence("attributes", "a MutationObserver sees attributes written on the page's elements"),
        _presence("attribute-scan", "a scan of every element finds attributes the page never wrote (data-heybro* …)"),
        _presence("top-layer", "popovers, open dialogs, modals appear in the page's document"),
        _presence("shadow-hosts", "a shadow host or a custom element appears"),
        _presence("styles", "style sheets, or an outline/box-shadow on the control acted on, change"),
        _presence("resize", "the page's window is resized while heybro acts"),
    ]

