// @ts-check
/**
 * A tab's frames, as the browser lists them (`chrome.webNavigation`: ids, parents, the addresses
 * they committed — what the user's site rules are judged on, frame_rules.js) and as each frame
 * tells where it is (a small script run in every frame, in the extension's own world: its place
 * among its parent's frames, its viewport, the boxes of its child frames; nothing of it reaches the
 * page, and nothing of the page's content leaves it).
 *
 * @typedef {import("./frame_rules.js").FrameSeen} FrameSeen
 * @typedef {import("./frame_rules.js").FrameNode} FrameNode
 * @typedef {import("./frame_rules.js").FrameVerdict} FrameVerdict
 * @typedef {import("../shared/site_rules.js").SiteGate} SiteGate
 * @typedef {{seen: FrameSeen[], nodes: FrameNode[]}} FrameTree
 */

/**
 * Run in each frame (serialized: it may use nothing from outside): whether it reads itself (the top
 * page, or a frame whose parent it cannot read), its address, viewport and place, and where its
 * child frames are.
 */
function selfReport() {
  let root = window === window.top;
  if (!root) { try { void window.parent.document.body; } catch { root = true; } }
  /** @type {number[] | null} */ let path = [];
  try {
    for (let w = /** @type {Window} */ (window); w !== w.top; w = w.parent) {
      const p = w.parent;
      let i = 0;
      while (i < p.length && p[i] !== w) i++;
      if (i >= p.length) { path = null; break; }
      path.unshift(i);
    }
  } catch { path = null; }
  const kids = [];
  if (window.length) {
    const TAGS = "iframe,frame,object";
    /** @type {Element[]} */ let owners = Array.from(document.querySelectorAll(TAGS));
    const found = (/** @type {number} */ i) => owners.find((el) => /** @type {HTMLIFrameElement} */ (el).contentWindow === window[i]);
    let missing = false;
    for (let i = 0; i < window.length; i++) if (!found(i)) missing = true;
    if (missing) {
      // Frames inside shadow roots (closed ones too: this script runs in the extension's world).
      owners = [];
      /** @type {Array<Document | ShadowRoot>} */ const stack = [document];
      while (stack.length) {
        for (const el of Array.from(/** @type {Document | ShadowRoot} */ (stack.pop()).querySelectorAll("*"))) {
          if (el.matches(TAGS)) owners.push(el);
          let sr = null;
          try { sr = /** @type {any} */ (chrome).dom?.openOrClosedShadowRoot?.(el) || el.shadowRoot; } catch { sr = el.shadowRoot; }
          if (sr) stack.push(sr);
        }
      }
    }
    for (let i = 0; i < window.length; i++) {
      const el = /** @type {HTMLElement | undefined} */ (found(i));
      if (!el) continue;
      const r = el.getBoundingClientRect();
      const s = el.offsetWidth ? r.width / el.offsetWidth : 1;
      const cs = getComputedStyle(el);
      kids.push({ i, x: r.left, y: r.top, w: r.width, h: r.height, s,
        cx: r.left + (el.clientLeft + (parseFloat(cs.paddingLeft) || 0)) * s, cy: r.top + (el.clientTop + (parseFloat(cs.paddingTop) || 0)) * s });
    }
  }
  return { root, url: location.href, vw: innerWidth, vh: innerHeight, path, kids };
}

/**
 * The tab's frames, both views. Throws `unsupported` when the page cannot be scripted at all.
 * @param {number} tabId @returns {Promise<FrameTree>}
 */
export async function frameTree(tabId) {
  const listed = listedFrames(tabId);
  /** @type {chrome.scripting.InjectionResult<any>[]} */ let res;
  try {
    res = await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, func: selfReport });
  } catch (e) {
    throw Object.assign(new Error(`This page cannot be read by extensions (${String(/** @type {any} */ (e)?.message || e)}).`), { code: "unsupported" });
  }
  /** @type {FrameSeen[]} */
  const seen = res.filter((r) => r.result).map((r) => ({ frameId: r.frameId, ...r.result }));
  /** @type {FrameNode[]} */
  const nodes = await listed;
  // A frame the browser does not list yet (it has just been made) is judged by what it says of
  // itself, under the frame its place says it is in.
  for (const f of seen) {
    if (nodes.some((n) => n.frameId === f.frameId)) continue;
    const parent = f.path && f.path.length ? seen.find((p) => p.path && p.path.join(".") === f.path?.slice(0, -1).join(".")) : undefined;
    nodes.push({ frameId: f.frameId, parentFrameId: f.frameId === 0 ? -1 : parent ? parent.frameId : -1, url: f.url });
  }
  return { seen, nodes };
}

/**
 * The tab's frames as the browser lists them now (ids, parents, the addresses they committed).
 * @param {number} tabId @returns {Promise<FrameNode[]>}
 */
export async function listedFrames(tabId) {
  const nodes = (await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null)) || [];
  return nodes.map((n) => ({ frameId: n.frameId, parentFrameId: n.parentFrameId, url: n.url || "" }));
}

/** The host part of an address as a page's `location.host` reads it ("" for one without). @param {string} url */
export function hostOf(url) {
  try { return new URL(url).host; } catch { return ""; }
}
