// @ts-check
/**
 * The screenshot the model gets, finished here in the service worker on the captured image
 * (OffscreenCanvas), never in the page:
 * - every frame the user's site rules keep heybro off is covered with a grey block where it was on
 *   the page, before and after the capture (a frame can move): its pixels never leave the browser;
 *   when such a frame is on the page and where it is cannot be told, no screenshot is sent at all;
 * - with the numbered boxes on (vision: observe's `highlight`, or the highlight tool), each element
 *   of the page map gets a box with its id, where it is on screen now — asked of each frame's agent,
 *   placed by the frame's offset in the top page, and scaled from CSS pixels to the image's (device
 *   pixel ratio and zoom).
 *
 * @typedef {import("./frame_rules.js").Box} Box
 * @typedef {import("./frames.js").FrameTree} FrameTree
 * @typedef {import("./frame_rules.js").FrameVerdict} FrameVerdict
 * @typedef {import("../shared/site_rules.js").SiteGate} SiteGate
 */
import { frameOffsets, frameVerdicts, inTop, keptOffBoxes } from "./frame_rules.js";
import { frameTree } from "./frames.js";

/** Tabs whose screenshots carry the numbered boxes. @type {Set<number>} */
const boxed = new Set();

/** The numbered boxes on (or off) for the tab's screenshots. @param {number} tabId @param {boolean} on */
export function markBoxes(tabId, on) {
  if (on) boxed.add(tabId);
  else boxed.delete(tabId);
}

/** @param {string} message */
const refuse = (message) => Object.assign(new Error(message), { code: "not_allowed" });

const COLORS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#008080", "#9a6324", "#800000"];

/**
 * Where the elements the page map showed are now, in the top page's viewport: each root frame heybro
 * may read is asked (its agent knows what its last observe showed), and its answers are placed by
 * the frame's offset, within the frame's own viewport.
 * @param {number} tabId @param {FrameTree} tree @param {Map<number, FrameVerdict | null>} verdicts
 * @returns {Promise<Array<Box & {id: string}>>}
 */
async function elementBoxes(tabId, tree, verdicts) {
  const offsets = frameOffsets(tree.seen);
  const roots = tree.seen.filter((f) => f.root && !verdicts.get(f.frameId));
  const answers = await Promise.all(roots.map((f) => chrome.tabs.sendMessage(tabId, { kind: "dom.boxes" }, { frameId: f.frameId })
    .then((r) => ({ f, r }), () => ({ f, r: null }))));
  const top = tree.seen.find((f) => f.frameId === 0);
  /** @type {Array<Box & {id: string}>} */ const out = [];
  for (const { f, r } of answers) {
    const o = offsets.get(f.frameId);
    if (!o || !r?.ok || !Array.isArray(r.result?.boxes)) continue;
    const view = inTop({ x: 0, y: 0, w: f.vw, h: f.vh }, o);
    for (const b of r.result.boxes) {
      const t = inTop(b, o);
      // In the frame's viewport and the top page's: what shows on the image.
      if (t.x + t.w <= view.x || t.y + t.h <= view.y || t.x >= view.x + view.w || t.y >= view.y + view.h) continue;
      if (top && (t.x >= top.vw || t.y >= top.vh || t.x + t.w <= 0 || t.y + t.h <= 0)) continue;
      out.push({ id: String(b.id), ...t });
    }
  }
  return out;
}

/**
 * What must be covered on the tab's image now, or a refusal when a kept-off frame shows and where
 * cannot be told.
 * @param {FrameTree} tree @param {SiteGate} gate
 */
function masksOf(tree, gate) {
  const verdicts = frameVerdicts(tree.nodes, gate);
  const { boxes, unknown } = keptOffBoxes(tree.seen, verdicts, tree.nodes);
  if (unknown.length) {
    throw refuse("A frame of this page is on a site heybro keeps off, and heybro cannot tell where on the page it is: no screenshot is sent, so none of it is shown. Read the page map instead.");
  }
  return { verdicts, boxes };
}

/**
 * The tab's screenshot as the model may see it: `take` captures it; kept-off frames are covered and,
 * when on, the numbered boxes drawn. An image needing neither is returned as captured.
 * @param {number} tabId @param {SiteGate} gate @param {() => Promise<string>} take
 * @param {number} [quality] a JPEG's, 10-100 (as it was captured) @returns {Promise<string>}
 */
