// @ts-check
/**
 * The DOM agent of one frame (the top page, or a cross-origin frame that reads itself and its own
 * same-origin children): answers the coordinator's `dom.observe`, `dom.act` and `dom.boxes`.
 *
 * Each request says what the user's site rules leave this agent (background/frame_rules.js): the
 * host its document was on when the coordinator checked it (`expect_host`: a frame that navigated
 * since is refused, not read) and the same-origin frames inside it to leave out (`frames_off`,
 * dom_frames.js). Nothing heybro shows while it acts is put into the page: the outline is drawn by
 * the coordinator (dom_outline.js), the numbered boxes on the screenshot (background/shot.js).
 */
import { Registry, scanPage } from "./dom_scan.js";
import { renderScan } from "./dom_render.js";
import { deepActiveElement } from "./dom_roots.js";
import { signatureOf } from "./signature.js";
import { isRendered } from "./controls.js";
import { norm } from "./norm.js";
import { accessibleName } from "./accessible_name.js";
import { highlight, viewportRect } from "./dom_outline.js";
import { leftOutAround, setFramesOff } from "./dom_frames.js";
import { locate, prepare, brief } from "./dom_locate.js";
import { watchChanges, SETTLE_DEFAULT, settle, contentReady, documentReady, documentId, transitionsEnd, scrollEnd, watchScrolls } from "./dom_changes.js";
import { watchRequests, watchScripts } from "./dom_requests.js";
import { actionError, focusOn, checkedState, isEditable, pasteText } from "./dom_input.js";
import { fieldState, moveSteps, pressSteps, reaction, sendTrusted } from "./dom_trusted.js";
import { installGuard, sendGuarded } from "./press_guard.js";
import { formFieldsFor, passGate } from "./act_gate.js";
import { PAGE_ACTIONS } from "../actions/page.js";
import { checkVisibilityOf, containsOf, isConnectedOf, rectOf, scrollIntoViewOf } from "./dom_native.js";

installGuard(window); // before any listener of the page: what the browser's own input presses is what was chosen
watchRequests(); // the page's own requests, as the browser tells them (background/page_requests.js)
watchScripts(document); // whether it has script that could make any (read as it is parsed)
watchScrolls(document); // when it last scrolled: an observe reads it once the scroll has ended (dom_changes.js)

/** @typedef {import("../actions/page.js").PageAction} PageAction */
/** The page actions by name (extension/actions/). */
const ACTIONS = new Map(PAGE_ACTIONS.map((a) => [a.name, a]));

/** @type {Registry | null} */
let registry = null;
/** @param {string} prefix */
function reg(prefix) {
  if (!registry || registry.prefix !== prefix) registry = new Registry(prefix);
  return registry;
}

/**
 * What the last observe showed and left out, for inspection from this script's own world (a page
 * cannot reach it): DevTools, and scripts/bench_oracle.py, which holds the page map against the
 * browser's accessibility tree and hit testing.
 * @type {{shown: Map<string, import("./dom_render.js").Shown | undefined>, covered: Element[]}}
 */
let last = { shown: new Map(), covered: [] };
/** @type {any} */ (globalThis).__heybroAgent = {
  /** @param {string} id */ element: (id) => registry?.get(id) ?? null,
  /** @param {string} id */ shown: (id) => last.shown.get(id) ?? null,
  /** The box drawn for a hidden field, where the field is listed (a code editor's, a toolkit select's: dom_editors.js). @param {string} id */
  surface: (id) => { const el = registry?.get(id); return (el && registry?.surfaces.get(el)) ?? null; },
  covered: () => last.covered,
  /** The accessible name heybro computes for an element (scripts/bench_names.py). @param {Element} el */
  name: (el) => accessibleName(el),
};

/**
 * Refuses a request made for a document this frame no longer shows: the coordinator checked the
 * user's site rules against the address it had (the frame navigated since).
 * @param {Record<string, any>} args
 */
function stillHere(args) {
  setFramesOff(args.frames_off);
  if (typeof args.expect_host === "string" && location.host !== args.expect_host) {
    throw actionError("not_allowed", "This frame moved to another page since heybro checked where it was: look at the page again before using it.");
  }
}

