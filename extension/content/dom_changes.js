// @ts-check
/**
 * What an action changed: URL, DOM mutations (summarised), a dialog that opened, where focus went,
 * or a navigation it started. Watches from just before the action until the page has settled.
 *
 * Settling is event-driven, not a fixed sleep: after the action the page gets one task of its event
 * loop (renders scheduled in a microtask or a posted message land by then); then
 * - an action that changed nothing (typing into a plain field) returns at once, unless its kind can
 *   start asynchronous work (a click, a key press), which gets a short grace window for a first change;
 * - an action that changed the DOM returns as soon as the DOM has been mutation-free for `quietMs`
 *   and nothing that started loading during the action (`aria-busy`) is still busy;
 * - an action that started a cross-document navigation (a link, a form submission, `location = …`,
 *   seen through the Navigation API's `navigate` event) returns at once with `navigating: true`:
 *   this document is going away, and the coordinator waits for the new one to load.
 * Either way it waits while a request the page made since the action (fetch, XMLHttpRequest: its
 * content on its way from the server) is still open and young, up to `netMaxMs`.
 * Everything else is capped at `maxMs` (pages with endless animations).
 */
import { accessibleName } from "./accessible_name.js";
import { deepActiveElement } from "./dom_roots.js";
import { norm } from "./norm.js";
import { dialogName } from "./dom_inert.js";
import { innerRoots } from "./dom_roots.js";
import { canRequest, requestsPending, syncRequests } from "./dom_requests.js";
import { attr, docOf, listenOf, nodeTypeOf, qsa, rectsOf, rootOf, tagOf, textOf } from "./dom_native.js";

/**
 * @typedef {{quietMs?: number, graceMs?: number, maxMs?: number, netMaxMs?: number}} SettleOpts
 *   quietMs: mutation-free time that ends the wait once something changed; graceMs: how long an
 *   action with no change yet waits for a first one; maxMs: the cap; netMaxMs: the cap while the
 *   page's own requests are still on their way.
 */

/** How long the page is let settle after an action: its module's `settle` (actions/page.js), else this. */
export const SETTLE_DEFAULT = /** @type {SettleOpts} */ ({ quietMs: 40, graceMs: 0, maxMs: 800 });
/** Clicks, key presses, a choice or a file may start the page's own async work (its requests). */
export const SETTLE_ASYNC = /** @type {SettleOpts} */ ({ quietMs: 40, graceMs: 40, maxMs: 800, netMaxMs: 2500 });
/** Hover menus open after a delay (jQuery hoverIntent ~100 ms, many menus 150–300 ms). */
export const SETTLE_HOVER = /** @type {SettleOpts} */ ({ quietMs: 40, graceMs: 300, maxMs: 800 });
/** What only moves or reads the page changes nothing worth waiting for. */
export const SETTLE_NONE = /** @type {SettleOpts} */ ({ quietMs: 0, graceMs: 0, maxMs: 60 });

/** @param {Element} el */
function isDialog(el) {
  return (tagOf(el) === "dialog" && /** @type {HTMLDialogElement} */ (el).open) || attr(el, "role") === "dialog"
    || attr(el, "role") === "alertdialog" || attr(el, "aria-modal") === "true";
}

/** @param {Array<Document | ShadowRoot>} scopes */
function openDialogs(scopes) {
  return scopes.flatMap((s) => Array.from(qsa(s, "dialog[open],[role=dialog],[role=alertdialog],[aria-modal=true]")))
    .filter((d) => rectsOf(d).length > 0);
}

/**
 * A transition or animation with an end is still running (a menu sliding in, a dialog fading up):
 * until it ends, boxes and hit tests read where things are passing, not where they will stay.
 * Endless ones (spinners, pulses) never end and do not count.
 * @param {Document} doc
 */
function moving(doc) {
  try {
    return doc.getAnimations().some((a) => {
      if (a.playState !== "running") return false;
      const t = a.effect?.getComputedTiming();
      return !!t && Number.isFinite(t.endTime) && Number(t.localTime ?? 0) < Number(t.endTime);
    });
  } catch { return false; }
}

/**
 * The next task of the page's event loop: by then, what the action's handlers did synchronously,
 * in microtasks (Vue, Svelte, Angular) and in a posted message (React's scheduler) has landed. An
 * animation frame would also catch rAF-only renders but costs up to 17 ms on every action; a page
 * that keeps changing is waited for by the quiet-DOM loop either way.
 */
function nextTask() {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => { ch.port1.close(); resolve(undefined); };
    ch.port2.postMessage(null);
  });
}

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts watching the document — with its open shadow roots and same-origin frames, where a
 * MutationObserver on the document does not reach — and the tree the acted element lives in; call
 * the returned function after acting.
 * @param {Document} doc @param {Element | null} [el] the element acted on
 * @param {number} [since] requests the page started from then on are waited for (default: now)
 */