export async function finishedShot(tabId, gate, take, quality = 90) {
  const before = await frameTree(tabId);
  const first = masksOf(before, gate);
  const boxes = boxed.has(tabId) ? await elementBoxes(tabId, before, first.verdicts) : [];
  const dataUrl = await take();
  // Every place a kept-off frame was, as the capture began or after it, is covered (one that moved).
  const after = masksOf(await frameTree(tabId), gate);
  const masks = [...first.boxes, ...after.boxes];
  if (!masks.length && !boxes.length) return dataUrl;
  const vw = before.seen.find((f) => f.frameId === 0)?.vw || 0;
  if (!vw && masks.length) throw refuse("heybro could not measure this page to cover the frames it keeps off: no screenshot is sent.");
  return paint(dataUrl, vw, masks, boxes, quality);
}

/** @param {string} dataUrl */
function decode(dataUrl) {
  const comma = dataUrl.indexOf(",");
  const mime = dataUrl.slice(5, dataUrl.indexOf(";")) || "image/png";
  const bin = atob(dataUrl.slice(comma + 1));
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return { mime, bytes };
}

/** @param {ArrayBuffer} buf */
function base64(buf) {
  const u8 = new Uint8Array(buf);
  let s = "";
  for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode(...u8.subarray(i, i + 0x8000));
  return btoa(s);
}

/**
 * Draws on the captured image: grey blocks over kept-off frames, then the numbered boxes.
 * @param {string} dataUrl @param {number} vw the top page's viewport width, CSS px (the image's is in device px)
 * @param {Array<Box & {site: string}>} masks @param {Array<Box & {id: string}>} boxes @param {number} quality
 */
async function paint(dataUrl, vw, masks, boxes, quality) {
  const { mime, bytes } = decode(dataUrl);
  const bmp = await createImageBitmap(new Blob([bytes], { type: mime }));
  const k = vw > 0 ? bmp.width / vw : 1;
  const canvas = new OffscreenCanvas(bmp.width, bmp.height);
  const g = /** @type {OffscreenCanvasRenderingContext2D} */ (canvas.getContext("2d"));
  g.drawImage(bmp, 0, 0);
  bmp.close();
  for (const m of masks) {
    // Whole device pixels, one more on each side: no edge of the frame is left.
    const x = Math.floor(m.x * k) - 1, y = Math.floor(m.y * k) - 1;
    const w = Math.ceil((m.x + m.w) * k) + 1 - x, h = Math.ceil((m.y + m.h) * k) + 1 - y;
    g.fillStyle = "#808080";
    g.fillRect(x, y, w, h);
    if (w > 120 * k && h > 20 * k) {
      g.fillStyle = "#ffffff";
      g.font = `${Math.round(12 * k)}px sans-serif`;
      g.fillText(`Left out: ${m.site}`.slice(0, 80), x + 6 * k, y + 16 * k, w - 12 * k);
    }
  }
  boxes.forEach((b, i) => {
    const c = COLORS[i % COLORS.length];
    const lw = 2 * k;
    g.strokeStyle = c;
    g.lineWidth = lw;
    g.strokeRect(b.x * k + lw / 2, b.y * k + lw / 2, Math.max(0, b.w * k - lw), Math.max(0, b.h * k - lw));
    g.font = `600 ${Math.round(11 * k)}px sans-serif`;
    const tw = g.measureText(b.id).width + 6 * k, th = 14 * k;
    // The id's tag sits on the box's top left corner, above it (inside it at the top of the image).
    const tx = b.x * k, ty = b.y * k >= th ? b.y * k - th : b.y * k;
    g.fillStyle = c;
    g.fillRect(tx, ty, tw, th);
    g.fillStyle = "#ffffff";
    g.textBaseline = "middle";
    g.fillText(b.id, tx + 3 * k, ty + th / 2);
    g.textBaseline = "alphabetic";
  });
  const out = await canvas.convertToBlob({ type: mime, ...(mime === "image/jpeg" ? { quality: quality / 100 } : {}) });
  return `data:${mime};base64,${base64(await out.arrayBuffer())}`;
}