/** @param {{max_tokens?: number, prefix?: string, dialogs?: Array<Record<string, any>>, expect_host?: string, frames_off?: unknown}} args */
function observe(args) {
  stillHere(args);
  const r = reg(args.prefix || "");
  const scan = scanPage(r);
  scan.dialogs.push(.../** @type {any[]} */ (args.dialogs || [])); // browser dialogs the coordinator answered since the last action
  const pass = new Map(); // what this observe reads once: the rendering's and the signatures'
  const out = renderScan(scan, { maxTokens: args.max_tokens ?? 4000, pass });
  /** @type {Record<string, any>} */
  const elements = {};
  for (const e of out.shown) elements[e.id] = signatureOf(e.el, e, pass); // box, name and state already read
  last = { shown: new Map(out.shown.map((e) => [e.id, e.shown])), covered: scan.covered ? scan.covered.entries.map((e) => e.el) : [] };
  return {
    url: scan.url, title: scan.title, text: out.text, elements,
    new_elements: out.shown.filter((e) => e.isNew).map((e) => e.id),
    scroll: scan.scroll, dialogs: scan.dialogs, remote_frames: scan.remoteFrames, frames_read: scan.framesRead,
    counts: out.counts, tokens_estimate: out.tokens_estimate,
  };
}

/** @param {string} action @param {Record<string, any>} args */
async function act(action, args) {
  stillHere(args);
  const def = ACTIONS.get(action);
  if (!def) throw actionError("unsupported", `No DOM action named "${action}".`);
  const need = def.needs.page;
  const r = reg(args.prefix || "");
  if (need.element === "own") return def.run(null, args, r);
  const named = !!(args.element_id || args.signature);
  if (need.element === "required" && !named) throw actionError("not_found", `${action} needs an element_id.`);
  /** @type {{el: Element | null, found_by: string | null, confidence: number, why?: string}} */
  let loc = { el: null, found_by: null, confidence: 1 };
  if (named) loc = await locate(r, args, async () => { await settle(document); scanPage(r, { remember: false }); });
  const off = loc.el ? leftOutAround(loc.el) : null;
  if (off) throw actionError("not_allowed", `That element is in a frame the user's site rules keep heybro off: ${off}`);
  /** @type {Element | null} */
  let el = loc.el;
  // A control shown only while a pointer is over its row or menu: the pointer goes there first, as
  // a person's does (CSS :hover answers only the browser's own pointer).
  const hoverAt = el && r.hovers.get(el);
  if (hoverAt && isConnectedOf(hoverAt)) {
    // Brought into view first, where the action will find it (one not laid out until then, by what
    // holds it): the pointer must still be over the row when the control is used.
    const at = el && checkVisibilityOf(el) ? el : hoverAt;
    try {
      scrollIntoViewOf(at, { block: "center", inline: "center", behavior: "instant" });
      await sendTrusted(moveSteps(hoverAt)); await settle(document);
    } catch { /* the click may still reach it */ }
  }
  /** @type {Element | null} what is outlined while the action runs */
  let shown = null;
  // A code editor is used where a person sees it, its box; its keys go to its hidden field.
  const surface = el ? r.surfaces.get(el) : undefined;
  if (el && need.inView !== false) {
    const opts = { needEnabled: need.enabled, hitTest: need.hit };
    /** @param {Element} at */
    const ready = async (at) => {
      try {
        return prepare(at, opts);
      } catch (e) {
        // What covers it may be a dialog still opening (its backdrop first, its words a moment
        // later): let that finish, then the element is usable after all, or the refusal names it.
        if (/** @type {any} */ (e)?.code !== "covered") throw e;
        await settle(document, { quietMs: 60, graceMs: 200, maxMs: 800 });
        return prepare(at, opts);
      }
    };
    if (surface) { await ready(surface); if (def.trusted?.pointer) el = surface; }
    else el = await ready(el);
    shown = surface || el;
  }
  // What the hover drew inside the control (a flag toggle's icon) is what a pointer then clicks.
  if (el && hoverAt && hoverAt !== el && containsOf(el, hoverAt)) el = hoverAt;
  // An action onto a second element (a drag's drop): found as the first is, in view with it.
  if (el && need.to) args = { ...args, to: await second(r, args, el) };
  // The last look, on the element as it is now: the origin, a secret's field, a press's effect
  // (and what a drop lands on: a card dropped on "Delete" is a press of it).
  passGate(action, def.judged, el || (def.judged === "keys" ? deepActiveElement(document) : null), args);
  if (args.to) passGate(action, def.judged, args.to, args);
  let outlined = () => {};
  // Outlined for as long as the action runs and a moment after (OUTLINE_MIN_MS): before the
  // browser's own input (a person sees what it types into), right after a script's (the same
  // task: the first frame shows both; a navigating click's page is gone before any frame, and its
  // navigation starts without waiting for the outline).
  const outline = () => { if (shown) { outlined = highlight(shown); shown = null; } };
  try {
    return await perform(def, args, el, r, loc, outline);
  } finally {
    outlined();
  }
}

