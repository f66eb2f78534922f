// @ts-check
/**
 * The DOM tools the host calls (`observe`, `click`, `fill`, …): each is forwarded to the DOM agent
 * (content script) of the right frame of the right tab, and the frames' answers are merged.
 *
 * Frames: every frame that is the top page or whose parent it cannot read (cross-origin) is a "root";
 * a root's agent reads itself and its same-origin child frames directly. Elements of a root other
 * than the top page carry its frame id in their element id (`f12e3`), which is how an action finds
 * its way back to that frame.
 *
 * Frames are pages: the user's site rules (the call's `sites`) hold in each, judged on the
 * addresses the browser has for the frame and the frames it sits in (frame_rules.js). A kept-off
 * frame is not read — the map has one line saying it was left out, and why — and an action in it
 * is refused with the site's verdict, judged again when the action comes (a frame can navigate);
 * the agents are told which same-origin frames to leave out, and refuse a request for a document
 * that moved since it was checked.
 */
import { armDialogs, takeDialogs } from "./dialog_answers.js";
import { downloadsSince } from "./downloads.js";
import { frameBudgets } from "./frame_budget.js";
import { trustedInputMode } from "./trusted_input.js";
import { watchRequests } from "./request_gate.js";
import { openedDuringTask } from "./tab_adoption.js";
import { tabBirths } from "./tab_births.js";
import { siteRefusal, siteVerdict } from "../shared/site_rules.js";
import { frameAddress, frameVerdicts, framesOffUnder, leftOutLine } from "./frame_rules.js";
import { frameTree, hostOf, listedFrames } from "./frames.js";
import { markBoxes } from "./shot.js";

/** @typedef {import("./tools.js").ToolCallPayload} ToolCallPayload */
/** @typedef {import("../actions/page.js").PageAction} PageAction */
/** @typedef {import("./frame_rules.js").FrameVerdict} FrameVerdict */
/** @typedef {import("./frame_rules.js").FrameSeen} FrameSeen */
/** @typedef {import("./frames.js").FrameTree} FrameTree */
/** @typedef {import("../shared/site_rules.js").SiteGate} SiteGate */

/** @param {string} code @param {string} message @param {Record<string, any>} [detail] */
function fail(code, message, detail) { return Object.assign(new Error(message), { code, ...(detail ? { detail } : {}) }); }

/** @param {ToolCallPayload} call */
async function targetTab(call) {
  if (call.tab && call.tab.id === call.tab_id) return call.tab;
  if (call.tab_id !== undefined && call.tab_id !== null) {
    try { return await chrome.tabs.get(call.tab_id); } catch { throw fail("no_tab", `There is no tab ${call.tab_id}.`); }
  }
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  if (tab) return tab;
  const [any] = await chrome.tabs.query({ active: true });
  if (!any) throw fail("no_tab", "No tab is open to act on.");
  return any;
}

/** The DOM agent as the manifest injects it: one classic script generated from its ES modules. */
const AGENT_SCRIPT = "extension/content/agent.classic.js";
/**
 * Injects the agent into a frame the manifest's content scripts did not reach (a page opened
 * before the extension was installed).
 * @param {number} tabId @param {number} frameId
 */
async function inject(tabId, frameId) {
  await chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files: [AGENT_SCRIPT] });
}

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends a request to one frame's agent. Retries while the agent is not there yet (page loading,
 * module still importing) and injects it into pages opened before the extension was installed.
 * @param {number} tabId @param {number} frameId @param {Record<string, any>} msg @param {number} [deadline]
 */
