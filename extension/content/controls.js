// @ts-check
/**
 * What is a control a person can operate, by markup alone (no style lookups), and whether an
 * element is rendered at all. The scan, the re-finding of an element and the waits for one ask it.
 */
import { attr, checkVisibilityOf, classNameOf, hasAttr, isConnectedOf, parentElOf, qs, tagOf } from "./dom_native.js";

/** Tags that are interactive by themselves (see isInteractiveCheap for the exceptions). */
export const INTERACTIVE_TAGS = new Set(["a", "button", "input", "select", "textarea", "summary", "option",
  "details", "label", "video", "audio"]);

export const INTERACTIVE_ROLES = new Set(["button", "link", "checkbox", "radio", "tab", "menuitem",
  "menuitemcheckbox", "menuitemradio", "option", "switch", "textbox", "combobox", "searchbox",
  "slider", "spinbutton", "treeitem", "listbox", "gridcell", "scrollbar"]);

/** Whether the element is interactive by markup alone (no style lookups). @param {Element} el */
export function isInteractiveCheap(el) {
  const tag = tagOf(el);
  if (INTERACTIVE_TAGS.has(tag)) {
    // A link without a target is a control only by what else says so (a role, a tabindex, a handler).
    if (tag === "a" && hasAttr(el, "href")) return true;
    if (tag === "input") return /** @type {HTMLInputElement} */ (el).type !== "hidden";
    if (tag === "label") return false; // its control is the target; a label alone is context
    if (tag === "option" || tag === "details") return false; // rendered with their select / summary
    if (tag === "video" || tag === "audio") return hasAttr(el, "controls");
    if (tag !== "a") return true;
  }
  const role = attr(el, "role");
  const first = role ? role.split(/\s+/)[0].toLowerCase() : "";
  // A grid's cell is data unless it can be chosen or edited: grids make every cell focusable (a
  // roving tabindex, for their arrow keys), which makes none of them a control a person operates.
  if (first === "gridcell") return hasAttr(el, "aria-selected") || attr(el, "aria-readonly") === "false" || hasAttr(el, "onclick");
  if (first && INTERACTIVE_ROLES.has(first)) return true;
  if (hasAttr(el, "onclick")) return true;
  const ce = attr(el, "contenteditable");
  if (ce !== null && ce !== "false") return true;
  const ti = attr(el, "tabindex");
  if (ti !== null && Number(ti) >= 0 && tag !== "body" && tag !== "html") return !(first ? READ_ROLES.has(first) : READ_TAGS.has(tag));
  return isDropZone(el);
}

/**
 * An item of a roving tabindex (a file browser's listing, a toolbar, a tree): only the current
 * item takes the Tab key (tabindex 0) and says it is a control; the others wait at tabindex -1
 * with nothing else marking them, yet a person clicks any of them alike. Such an item is a control
 * when the current one — the same tag and classes, within three levels up — is one by its markup.
 * `memo`: one scan's answers, by container and look (the current item moves between scans).
 * @param {Element} el @param {Map<Element, Map<string, boolean>>} [memo]
 */
export function isRovingItem(el, memo = new Map()) {
  if (attr(el, "tabindex") !== "-1") return false; // (first: the scan asks every element with attributes)
  const cls = classNameOf(el).trim();
  if (!cls || INTERACTIVE_TAGS.has(tagOf(el))) return false;
  const look = tagOf(el) + cls.split(/\s+/).map((c) => `.${CSS.escape(c)}`).join("");
  for (let a = parentElOf(el), k = 0; a && k < 3; a = parentElOf(a), k++) {
    let known = memo.get(a);
    if (!known) memo.set(a, (known = new Map()));
    let v = known.get(look);
    if (v === undefined) {
      const current = qs(a, `${look}[tabindex="0"]`);
      v = !!current && isInteractiveCheap(current);
      known.set(look, v);
    }
    if (v) return true;
  }
  return false;
}

/** What names a drop zone in a class or an id (`drop-zone`, `dropzone`, `file-drop`, `drop_area`). */
const DROP_ZONE_NAMES = /(^|[\s_-])(drop[-_]?(zone|area|target|box)|file[-_]?drop)([\s_-]|$)/i;

/**
 * A drop zone by its markup: an element files are dragged onto (no file input of its own need be
 * there): its class or id names it one, its label says to drop there, or `aria-dropeffect`.
 * The page's drop listeners cannot be seen from here; what the page calls it can.
 * @param {Element} el
 */
export function isDropZone(el) {
  const effect = attr(el, "aria-dropeffect");
  if (effect && effect !== "none") return true;
  const label = attr(el, "aria-label") || "";
  if (/\b(drop|drag)\b/i.test(label) && /\b(files?|here)\b/i.test(label)) return true;
  return DROP_ZONE_NAMES.test(`${attr(el, "class") || ""} ${attr(el, "id") || ""}`);
}

/**
 * What a person reads, not operates, when it takes the keyboard focus (a table focusable to scroll
 * it with the arrow keys, a code block, a region): its tabindex makes it no control. A grid stays
 * out too: its cells and rows are what is chosen, never the grid as one.
 */
const READ_ROLES = new Set(["table", "grid", "treegrid", "rowgroup", "list", "region", "article", "document", "feed", "log",
  "tabpanel", "main", "navigation", "complementary", "banner", "contentinfo", "figure", "img", "status", "note", "math"]);

const READ_TAGS = new Set(["table", "tbody", "ul", "ol", "dl", "pre", "section", "article", "main", "nav", "aside", "figure", "blockquote"]);

/** Whether the element takes up space on screen. @param {Element} el */
export function isRendered(el) {
  if (!isConnectedOf(el)) return false;
  return checkVisibilityOf(el, { checkVisibilityCSS: true });
}