/**
 * The second element an action names (`to_element_id`, `to_signature`: where a drag drops), found
 * as the first was, and in the same view as the first (scrolled to, when it is not): refused when
 * both cannot be seen at once, as a person's pointer could not carry one to the other.
 * @param {Registry} r @param {Record<string, any>} args @param {Element} first
 * @returns {Promise<Element>}
 */
async function second(r, args, first) {
  const named = { element_id: args.to_element_id, signature: args.to_signature };
  if (!named.element_id && !named.signature) throw actionError("not_found", "This action needs the element it ends on (to_element_id).");
  const loc = await locate(r, named, async () => { await settle(document); scanPage(r, { remember: false }); });
  const to = /** @type {Element} */ (loc.el);
  const off = leftOutAround(to);
  if (off) throw actionError("not_allowed", `That element is in a frame the user's site rules keep heybro off: ${off}`);
  if (!inView(to)) scrollIntoViewOf(to, { block: "nearest", inline: "nearest", behavior: "instant" });
  if (!inView(to) || !inView(first)) throw actionError("not_interactable", "The two elements cannot be seen at once (one is out of view when the other is in it): scroll the page so both show, or move it in steps.");
  return to;
}

/** Whether the element's box is inside the viewport. @param {Element} el */
function inView(el) {
  const b = rectOf(el);
  return b.width > 0 && b.height > 0 && b.top >= 0 && b.left >= 0 && b.bottom <= innerHeight && b.right <= innerWidth;
}

/**
 * The action's input, synthetic (its module's `run`) or the browser's own (its module's `trusted`
 * says how and when), and what changed. The browser's input runs under the press guard (only the
 * element chosen is pressed or typed into: press_guard.js), and after a script's action only when
 * that provably did nothing (dom_trusted.js): an action is done once.
 * @param {PageAction} def @param {Record<string, any>} args @param {Element | null} el
 * @param {Registry} r @param {(opts: any) => Promise<Record<string, any>>} finish the change watch started before it
 * @param {() => void} outline draws the outline (before the browser's own input; `finish` draws it after a script's)
 * @returns {Promise<{extra: Record<string, any>, changes: Record<string, any>}>}
 */