export function watchChanges(doc, el = null, since = performance.now()) {
  const view = doc.defaultView;
  const url = doc.location.href;
  /** @type {Array<Document | ShadowRoot>} */ const scopes = [doc, ...innerRoots(doc)];
  const own = el ? rootOf(el) : null; // a closed shadow root the walk cannot see
  if (own && (nodeTypeOf(own) === 11 || nodeTypeOf(own) === 9) && !scopes.includes(/** @type {Document | ShadowRoot} */ (own))) scopes.push(/** @type {Document | ShadowRoot} */ (own));
  const before = new Set(openDialogs(scopes));
  const busyBefore = new Set(scopes.flatMap((s) => Array.from(qsa(s, "[aria-busy=true]"))));
  let added = 0, removed = 0, attributes = 0, text = 0, changes = 0, last = performance.now();
  /** @type {Set<string>} */ const addedTags = new Set();
  /** @type {(() => void) | null} */ let wake = null;
  const mo = new MutationObserver((records) => {
    let counted = 0;
    for (const r of records) {
      if (r.type === "childList") {
        for (const n of Array.from(r.addedNodes)) if (nodeTypeOf(n) === 3) { text++; counted++; } else if (nodeTypeOf(n) === 1) { added++; counted++; if (addedTags.size < 6) addedTags.add(tagOf(/** @type {Element} */ (n))); }
        for (const n of Array.from(r.removedNodes)) if (nodeTypeOf(n) === 1) { removed++; counted++; }
      } else if (r.type === "attributes") { attributes++; counted++; } else { text++; counted++; }
    }
    if (counted) { changes += counted; last = performance.now(); }
  });
  const watch = { subtree: true, childList: true, attributes: true, characterData: true };
  for (const s of scopes) mo.observe(s.nodeType === 9 ? /** @type {Document} */ (s).documentElement : s, watch);

  // A cross-document navigation the action starts (link, form, script): Navigation API, Chrome 102+.
  // A page may cancel it (preventDefault) or take it over (a router's `intercept()`: same document).
  /** @type {string | null} */ let navigatingTo = null;
  /** @type {any} */ let navEvent = null;
  let unloading = false;
  const nav = /** @type {any} */ (view)?.navigation;
  /** @param {any} e */
  const onNavigate = (e) => {
    if (e.destination && !e.destination.sameDocument && !e.hashChange) { navEvent = e; navigatingTo = String(e.destination.url); wake?.(); }
  };
  // An intercepted navigation ends here (success or error), in this document: it was no page load.
  const onSameDocumentEnd = () => { if (!unloading) { navEvent = null; navigatingTo = null; } };
  nav?.addEventListener?.("navigate", onNavigate);
  nav?.addEventListener?.("navigatesuccess", onSameDocumentEnd);
  nav?.addEventListener?.("navigateerror", onSameDocumentEnd);
  const onUnload = () => { unloading = true; navigatingTo = navigatingTo || doc.location.href; wake?.(); };
  view?.addEventListener("beforeunload", onUnload);

  /** Still navigating away: not cancelled, not taken over by the page. */
  const leaving = () => navigatingTo !== null && (unloading || (!navEvent?.defaultPrevented && !nav?.transition));
  /** Something that started loading during the action is still marked busy. */
  const busy = () => moving(doc) || scopes.some((s) => Array.from(qsa(s, "[aria-busy=true]")).some((b) => !busyBefore.has(b) && rectsOf(b).length > 0));

  /**
   * Waits for the page to settle, stops watching and reports.
   * @param {SettleOpts} [opts]
   */
  return async function finish(opts = {}) {
    const quiet = opts.quietMs ?? 40, grace = opts.graceMs ?? 0, max = opts.maxMs ?? 800;
    const netMax = Math.max(max, opts.netMaxMs ?? 0);
    const loading = () => requestsPending(since);
    const start = performance.now();
    try {
      // A navigation the action already started (a link's click fires `navigate` synchronously):
      // answer in this same task, while this document still runs tasks at all.
      if (!leaving()) await Promise.race([nextTask(), new Promise((r) => { wake = () => r(undefined); })]);
      // Requests the action started, as the browser saw them (one round trip to the coordinator).
      if (!leaving() && canRequest(doc)) await Promise.race([syncRequests(), new Promise((r) => { wake = () => r(undefined); })]);
      for (;;) {
        if (leaving()) break;
        const now = performance.now();
        if (now - start >= max && (now - start >= netMax || !loading())) break;
        if (changes === 0) {
          if (now - start >= grace && !loading()) break;
        } else if (now - last >= quiet && !busy() && !loading()) break;
        const left = changes === 0 && now - start < grace ? grace - (now - start) : changes ? quiet - (now - last) : 20;
        await Promise.race([sleep(Math.max(4, Math.min(left, 20, (loading() ? netMax : max) - (now - start)))), new Promise((r) => { wake = () => r(undefined); })]);
      }
    } finally {
      wake = null;
      mo.disconnect();
      nav?.removeEventListener?.("navigate", onNavigate);
      nav?.removeEventListener?.("navigatesuccess", onSameDocumentEnd);
      nav?.removeEventListener?.("navigateerror", onSameDocumentEnd);
      view?.removeEventListener("beforeunload", onUnload);
    }
    if (leaving()) {
      return {
        url: /** @type {string} */ (navigatingTo), url_changed: navigatingTo !== url, navigating: true, doc: documentId(),
        mutations: { added: 0, removed: 0, attributes: 0, text: 0, summary: "the page navigated" }, dialog: null, focused: null,
      };
    }
    const newDialog = openDialogs(scopes).find((d) => !before.has(d) && isDialog(d));
    const focused = deepActiveElement(doc);
    const parts = [];
    if (added) parts.push(`${added} element${added > 1 ? "s" : ""} added${addedTags.size ? ` (${[...addedTags].join(", ")})` : ""}`);
    if (removed) parts.push(`${removed} removed`);
    if (attributes) parts.push(`${attributes} attribute change${attributes > 1 ? "s" : ""}`);
    if (text) parts.push(`${text} text change${text > 1 ? "s" : ""}`);
    return {
      url: doc.location.href,
      url_changed: doc.location.href !== url,
      mutations: { added, removed, attributes, text, summary: parts.join(", ") || "no change" },
      dialog: newDialog ? { name: dialogName(newDialog), text: norm(textOf(newDialog)).slice(0, 200) } : null,
      focused: focused && focused !== docOf(focused).body ? { tag: tagOf(focused), name: accessibleName(focused).slice(0, 80) } : null,
    };
  };
}