async function ask(tabId, frameId, msg, deadline = Date.now() + 4000) {
  let injected = false;
  for (let attempt = 0; ; attempt++) {
    try {
      const reply = await chrome.tabs.sendMessage(tabId, msg, { frameId });
      if (reply === undefined) throw new Error("Receiving end does not exist (no answer)");
      if (!reply.ok) throw Object.assign(new Error(reply.error.message), { code: reply.error.code, detail: reply.error.detail, fromAgent: true });
      return reply.result;
    } catch (e) {
      const err = /** @type {any} */ (e);
      if (err.fromAgent) throw err;
      const text = String(err?.message || err);
      // The page went away while acting (a click that navigates): the action happened.
      if (/message port closed|back\/forward cache|page keeping the extension port/i.test(text) && msg.kind === "dom.act") return { navigated: true };
      if (Date.now() > deadline) throw fail("no_tab", `The page's DOM agent did not answer (${text}).`, { frame_id: frameId });
      if (!injected && attempt >= 5) {
        injected = true;
        try { await inject(tabId, frameId); } catch { /* not scriptable (chrome://, store) */ }
      }
      // Short first retries: right after a page loads, the agent's module import takes a few ms.
      await sleep(Math.min(10 + attempt * 5, 200));
    }
  }
}

/** @param {string | null | undefined} id */
function frameOfId(id) {
  const m = /^f(\d+)e\d+$/.exec(id || "");
  return m ? Number(m[1]) : 0;
}

/**
 * Tabs this tab opened while the task ran (a link with target=_blank, window.open) that are still
 * open: the agent would not know about them otherwise. Never one opened before the task started
 * (tab_adoption.js): that is the user's.
 * @param {number} tabId @param {ToolCallPayload} call
 */
async function openedTabs(tabId, call) {
  try {
    const [tabs, births] = await Promise.all([chrome.tabs.query({}), tabBirths()]);
    const mine = new Set([tabId]);
    return tabs.filter((t) => openedDuringTask(t, mine, call.task_since, births))
      .map((t) => ({ tab_id: /** @type {number} */ (t.id), url: t.url || t.pendingUrl || "", title: t.title || "", active: !!t.active }));
  } catch { return []; }
}

/** @param {ToolCallPayload} call */
export async function observe(call) {
  const tab = await targetTab(call);
  const tabId = /** @type {number} */ (tab.id);
  const opened = openedTabs(tabId, call);
  const obs = await observeFrames(call, tabId);
  return { ...obs, opened_tabs: await opened };
}

/**
 * A refusal to read or act in a frame the user's site rules keep heybro off, with the site's verdict
 * as detail (as reach.js refuses a tab's page: the host tells the user, or asks them first).
 * @param {FrameVerdict} v @param {number} frameId
 */
function keptOff(v, frameId) {
  const where = frameId === 0 ? "" : `That is a frame of this page, on ${v.verdict.site}: heybro neither reads it nor acts in it. `;
  return fail("not_allowed", `${where}${siteRefusal(v.verdict)}`, v.verdict);
}

/**
 * What a frame's agent needs to keep to the user's site rules: the host its document must still be
 * on (a frame can navigate between this check and its answer: the agent refuses then), and the
 * kept-off frames inside it it could read itself (same-origin ones), with the line the map shows.
 * @param {FrameTree} tree @param {Map<number, FrameVerdict | null>} verdicts @param {{frameId: number, path: number[] | null, url: string}} f
 */
function rulesFor(tree, verdicts, f) {
  const url = tree.nodes.find((n) => n.frameId === f.frameId)?.url || f.url;
  return { expect_host: hostOf(url), frames_off: framesOffUnder(tree.seen, verdicts, f.path || []) };
}