async function doInput(def, args, el, r, finish, outline) {
  const trusted = def.trusted, settleOpts = def.settle || SETTLE_DEFAULT;
  // A code editor's hidden field holds a part of its text at most: only the browser's own keys,
  // as a person's, reach the editor.
  const keysOnly = !!el && !!trusted?.keys && !!r.surfaces.get(el);
  // An editable region is an editor's, with a model of its own (Draft.js, ProseMirror, Lexical…):
  // the browser's own keys, as a person's, are what every one of them takes, where a script's edit
  // of its DOM behind its back may crash it. (Where they cannot go, the script's edit is tried.)
  const region = !keysOnly && !!el && !!trusted?.text && isEditable(el) && args.trusted_input !== "off";
  // What only the browser's own input does as a person's does (a point in a canvas, keys held
  // through a click): that input from the start, unless the user turned it off.
  const first = !keysOnly && !region && !!el && !!trusted?.first?.(args) && args.trusted_input !== "off";
  const auto = !!el && !!trusted?.auto && (!trusted.replayable || trusted.replayable(el));
  const mode = keysOnly || region || first ? "always" : auto ? String(args.trusted_input || "auto") : "off";
  if (mode === "always" && trusted) {
    const target = /** @type {Element} */ (el);
    if (trusted.keys) keyboardOn(target);
    outline();
    const block = trusted.paste?.(args);
    if (block) {
      if (block.select) await sendGuarded([pressSteps("Control+a")[0]], target);
      // (A paste event is the script's: the result does not say the browser's input did it.)
      if (pasteText(deepActiveElement(document) || target, block.text)) return { extra: {}, changes: await finish(settleOpts) };
    }
    try {
      await sendGuarded(trusted.steps(args, target), target);
      return { extra: trusted.done ? trusted.done(args) : {}, changes: { ...(await finish(settleOpts)), input: "trusted" } };
    } catch (e) {
      // Where that input cannot reach (a cross-origin frame) or is held by another debugger, the
      // script's events do what they can.
      const code = /** @type {any} */ (e)?.code;
      if (!((region || first) && code === "unsupported") && !(first && code === "debugger_busy")) throw e;
    }
  }
  const before = fieldState(el);
  const at = { focus: deepActiveElement(document), el, since: performance.now() };
  const began = Date.now(); // (the coordinator's clock: its records of the tab's requests and dialogs)
  /** @type {Record<string, any>} */
  const extra = await def.run(el, args, r); // (a select waits for a toolkit's options to open)
  let changes = await finish(settleOpts);
  if (mode !== "auto" || !trusted || !trusted.noEffect?.(el, /** @type {any} */ (changes), before)) return { extra, changes };
  const target = /** @type {Element} */ (el);
  /** @param {string} why */
  const withheld = (why) => ({ extra, changes: { ...changes, trusted_withheld: `The browser's own input was not used: the page had already reacted to the script's ${def.name} (${why}), so doing it again would have done it twice.` } });
  let why = reaction(/** @type {any} */ (changes), at);
  if (why) return withheld(why);
  if (trusted.lateMs) {
    // Late effects count too: replayed only when the page showed no sign of it at all.
    const late = await watchChanges(document, target)({ quietMs: 40, graceMs: trusted.lateMs, maxMs: trusted.lateMs + 400 });
    if (!trusted.noEffect?.(el, /** @type {any} */ (late), before)) return { extra, changes: late };
    changes = late;
    why = reaction(/** @type {any} */ (late), at);
    if (why) return withheld(why);
  }
  // The browser's keys go where the focus is: on this field, not where the page moved it meanwhile
  // (an editor that took the focus back).
  if (trusted.keys) keyboardOn(target);
  const again = watchChanges(document, target);
  try {
    await sendGuarded(trusted.steps(args, target), target, { since: began });
  } catch (e) {
    await again({ maxMs: 0 });
    const code = /** @type {any} */ (e)?.code;
    // The coordinator heard the page react (a request, a dialog): the script's action stands.
    if (code === "reacted") return withheld(String(/** @type {any} */ (e).message));
    // Where the browser's input cannot reach (a cross-origin frame) or be guarded, the script
    // action stands as it was, and the result says why; another debugger holding the tab is said
    // plainly (debugger_busy).
    if (code === "unsupported") return { extra, changes: { ...changes, trusted_withheld: `The browser's own input was not used: ${String(/** @type {any} */ (e).message)}` } };
    throw e;
  }
  changes = { ...(await again(settleOpts)), input: "trusted" };
  return { extra, changes };
}

/**
 * Gives the field the keyboard's focus for the browser's own keys, or refuses: keys typed while the
 * focus is elsewhere would land in another field.
 * @param {Element} target
 */
function keyboardOn(target) {
  focusOn(target);
  const active = deepActiveElement(document);
  if (!active || !containsOf(target, active)) {
    throw actionError("not_interactable", "The field did not take the keyboard's focus (the page keeps it elsewhere), so typing there would land in another field.");
  }
}

/**
 * Carries out the action on the element (found and prepared) and reports what changed.
 * @param {PageAction} def @param {Record<string, any>} args @param {Element | null} el
 * @param {Registry} r @param {{el: Element | null, found_by: string | null, confidence: number, why?: string}} loc the element named (its id is the one reported)
 * @param {() => void} outline draws the outline of the element acted on (once its input is given)
 */