/**
 * Lets the page settle without an action (before a re-scan): resolves once the DOM has been
 * mutation-free for `quietMs`, or has not changed at all for `graceMs`, or after `maxMs`.
 * @param {Document} doc @param {SettleOpts} [opts]
 */
export async function settle(doc, opts = {}) {
  await watchChanges(doc)({ quietMs: opts.quietMs ?? 50, graceMs: opts.graceMs ?? 100, maxMs: opts.maxMs ?? 300 });
}

/** The longest an observe waits for the page's transitions to end. */
const TRANSITION_MAX_MS = 2000;

/**
 * Waits while a transition or animation with an end runs (a panel sliding over the page, a cover
 * fading in): what is covered, and what is in view, is judged where things stop, not where they
 * pass. Endless ones do not count (moving); a page without any answers at once.
 * @param {Document} doc @param {number} [maxMs]
 */
export async function transitionsEnd(doc, maxMs = TRANSITION_MAX_MS) {
  const until = performance.now() + maxMs;
  while (moving(doc) && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
}

/** When this document (or a box in it) last scrolled; see scrollEnd. */
let lastScroll = -Infinity;

/**
 * Starts hearing the document's scrolls, the window's and every box's (a scroll event does not
 * bubble, but it passes the document on its way down).
 * @param {Document} doc
 */
export function watchScrolls(doc) {
  listenOf(doc, "scroll", () => { lastScroll = performance.now(); }, { capture: true, passive: true });
}

/**
 * How long after its last scroll a page may still be answering it. While a page scrolls it may
 * change what a pointer reaches or what is drawn, and undo it a moment after the scroll stops:
 * a list that turns pointer events off for the whole page while it scrolls (react-virtualized's
 * window scroller: back on 150 ms after), a header that shrinks, rows drawn as they come into
 * view, the next page of a feed fetched.
 */
const SCROLL_ANSWER_MS = 250;
/** The longest an observe waits for a scroll to end and the page to answer it. */
const SCROLL_MAX_MS = 1000;

/**
 * Waits, when the page scrolled just now (heybro's own scroll, an action's scroll into view, the
 * person's wheel), until the scroll has stopped and the page has answered it: its DOM quiet, what
 * it fetched for it come. What is covered, disabled or shown is judged where the page rests, not
 * as it passes (the same rule as transitionsEnd). A page that did not scroll answers at once.
 * @param {Document} doc @param {number} [maxMs]
 */
export async function scrollEnd(doc, maxMs = SCROLL_MAX_MS) {
  if (performance.now() - lastScroll >= SCROLL_ANSWER_MS) return;
  const start = performance.now();
  // Still scrolling (a smooth scroll, a wheel): until a few frames pass without one.
  while (performance.now() - lastScroll < 50 && performance.now() - start < maxMs) await sleep(20);
  const left = SCROLL_ANSWER_MS - (performance.now() - lastScroll), budget = maxMs - (performance.now() - start);
  if (left <= 0 || budget <= 0) return;
  // Whatever the page does after a scroll stops comes within SCROLL_ANSWER_MS of it; once it
  // changes something, until its DOM is quiet.
  await watchChanges(doc, null, lastScroll)({ quietMs: 40, graceMs: left, maxMs: budget, netMaxMs: budget });
}

/** How long after a load the coordinator's record of the page's requests is read again. */
const LOAD_SYNC_MS = 25;
/** A load this recent counts as just now (the coordinator's ping may come a moment after it). */
const LOAD_SYNC_WINDOW_MS = 250;

/**
 * Waits, when the page is still drawing what it fetched since it started (a mail list, a
 * dashboard): while a young request of its own is open, then until its DOM has been quiet. Costs
 * one round trip to the coordinator (which hears the browser's own record of the page's requests)
 * when nothing is on its way (two, a moment apart, when its load event has just run: `justLoaded`,
 * or its load ended less than LOAD_SYNC_WINDOW_MS ago).
 * @param {Document} doc @param {boolean} [justLoaded]
 */
export async function contentReady(doc, justLoaded = false) {
  if (!canRequest(doc)) return; // a page without script fetches nothing of its own
  if (!justLoaded) {
    const view = doc.defaultView;
    const nav = /** @type {PerformanceNavigationTiming | undefined} */ (view?.performance.getEntriesByType("navigation")[0]);
    justLoaded = !!view && !!nav && nav.loadEventEnd > 0 && view.performance.now() - nav.loadEventEnd < LOAD_SYNC_WINDOW_MS;
  }
  await syncRequests();
  // Requests the page's load handlers made just now may not be in the coordinator's record yet
  // (the browser tells it on its own channel): one more look, a moment later.
  if (justLoaded && !requestsPending(0)) {
    await new Promise((r) => setTimeout(r, LOAD_SYNC_MS));
    await syncRequests();
  }
  if (!requestsPending(0)) return;
  await watchChanges(doc, null, 0)({ quietMs: 50, graceMs: 0, maxMs: 300, netMaxMs: 2500 });
}

/** This document's identity: a new document (after a navigation) has a new time origin. */
export function documentId() { return performance.timeOrigin; }

/**
 * Resolves when this document is ready to be read after a navigation: loaded. Inside the load
 * event when it is still to come — our listener added once the parser is done, so after the page's
 * own — so whoever awaits this answers in the same task: before the browser's first rendering of
 * the page (15-25 ms on a slow machine, during which no script runs in it), and after everything
 * the page's load handlers and their microtasks did.
 * Reports the page's own load time (navigation start — the click that caused it, redirects
 * included — → the end of its load handlers) and `render_ms`: when this was asked only after the
 * load, how long after it the page first ran a task of ours (the browser was rendering it).
 * @param {Document} doc
 * @returns {Promise<{doc: number, url: string, load_ms: number | null, render_ms: number | null}>}
 */
export async function documentReady(doc) {
  const view = /** @type {Window} */ (doc.defaultView);
  const asked = view.performance.now();
  let inLoad = false;
  if (doc.readyState === "loading") await new Promise((r) => doc.addEventListener("DOMContentLoaded", r, { once: true }));
  if (doc.readyState !== "complete" || !loadEnded(view)) {
    await new Promise((r) => view.addEventListener("load", r, { once: true }));
    inLoad = true;
  }
  const nav = /** @type {PerformanceNavigationTiming | undefined} */ (view.performance.getEntriesByType("navigation")[0]);
  const end = nav && nav.loadEventEnd > 0 ? nav.loadEventEnd : inLoad ? view.performance.now() : null;
  // An application that fetches its content as it starts is read once that content is drawn.
  await contentReady(doc, inLoad || (end !== null && view.performance.now() - end < LOAD_SYNC_WINDOW_MS));
  return {
    doc: documentId(), url: doc.location.href, load_ms: end === null ? null : Math.round(end),
    render_ms: end === null ? null : inLoad ? 0 : Math.max(0, Math.round(asked - end)),
  };
}

/** The load event has been dispatched (readyState turns "complete" just before it). @param {Window} view */
function loadEnded(view) {
  const nav = /** @type {PerformanceNavigationTiming | undefined} */ (view.performance.getEntriesByType("navigation")[0]);
  return !nav || nav.loadEventEnd > 0;
}