/** @param {ToolCallPayload} call @param {number} tabId */
async function observeFrames(call, tabId) {
  const args = call.args || {};
  const gate = call.sites || {};
  // heybro is at work here: browser dialogs are answered for it a while; those answered since the
  // last action are told with the page.
  await armDialogs(tabId);
  const answered = takeDialogs(tabId);
  if (args.highlight === true || args.highlight === false) markBoxes(tabId, args.highlight);
  const maxTokens = args.max_tokens ?? 4000;
  const tree = await frameTree(tabId);
  const verdicts = frameVerdicts(tree.nodes, gate);
  /** @param {FrameSeen} f @param {number} budget */
  const read = async (f, budget) => {
    const rules = rulesFor(tree, verdicts, f);
    try {
      for (let again = false; ; again = true) {
        const r = await ask(tabId, f.frameId, { kind: "dom.observe", args: { max_tokens: budget, prefix: f.frameId === 0 ? "" : `f${f.frameId}`, ...rules, ...(f.frameId === 0 ? { dialogs: answered } : {}) } });
        // The same-origin frames the agent read are judged again by where they were as it read them
        // (one may have moved since the browser was asked): a read that went into a kept-off one is
        // dropped here, and made once more without it.
        const strayed = strays(r, gate);
        if (!strayed.length) return { f, r };
        if (again || strayed.some((x) => !x.path)) return { f, r: null, error: "a frame inside it moved to a site heybro keeps off while it was read" };
        rules.frames_off = [...rules.frames_off, ...strayed.map((x) => ({ path: /** @type {number[]} */ (x.path), line: leftOutLine(x.v) }))];
      }
    } catch (e) { return { f, r: null, error: String(/** @type {any} */ (e)?.message || e) }; }
  };
  if (args.frame !== undefined && args.frame !== null) {
    const v = verdicts.get(args.frame);
    if (v) throw keptOff(v, args.frame);
    const f = tree.seen.find((x) => x.frameId === args.frame) || { frameId: args.frame, path: null, root: true, url: "", vw: 0, vh: 0, kids: [] };
    return mergeFrames([await read(f, maxTokens)], tabId);
  }
  const topVerdict = verdicts.get(0);
  if (topVerdict) throw keptOff(topVerdict, 0);
  const roots = tree.seen.filter((f) => f.root);
  const top = roots.find((f) => f.frameId === 0) || { frameId: 0, path: [], root: true, url: "", vw: 0, vh: 0, kids: [] };
  const parentOf = (/** @type {number} */ id) => tree.nodes.find((n) => n.frameId === id)?.parentFrameId ?? -1;
  const sub = roots.filter((f) => f.frameId !== 0 && !verdicts.get(f.frameId));
  // Kept-off frames are not read at all: the map says where each was, and why, in one line (one
  // inside another kept-off frame is part of it).
  const left = roots.filter((f) => f.frameId !== 0 && verdicts.get(f.frameId) && !verdicts.get(parentOf(f.frameId)))
    .map((f) => ({ url: /** @type {FrameVerdict} */ (verdicts.get(f.frameId)).url, line: leftOutLine(/** @type {FrameVerdict} */ (verdicts.get(f.frameId))) }));
  // Cross-origin frames first, each within its share; the top page then gets all they left.
  const budgets = frameBudgets(maxTokens, top.vw * top.vh, sub.map((f) => ({ frameId: f.frameId, area: f.vw * f.vh })));
  const shown = sub.filter((f) => (budgets.get(f.frameId) || 0) > 0);
  const subResults = await Promise.all(shown.map((f) => read(f, /** @type {number} */ (budgets.get(f.frameId)))));
  const used = subResults.reduce((n, x) => n + (x.r ? Math.ceil((frameBlock(x).length + 2) / 4) : 0), 0)
    + left.reduce((n, l) => n + Math.ceil((l.line.length + 1) / 4), 0);
  const topResult = await read(top, Math.max(200, maxTokens - used));
  // A frame not worth reading (not rendered) was seen, not lost: it is not "unreadable".
  const skipped = sub.filter((f) => !shown.includes(f)).map((f) => f.url);
  return mergeFrames([topResult, ...subResults], tabId, skipped, left);
}

/**
 * The same-origin frames an agent read (`frames_read`: each frame's place and address as it read it)
 * that the user's site rules keep heybro off.
 * @param {any} r an agent's observation @param {SiteGate} gate
 * @returns {Array<{path: number[] | null, v: FrameVerdict}>}
 */