async function perform(def, args, el, r, loc, outline) {
  const action = def.name;
  const watching = watchChanges(document, el);
  /** @param {import("./dom_changes.js").SettleOpts} [opts] */
  const finish = (opts) => { outline(); return watching(opts); };
  // (A browser dialog the action opens is answered by the coordinator: background/dialog_answers.js.)
  const { extra, changes } = await doInput(def, args, el, r, finish, outline);
  // (A code editor's surface shows its text its own way: its field is not read back.)
  if (def.verify && el && !r.surfaces.get(el)) def.verify(el, args, changes);
  const after = el && isConnectedOf(el) ? el : null;
  return {
    ok: true, action, element_id: loc.el ? r.idFor(loc.el) : el ? r.idFor(el) : null, found_by: loc.found_by, confidence: loc.confidence,
    ...(loc.why ? { found_why: loc.why } : {}), ...changes, element: after ? brief(after) : null, ...extra,
  };
}

/**
 * The answer to the coordinator's pings after a navigation, once per document: it pings every few
 * ms until one answers, and each would otherwise wait for the load and read the page again.
 * @type {Map<string, {answer: Promise<Record<string, any>>, told: boolean}>}
 */
const readyAnswers = new Map();
/** @param {Record<string, any> | null} observeArgs */
function readyAnswer(observeArgs) {
  const key = JSON.stringify(observeArgs);
  let entry = readyAnswers.get(key);
  if (!entry) {
    const answer = documentReady(document).then((r) => {
      /** @type {Record<string, any>} */ let seen = {};
      if (observeArgs) { try { seen = { observation: observe(observeArgs) }; } catch { /* the coordinator observes on its own */ } }
      return { ok: true, ...r, ...seen };
    });
    entry = { answer, told: false };
    readyAnswers.set(key, entry);
    answer.then(() => setTimeout(() => readyAnswers.delete(key), 0)); // (later pings read the page as it is then)
  }
  const waiting = entry;
  // The pings that waited together are answered in the order they came: the first carries the
  // page as read; the others only say the document is ready (the coordinator took the first), so
  // the page is not sent again with each of them at the moment it has just loaded.
  return waiting.answer.then((a) => {
    if (!waiting.told) { waiting.told = true; return a; }
    const { observation: _, ...said } = a;
    return said;
  });
}

/**
 * Where the elements the last observe showed are now, in this frame's viewport (CSS px), for the
 * numbered boxes on the screenshot: those still in the page and rendered.
 * @returns {{boxes: Array<{id: string, x: number, y: number, w: number, h: number}>}}
 */
function boxes() {
  /** @type {Array<{id: string, x: number, y: number, w: number, h: number}>} */ const out = [];
  for (const id of last.shown.keys()) {
    const el = registry?.get(id);
    if (!el || !isConnectedOf(el) || !checkVisibilityOf(el)) continue;
    const r = viewportRect(el);
    if (r.w > 0 && r.h > 0) out.push({ id, ...r });
  }
  return { boxes: out };
}

chrome.runtime.onMessage.addListener((msg, _sender, sendResponse) => {
  if (!msg || typeof msg.kind !== "string" || !msg.kind.startsWith("dom.")) return false;
  if (msg.kind === "dom.ping") {
    // `ready`: answer once this document has loaded and settled (the coordinator, after a navigation),
    // unless this is the document being navigated away from (`unless_doc`): that one says so at once.
    // With `observe`, the page comes back in the same answer, read in the same task as the load.
    if (msg.ready && msg.unless_doc !== documentId()) {
      readyAnswer(msg.observe || null).then(sendResponse);
      return true;
    }
    sendResponse({ ok: true, url: location.href, doc: documentId() });
    return false;
  }
  (async () => {
    if (msg.kind === "dom.observe") { await contentReady(document); await transitionsEnd(document); await scrollEnd(document); return observe(msg.args || {}); }
    if (msg.kind === "dom.act") return act(msg.action, msg.args || {});
    if (msg.kind === "dom.boxes") return boxes();
    if (msg.kind === "dom.form_fields") return formFieldsFor(String(msg.target || ""), String(msg.method || ""));
    throw actionError("unsupported", `Unknown request ${msg.kind}`);
  })().then((result) => sendResponse({ ok: true, result }), (e) => sendResponse({ ok: false, error: {
    code: typeof e?.code === "string" ? e.code : "internal", message: String(e?.message || e), ...(e?.detail ? { detail: e.detail } : {}) } }));
  // A click that navigates unloads this page before the answer: say so while we still can.
  addEventListener("pagehide", () => { try { sendResponse({ ok: true, result: { navigated: true } }); } catch { /* answered */ } }, { once: true });
  return true;
});

export { isRendered, norm, checkedState };
