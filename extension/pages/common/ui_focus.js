// @ts-check
/**
 * Keyboard focus that survives a re-render: when the control a person had focused is hidden or
 * disabled by the change (Pause becomes Resume, Stop becomes New task), focus moves to the control
 * that took its place instead of falling to the page's body.
 */

/** @param {Element} el */
export function isShown(el) {
  if (!(el instanceof HTMLElement)) return false;
  if (el.closest("[hidden]")) return false;
  if (el instanceof HTMLButtonElement && el.disabled) return false;
  return true;
}

/**
 * Runs `update` and, if the control focused before it is no longer usable after it, focuses the
 * first usable one of its replacements (ids, in order of preference).
 * @param {Document} doc
 * @param {Record<string, string[]>} replacements
 * @param {() => void} update
 */
export function keepingFocus(doc, replacements, update) {
  const id = doc.activeElement?.id || "";
  update();
  const options = replacements[id];
  if (!options) return;
  const before = doc.getElementById(id);
  if (before && isShown(before)) return;
  for (const next of options) {
    const el = doc.getElementById(next);
    if (el && isShown(el)) { el.focus(); return; }
  }
}