function strays(r, gate) {
  /** @type {Array<{path: number[] | null, v: FrameVerdict}>} */ const out = [];
  for (const x of (r && Array.isArray(r.frames_read) ? r.frames_read : [])) {
    const verdict = siteVerdict(frameAddress(String(x?.url || "")), gate);
    if (verdict) out.push({ path: Array.isArray(x.path) ? x.path : null, v: { verdict, url: String(x.url) } });
  }
  return out;
}

/** Page text must not close the fence or fake a line of ours (as dom_render.js's clean). @param {string} s */
function clean(s) { return s.replace(/"{3,}|<<<|>>>/g, "«").replace(/[\r\n]+/g, " "); }

/**
 * A cross-origin frame's rendering, its heading (its frame id and address, which the page chose)
 * inside its own fence.
 * @param {{f: {frameId: number}, r: any}} x
 */
function frameBlock(x) {
  const head = `[frame f${x.f.frameId} ${clean(String(x.r.url || "").slice(0, 120))}]`;
  const t = String(x.r.text || "");
  return t.startsWith('"""') ? t.replace(/^"""\n?/, `"""\n${head}\n`) : `"""\n${head}\n"""\n${t}`;
}

/**
 * The page's rendering with `lines` put inside its fence, before the fence closes (they hold words
 * the page chose: an address).
 * @param {string} text @param {string[]} lines
 */
function insideFence(text, lines) {
  if (!lines.length) return text;
  const all = text.split("\n");
  const close = all.indexOf('"""', 1);
  if (all[0] === '"""' && close > 0) all.splice(close, 0, ...lines);
  else all.push('"""', ...lines, '"""');
  return all.join("\n");
}

/**
 * One observation from the frames' answers: the top page's, with each cross-origin frame's after it,
 * and a line for each frame left out by the user's site rules.
 * @param {Array<{f: {frameId: number, url: string}, r: any, error?: string}>} results @param {number} tabId
 * @param {string[]} [skipped] addresses of frames left unread on purpose (not rendered)
 * @param {Array<{url: string, line: string}>} [left] frames left out by the user's site rules
 */
function mergeFrames(results, tabId, skipped = [], left = []) {
  const top = results.find((x) => x.f.frameId === 0) || results[0];
  if (!top || !top.r) throw fail("no_tab", `The page's DOM agent did not answer: ${top?.error || "no frame"}`);
  const base = top.r;
  let text = insideFence(base.text, left.map((l) => l.line));
  const elements = { ...base.elements };
  const newEls = [...base.new_elements];
  const counts = { ...base.counts };
  const readUrls = new Set([...skipped, ...left.map((l) => l.url)]);
  /** @type {Record<string, string>} */ const frameUrls = {};
  for (const x of results) {
    if (x === top || !x.r) continue;
    readUrls.add(x.r.url);
    frameUrls[`f${x.f.frameId}`] = String(x.r.url || "");
    text += `\n\n${frameBlock(x)}`;
    Object.assign(elements, x.r.elements);
    newEls.push(...x.r.new_elements);
    for (const k of Object.keys(counts)) counts[k] += x.r.counts[k] || 0;
  }
  /** @type {Array<{url: string, reason: string}>} */
  const unreadable = left.map((l) => ({ url: l.url.slice(0, 200), reason: l.line }));
  for (const x of results) if (!x.r) unreadable.push({ url: x.f.url, reason: x.error || "no answer" });
  for (const x of results) for (const rf of (x.r?.remote_frames || [])) {
    if (rf.url && ![...readUrls].some((u) => u === rf.url || u.startsWith(rf.url))) unreadable.push({ url: rf.url, reason: "cross-origin frame whose agent did not answer (sandboxed, about:blank or not loaded)" });
  }
  return {
    url: base.url, title: base.title, text, elements, new_elements: newEls, scroll: base.scroll,
    dialogs: results.flatMap((x) => x.r?.dialogs || []), frames_unreadable: unreadable, counts,
    tokens_estimate: Math.ceil(text.length / 4), tab_id: tabId, frame_urls: frameUrls,
  };
}

/** @param {number} tabId @param {string} url @param {number} timeout @param {string} action (its name, as the result says) */
async function waitForUrl(tabId, url, timeout, action) {
  const start = Date.now();
  for (;;) {
    const tab = await chrome.tabs.get(tabId).catch(() => null);
    if (!tab) throw fail("no_tab", "The tab was closed while waiting.");
    const now = tab.pendingUrl || tab.url || "";
    if (now.includes(url) && tab.status === "complete") return { ok: true, action, matched: "url", url: now, waited_ms: Date.now() - start };
    if (Date.now() - start > timeout) throw fail("timeout", `Waited ${timeout} ms and the address did not become "${url}" (it is ${now}).`, { url: now });
    await sleep(100);
  }
}

/**
 * Follows a tab's loading status from before an action, so the start of a navigation the action
 * causes is never missed: it tells a navigation the browser dropped (a 204, a download: no load ever
 * starts) from a slow one.
 * @param {number} tabId
 */
function watchTab(tabId) {
  const state = { sawLoading: false, closed: false };
  /** @param {number} id @param {chrome.tabs.OnUpdatedInfo} change */
  const listener = (id, change) => {
    if (id !== tabId) return;
    if (change.status === "loading") state.sawLoading = true;
  };
  /** @param {number} id */
  const removed = (id) => { if (id === tabId) state.closed = true; };
  chrome.tabs.onUpdated.addListener(listener);
  chrome.tabs.onRemoved.addListener(removed);
  return { state, stop() { chrome.tabs.onUpdated.removeListener(listener); chrome.tabs.onRemoved.removeListener(removed); } };
}

/**
 * The tab still has a navigation waiting for its server's answer (`pendingUrl`: the browser's own
 * record of it, cleared when the navigation is dropped — a download, a 204, a cancel). Chrome marks
 * a tab loading only once the answer arrives, so a server that thinks for seconds looks idle.
 * @param {number} tabId
 */
async function stillPending(tabId) {
  return chrome.tabs.get(tabId).then((t) => Boolean(t.pendingUrl), () => false);
}

/** How long a ping to a navigating frame goes unanswered before another is sent beside it. */
const PING_PATIENCE_MS = 20;
/** A ping that fails sooner was refused (no agent there); later, it was lost with the old document. */
const PING_REFUSED_MS = 2;
const UNLOADED = Object.freeze({ unloaded: true });

/**
 * After an action started a navigation: waits for the frame's new document — its DOM agent
 * answering (not the old document's: `oldDoc` is that one's id), the page loaded and settled — so
 * the next observe reads the new page at once. No fixed sleep: it returns as soon as the page is
 * ready. Null when no new document came (a dropped navigation, the tab closed, the deadline).
 * @param {number} tabId @param {number} frameId @param {number | null} oldDoc
 * @param {{sawLoading: boolean, closed: boolean}} tab @param {number} deadline
 * @param {Record<string, any> | null} [observeArgs] also read the new page, in the task it loads in
 * @returns {Promise<{doc: number, url: string, load_ms: number | null, render_ms?: number | null, observation?: any} | null>}
 */
async function newDocument(tabId, frameId, oldDoc, tab, deadline, observeArgs = null) {
  const t0 = Date.now();
  let injected = false, answered = false;
  /** @type {(r: any) => void} */ let found = () => {};
  const ready = new Promise((resolve) => { found = resolve; });
  // One kind of ping: the old document answers it with its own id (or, unloading, fails it); the
  // new one's agent, injected as it starts, answers once its page has loaded and settled. A reply
  // only comes when the renderer is free — often only after the load — so a ping is not awaited
  // for ever: one still unanswered after PING_PATIENCE_MS is joined by another (a busy old
  // renderer, a new document in another process), and whichever new-document answer comes first
  // wins. Otherwise one at a time: a ping that reached the new document waits there for its load.
  // A ping that failed after waiting failed as the old document went: the new one is there now,
  // and is pinged at once (a small page loads a few ms after it arrives, and a ping that comes
  // after the load waits for the browser's first rendering of it); one refused at once (no agent
  // yet) is tried again a moment later.
  const msg = { kind: "dom.ping", ready: true, unless_doc: oldDoc, ...(observeArgs ? { observe: { ...observeArgs, prefix: "" } } : {}) };
  const ping = () => {
    const sent = Date.now();
    return chrome.tabs.sendMessage(tabId, msg, { frameId })
      .then((r) => { answered = true; if (r && r.ok && r.doc !== oldDoc) found(r); return r; },
        () => (Date.now() - sent > PING_REFUSED_MS ? UNLOADED : null));
  };
  /**
   * What a ping came back with, for the loop: the old document's answer; null when it was refused
   * (ping again a moment later); undefined when there is nothing to wait for (lost with the old
   * document: ping again at once; or the new document's answer, which `ready` carries).
   * @param {any} x
   */
  const meaning = (x) => (x === UNLOADED ? undefined : !x ? null : x.ok && x.doc === oldDoc ? x : undefined);
  /** @type {Promise<any> | null} */ let inFlight = null;
  let sentAt = 0;
  for (let attempt = 0; Date.now() < deadline && !tab.closed; attempt++) {
    if (!inFlight || Date.now() - sentAt >= PING_PATIENCE_MS) {
      const sent = ping();
      inFlight = sent;
      sentAt = Date.now();
      sent.then(() => { if (inFlight === sent) inFlight = null; });
    }
    const pause = Math.min(3 + (attempt >> 2), 20);
    const r = await Promise.race([ready, inFlight.then(meaning), sleep(pause).then(() => undefined)]);
    if (r && r.ok && r.doc !== oldDoc) return r;
    // The old document still answers: the server has not answered yet, or the browser dropped the
    // navigation (no load started at all for a while).
    if (r && r.ok && Date.now() - t0 > (frameId === 0 ? (tab.sawLoading ? Infinity : 1500) : 5000)
      && !(frameId === 0 && await stillPending(tabId))) return null;
    if (r !== undefined) await Promise.race([ready, sleep(pause)]); // (the next ping a moment later)
    // No agent has answered for a while: a page the manifest's content script does not reach.
    if (!answered && !injected && Date.now() - t0 > 250) {
      injected = true;
      await inject(tabId, frameId).catch(() => {});
    }
  }
  return Promise.race([ready, sleep(0).then(() => null)]);
}

/**
 * The site rules an action in a frame keeps to, checked with the addresses the browser has for the
 * frame and the frames it sits in now: refused (`not_allowed`, the site's verdict as detail) when
 * they keep heybro off; else what the frame's agent checks again as it acts (rulesFor).
 * @param {number} tabId @param {number} frameId @param {SiteGate} gate
 */
async function frameRules(tabId, frameId, gate) {
  let nodes = await listedFrames(tabId);
  // (The browser lists no frame for the tab: what each frame says of itself, then.)
  if (!nodes.length) nodes = (await frameTree(tabId)).nodes;
  const verdicts = frameVerdicts(nodes, gate);
  const v = verdicts.get(frameId);
  if (v) throw keptOff(v, frameId);
  const url = nodes.find((n) => n.frameId === frameId)?.url;
  const here = url !== undefined ? { expect_host: hostOf(url) } : {};
  // Kept-off frames elsewhere on the page: the agent is told those it could reach itself.
  if (![...verdicts.values()].some(Boolean)) return { ...here, frames_off: [] };
  const tree = await frameTree(tabId);
  const f = tree.seen.find((x) => x.frameId === frameId);
  return { ...here, frames_off: framesOffUnder(tree.seen, frameVerdicts(tree.nodes, gate), f?.path || []) };
}

/**
 * An action tool: the action itself, then — when `observe_after` asks — the page as the next step
 * will see it, in the same reply (one round trip to the host fewer per step).
 * @param {PageAction} def @returns {(call: ToolCallPayload) => Promise<Record<string, any>>}
 */
export function actionTool(def) {
  const act = actOnly(def);
  return async (call) => {
    const { observe_after: after, ...args } = call.args || {};
    const { result, seen, opened } = await act({ ...call, args }, after || null);
    if (after) {
      if (typeof after.highlight === "boolean") markBoxes(/** @type {number} */ (call.tab_id ?? (await targetTab(call)).id), after.highlight);
      try {
        // The new top page, read as it loaded, is the whole page unless it has cross-origin
        // frames (their own agents answer separately) or went into a same-origin frame the user's
        // site rules keep heybro off (then it is read again, without it).
        if (seen && !(seen.remote_frames || []).length && !strays(seen, call.sites || {}).length) {
          const tabId = /** @type {number} */ (call.tab_id ?? (await targetTab(call)).id);
          result.observation = { ...mergeFrames([{ f: { frameId: 0, url: seen.url }, r: seen }], tabId), opened_tabs: await (opened ?? openedTabs(tabId, call)) };
        } else {
          result.observation = await observe({ ...call, args: after });
        }
      } catch { /* the page could not be read now: the host observes on its own */ }
    }
    return result;
  };
}

/**
 * The action alone; after a navigation in the top frame with `observeArgs`, `seen` is the new page
 * as its agent read it when it loaded, and `opened` the tabs this tab opened, asked while it loaded
 * (the action's own have opened by then; one the new page opens as it loads shows at the next look).
 * @param {PageAction} def
 * @returns {(call: ToolCallPayload, observeArgs: Record<string, any> | null) => Promise<{result: Record<string, any>, seen: any, opened?: Promise<Array<Record<string, any>>>}>}
 */
function actOnly(def) {
  const action = def.name;
  return async (call, observeArgs) => {
    const tab = await targetTab(call);
    const tabId = /** @type {number} */ (tab.id);
    const args = call.args || {};
    const timeout = Math.max(500, (call.timeout_ms || 15000) - 500);
    // A wait for an address is the tab's: it outlives the documents it waits through.
    const waitMs = Math.round((args.seconds ?? 5) * 1000); // (a wait's own bound, kept within the call's)
    if (def.waits && args.url_contains) return { result: await waitForUrl(tabId, args.url_contains, Math.min(waitMs, timeout), action), seen: null };
    const frameId = args.element_id ? frameOfId(args.element_id) : (args.frame ?? 0);
    const urlBefore = tab.url || "";
    const prefix = frameId === 0 ? "" : `f${frameId}`;
    const started = Date.now();
    // The frame acted in is judged by where it is now (it may have navigated since it was read).
    const rules = await frameRules(tabId, frameId, call.sites || {});
    const watch = watchTab(tabId);
    // A browser dialog the action opens is answered as the action says (else dismissed) and reported.
    await armDialogs(tabId, { dialog: args.dialog ?? null, dialog_text: args.dialog_text ?? null });
    // What the page sends as it reacts is judged as it leaves (request_gate.js).
    const sent = args.gate ? await watchRequests(tabId, args.gate, originOf(urlBefore)) : null;
    let done = false;
    try {
      const reply = await ask(tabId, frameId, { kind: "dom.act", action, args: { ...args, prefix, ...rules, trusted_input: await trustedInputMode(), ...(def.waits ? { seconds: Math.min(waitMs, timeout - 300) / 1000 } : {}) } }, started + timeout);
      const [answered] = takeDialogs(tabId);
      if (answered) reply.dialog = answered;
      if (!reply.navigated && !reply.navigating) { done = true; await stopped(sent, action); return { result: await withDownloads(tabId, started, reply), seen: null }; }
      // The action started a navigation (the agent saw it begin, or the page unloaded before it
      // could answer): wait for the new document instead of guessing with a sleep.
      const opened = frameId === 0 && observeArgs ? openedTabs(tabId, call) : undefined;
      const ready = await newDocument(tabId, frameId, reply.doc ?? null, watch.state, started + timeout, frameId === 0 ? observeArgs : null);
      // The tab went away with the action in flight: whether it happened cannot be seen.
      if (!ready && !(await chrome.tabs.get(tabId).catch(() => null))) throw fail("cut_off", `The tab closed while ${action} was in flight: it may or may not have happened.`);
      const url = ready?.url || (frameId === 0 ? (await chrome.tabs.get(tabId).catch(() => null))?.url : null) || reply.url || urlBefore;
      const result = {
        ok: true, action, element_id: reply.element_id ?? args.element_id ?? null, found_by: reply.found_by ?? null, confidence: reply.confidence ?? 1,
        url, url_changed: frameId === 0 ? url !== urlBefore : !!reply.url_changed, navigated: !!ready,
        ...(ready && ready.load_ms !== null ? { page_ms: ready.load_ms } : {}),
        ...(ready && ready.render_ms !== null && ready.render_ms !== undefined ? { render_ms: ready.render_ms } : {}),
        mutations: { added: 0, removed: 0, attributes: 0, text: 0, summary: ready ? "the page navigated" : "a navigation started but no new page loaded" },
        dialog: reply.dialog ?? null, focused: null, element: null,
        ...Object.fromEntries(["selected", "checked", "pressed", "uploaded"].filter((k) => k in reply).map((k) => [k, reply[k]])),
      };
      const [late] = takeDialogs(tabId); // ("leave this page?", or one the new page opened as it loaded)
      if (late && !result.dialog) result.dialog = late;
      done = true;
      await stopped(sent, action);
      return { result: await withDownloads(tabId, started, result), seen: ready?.observation ?? null, opened };
    } finally {
      if (!done) await sent?.stop();
      watch.stop();
      await armDialogs(tabId); // the action's instruction is spent: the default for a while
    }
  };
}

/** @param {string} url */
function originOf(url) { try { return new URL(url).origin; } catch { return "null"; } }

/**
 * The action's result with the files its page downloaded meanwhile (`downloads`), those still on
 * their way waited for a while (downloads.js).
 * @param {number} tabId @param {number} since @param {Record<string, any>} result
 */
async function withDownloads(tabId, since, result) {
  const files = await downloadsSince(tabId, since, DOWNLOAD_WAIT_MS);
  return files.length ? { ...result, downloads: files } : result;
}

/** How long an action's result waits for a file its page began downloading. */
const DOWNLOAD_WAIT_MS = 15_000;

/**
 * Ends the watch over what the page sent as the action ran; a request it stopped makes the action
 * `needs_approval`, with that request as the effect the user is asked about.
 * @param {Awaited<ReturnType<typeof watchRequests>> | null} sent @param {string} action
 */
async function stopped(sent, action) {
  const held = sent ? await sent.stop() : [];
  if (!held.length) return;
  const [first] = held;
  const why = first.reasons.map((r) => (r.kind === "risk" ? `it may ${r.what} (${r.said})` : "")).filter(Boolean).join("; ");
  throw fail("needs_approval", `As heybro's ${action} landed, the page sent ${first.effect.method?.toUpperCase()} ${first.effect.target}, which needs the user's yes: ${why}. heybro stopped it; nothing of it left.`,
    { effect: first.effect, digest: first.digest, reasons: first.reasons, stopped: held.length });
}

/**
 * Turns the numbered boxes on or off for the tab's next screenshot (shot.js paints them on the
 * image: nothing is drawn in the page).
 * @param {ToolCallPayload} call
 */
export async function highlight(call) {
  const tab = await targetTab(call);
  markBoxes(/** @type {number} */ (tab.id), !!call.args?.on);
  return { ok: true, on: !!call.args?.on };
}
