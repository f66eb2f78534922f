// @ts-check
/**
 * A re-implementation of browser-use's element serializer output (`clickable_elements_to_string`,
 * the 0.1.x format its agents were prompted with), for size comparisons only:
 *
 *   [12]<button aria-label;type>Submit/>    one line per highlighted (interactive) element: index,
 *                                           tag, the values of `include_attributes` joined by ";"
 *                                           (minus one equal to the text), then the text up to the
 *                                           next interactive element, lines joined by "\n"
 *   Some visible text                       text nodes outside interactive elements, one per line
 *
 * It is fed the same interactive elements our scanner found, so both renderings carry the same
 * elements and the same page text ("equal information").
 */
const INCLUDE = ["title", "type", "name", "role", "aria-label", "placeholder", "value", "alt", "aria-expanded", "data-date-format"];

/** @param {Set<Element>} interactive @param {Document} [doc] */
export function browserUseRender(interactive, doc = document) {
  /** @type {Map<Element, number>} */
  const index = new Map();
  let n = 0;
  const out = [];
  /** Text of el's subtree up to the next interactive element. @param {Element} el */
  const textTillNext = (el) => {
    const parts = [];
    const walk = (/** @type {Node} */ node) => {
      if (node !== el && node.nodeType === 1 && interactive.has(/** @type {Element} */ (node))) return;
      if (node.nodeType === 3) { const t = (node.nodeValue || "").trim(); if (t) parts.push(t); return; }
      if (node.nodeType === 1 && ["script", "style", "noscript"].includes(/** @type {Element} */ (node).localName)) return;
      for (let c = node.firstChild; c; c = c.nextSibling) walk(c);
      if (node.nodeType === 1 && /** @type {Element} */ (node).shadowRoot) walk(/** @type {any} */ (node).shadowRoot);
    };
    walk(el);
    return parts.join("\n").trim();
  };
  /** @param {Node} node @param {boolean} underHighlight */
  const walk = (node, underHighlight) => {
    if (node.nodeType === 3) {
      const t = (node.nodeValue || "").trim();
      const p = node.parentElement;
      if (t && !underHighlight && p && p.checkVisibility({ checkVisibilityCSS: true })) out.push(t);
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 11) return;
    const el = /** @type {Element} */ (node);
    if (node.nodeType === 1 && ["script", "style", "noscript", "head", "template"].includes(el.localName)) return;
    let hl = underHighlight;
    if (node.nodeType === 1 && interactive.has(el)) {
      index.set(el, n);
      const text = textTillNext(el);
      const vals = [...new Set(INCLUDE.map((a) => (a === "value" && "value" in el ? String(/** @type {any} */ (el).value || "") : el.getAttribute(a) || "")).filter((v) => v && v !== el.localName))].filter((v) => v !== text);
      const attrs = vals.join(";");
      let line = `[${n}]<${el.localName} `;
      if (attrs) line += attrs;
      if (text) line += attrs ? `>${text}` : text;
      line += "/>";
      out.push(line);
      n++;
      hl = true;
    }
    for (let c = node.firstChild; c; c = c.nextSibling) walk(c, hl);
    if (node.nodeType === 1 && el.shadowRoot) walk(el.shadowRoot, hl);
    if (node.nodeType === 1 && (el.localName === "iframe")) {
      try { const d = /** @type {HTMLIFrameElement} */ (el).contentDocument; if (d && d.body) walk(d.body, hl); } catch { /* cross-origin */ }
    }
  };
  if (doc.body) walk(doc.body, false);
  return out.join("\n");
}
