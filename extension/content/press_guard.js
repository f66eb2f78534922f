// @ts-check
/**
 * What the browser's own input presses is what the action chose, and nothing else.
 *
 * The browser's mouse and keyboard (background/trusted_input.js, through chrome.debugger) land
 * where the browser says at the moment they land: a press on whatever is under the pointer then,
 * keys in whatever has the focus then. Between the agent's look and the press a page can slide
 * another control under the pointer (as the pointer arrives, at the press, on a timer) or move the
 * focus to another field. The judge of where input landed is not the agent's earlier hit test but
 * the browser's own, and each event carries it: its target, with the composed path above it.
 *
 * So, while the browser's input for an action runs, a guard in each window the agent acts in (the
 * page's and its same-origin frames') — a listener on the window in the capture phase, registered
 * as the document starts, so before anything of the page — judges each trusted event by its path:
 * - a press (pointer and mouse down and up, click, auxclick, dblclick, context menu; and the
 *   pointer's move to the point, the browser's hit test right before the press) that does not
 *   reach the chosen element — it, what it holds, a label of it or its label's control (a label's
 *   click is its control's), or a box of its size it was in when the guard was armed (a wrapper's
 *   padding, where pointerPoint may have to aim) — and, when the action types, a key or text event
 *   (key down/press/up, beforeinput, input, textInput, composition) whose target is not the chosen
 *   field, is stopped before any listener of the page runs and its default prevented: nothing is
 *   pressed, nor typed, into the other element. From
 *   then on every trusted event of the action is stopped (nothing half-done goes on elsewhere), and
 *   the action fails `swapped`, saying what was there. Nothing is retried onto it.
 * - after the release: a click whose press reached none of the agent's windows went where no guard
 *   sees (another site's frame laid under the pointer): the action fails `swapped` as well.
 * - as the press (or the first key) lands on the chosen element, what it does — its words, where
 *   it leads, what its form sends — must still be what the last look judged (act_gate.js): a
 *   control the page relabelled or re-pointed in between is not pressed; the action comes back
 *   `needs_approval` with the effect as it is now, judged (and asked about) again.
 *
 * Where the page removed the guard (it rebuilt its document with document.open, which takes every
 * listener of its window away), the browser's input is not used at all. In a frame the agent did
 * not start in (about:blank, srcdoc) the guard is put in place as an action first needs it: it
 * still stops the event before the element and every listener on it, and its default, but a
 * listener the page put on that window before it hears the event first.
 *
 * While it is armed, no trusted `contextmenu` opens the browser's own menu: a right click is for
 * the page's menu (its listeners hear the event as ever; its default is prevented). The page's
 * menu opens under the pointer as the button goes down, so the release that follows lands on it:
 * that release is stopped (it would choose an item of the menu) and is no swap.
 *
 * A move alone presses nothing and is not judged (a hover; the move onto a row that shows the
 * control). Key events during a click, pointer events while typing and the page's own (untrusted)
 * events are not judged, until a refusal stops them all. The guard shows nothing to the page: its
 * listeners and state live in the content script's own world, where no page script reaches; it
 * sets no attribute and dispatches no event a page can hear.
 */
import { changedSinceLook } from "./act_gate.js";
import { actionError } from "./dom_input.js";
import { brief } from "./dom_locate.js";
import { frameDocuments } from "./dom_roots.js";
import { sendTrusted } from "./dom_trusted.js";
import { dispatchOf, docOf, listenOf, nodeTypeOf, parentElOf, rectOf, rootOf, tagOf } from "./dom_native.js";

/** @typedef {import("../background/trusted_input.js").InputStep} InputStep */
/** @typedef {"pointer" | "keys" | "drag"} Kind what the action's input is: a press, keys and text, or a drag (a press carried elsewhere) */

const POINTER_EVENTS = ["pointerdown", "mousedown", "pointerup", "mouseup", "click", "auxclick", "dblclick", "contextmenu", "pointermove", "mousemove"];
const KEY_EVENTS = ["keydown", "keypress", "keyup", "beforeinput", "input", "textInput", "compositionstart", "compositionupdate", "compositionend"];
/** The events judged, by the kind of input they are. @type {Map<string, Kind>} */
export const FAMILY = new Map([...POINTER_EVENTS.map((t) => /** @type {[string, Kind]} */ ([t, "pointer"])),
  ...KEY_EVENTS.map((t) => /** @type {[string, Kind]} */ ([t, "keys"]))]);
/** The events of a press going down: one of them reaching the element is the press landing there. */
const GOING_DOWN = new Set(["pointerdown", "mousedown"]);
/** The events of a press coming up. */
const COMING_UP = new Set(["pointerup", "mouseup", "click", "auxclick"]);

/**
 * The slot a window's guard reads: a property of the content script's world's own global object
 * (no page sees it), which another frame's agent of the same extension reads too.
 */
const SLOT = "__heybroPressGuard";

/**
 * @typedef {{type: string, isTrusted: boolean, cancelable: boolean, composedPath(): EventTarget[],
 *   stopImmediatePropagation(): void, preventDefault(): void}} GuardEvent
 * @typedef {{on(e: GuardEvent): void, readonly refused: {type: string, at: EventTarget | null, error?: Error} | null, readonly pressed: boolean}} Judge
 * @typedef {{armed: Judge | null, probe: string, heard: boolean}} Slot  probe: the name of an event
 *   only the guard's own listener knows (random), by which it is seen to stand
 */

/**
 * The judgement over one action's trusted input (pure: the page's side is `fits`, whether an
 * event's path reaches what was chosen, and `still`, whether what it does is still what was judged
 * at the last look — asked as the press, or the first key, lands on it).
 * @param {Kind} kind @param {(path: EventTarget[]) => boolean} fits
 * @param {() => Error | null} [still] the refusal when the element's effect changed since the look
 * @returns {Judge}
 */
export function judge(kind, fits, still) {
  /** @type {{type: string, at: EventTarget | null, error?: Error} | null} */ let refused = null;
  let pressed = false, checked = false, menu = false;
  return {
    on(e) {
      if (!e.isTrusted) return; // the page's own events are the page's
      const family = FAMILY.get(e.type);
      if (!family) return;
      // A right click is for the page's own menu: the browser's never opens over it (the page's
      // listeners still hear the event; only its default, the browser's menu, is prevented).
      if (e.type === "contextmenu" && e.cancelable) e.preventDefault();
      if (!refused) {
        if (family !== (kind === "drag" ? "pointer" : kind)) return;
        // A drag's press must land on what it picks up; where it is carried and let go is the
        // drag's own (the drop's effect is judged before it: act_gate.js).
        if (kind === "drag" && !GOING_DOWN.has(e.type)) return;
        const path = e.composedPath();
        // The page's menu opens under the pointer as the right button goes down: the release lands
        // on it. That release is kept from the menu (it would choose what lies under the pointer)
        // and is no swap.
        if (menu && COMING_UP.has(e.type) && !fits(path)) {
          e.stopImmediatePropagation();
          if (e.cancelable) e.preventDefault();
          return;
        }
        const landing = GOING_DOWN.has(e.type) || e.type === "keydown";
        const changed = fits(path) && landing && !checked && still ? (checked = true, still()) : null;
        if (fits(path) && !changed) { if (GOING_DOWN.has(e.type)) pressed = true; if (e.type === "contextmenu") menu = true; return; }
        refused = { type: e.type, at: path[0] ?? null, ...(changed ? { error: changed } : {}) };
      }
      e.stopImmediatePropagation();
      if (e.cancelable) e.preventDefault();
    },
    get refused() { return refused; },
    get pressed() { return pressed; },
  };
}

/**
 * The guard of a window: its capture listeners, registered once (the agent does it as its document
 * starts; a frame it did not start in — about:blank, srcdoc — when an action first needs it).
 * @param {Window} win @returns {Slot}
 */
export function installGuard(win) {
  // (An own property of the global: an element named like it is no own property of the window.)
  const own = Object.getOwnPropertyDescriptor(win, SLOT)?.value;
  if (own) return own;
  const probe = `heybro-${Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("")}`;
  /** @type {Slot} */ const slot = { armed: null, probe, heard: false };
  Object.defineProperty(win, SLOT, { value: slot });
  const listener = (/** @type {Event} */ e) => { slot.armed?.on(e); };
  for (const type of FAMILY.keys()) listenOf(win, type, listener, { capture: true, passive: false });
  listenOf(win, probe, () => { slot.heard = true; });
  return slot;
}

/**
 * Whether the window's guard still stands: a page that rebuilds its document (document.open)
 * removes every listener of its window, the guard's too, and may put its own first in their place.
 * Asked with an event of a name only the guard knows: no listener of the page can hear it.
 * @param {Window} win @param {Slot} slot
 */
function stands(win, slot) {
  slot.heard = false;
  dispatchOf(win, new Event(slot.probe));
  return slot.heard;
}

/** @param {unknown} n @returns {n is Element} */
function isElement(n) {
  try { return nodeTypeOf(/** @type {Node} */ (n)) === 1; } catch { return false; } // (a window, or no node)
}

/**
 * What a press may land on for the chosen element, read as the guard is armed (a page that changes
 * them at the press changes nothing): its label's control (the click a label passes on), and the
 * boxes of its size around it (a wrapper's padding, where the pointer may aim: pointerPoint).
 * @param {Element} chosen
 * @returns {{control: Element | null, boxes: Set<Element>}}
 */
function pressTargets(chosen) {
  const control = tagOf(chosen) === "label" ? /** @type {HTMLLabelElement} */ (chosen).control : null;
  /** @type {Set<Element>} */ const boxes = new Set();
  const width = rectOf(chosen).width + 4;
  for (let up = parentOrHost(chosen); up && rectOf(up).width <= width; up = parentOrHost(up)) boxes.add(up);
  return { control, boxes };
}

/** @param {Element} el @returns {Element | null} */
function parentOrHost(el) {
  const p = parentElOf(el);
  if (p) return p;
  const root = /** @type {any} */ (rootOf(el));
  return nodeTypeOf(root) === 11 ? root.host : null;
}

/**
 * Whether a press's path reaches the chosen element: it or what it holds, a label of it (or, for a
 * label, the control it had), or — the press on the very box — one of the boxes its size around it.
 * @param {EventTarget[]} path @param {Element} chosen @param {{control: Element | null, boxes: Set<Element>}} targets pressTargets
 */
export function pressReaches(path, chosen, targets) {
  if (path.includes(chosen) || (targets.control && path.includes(targets.control))) return true;
  const els = path.filter(isElement);
  if (els.some((n) => tagOf(n) === "label" && /** @type {HTMLLabelElement} */ (n).control === chosen)) return true;
  return !!els[0] && targets.boxes.has(els[0]);
}

/**
 * What a path from the window shows of the element: the host of a closed shadow root it is in
 * (a closed tree's nodes are left out of paths seen from outside it).
 * @param {Element} el
 */
function seenAs(el) {
  let at = el;
  for (let root = /** @type {any} */ (rootOf(at)); nodeTypeOf(root) === 11 && root.mode === "closed"; root = rootOf(at)) at = root.host;
  return at;
}

/** The windows the agent acts in: its own, its same-origin frames', and those around the element's. @param {Element} el */
function windowsAround(el) {
  /** @type {Set<Window>} */ const out = new Set([window]);
  for (const d of frameDocuments(document)) if (d.defaultView) out.add(d.defaultView);
  for (let w = docOf(el).defaultView; w && !out.has(w); w = w.frameElement ? docOf(w.frameElement).defaultView : null) out.add(w);
  return [...out];
}

/** @param {EventTarget | null} at */
function describe(at) {
  if (!isElement(at)) return null;
  const b = brief(at);
  return b ? `<${b.tag}>${b.name ? ` "${b.name.slice(0, 60)}"` : ""}` : null;
}

/**
 * Arms the guard of every window the agent acts in with the element chosen, for one action's
 * trusted input; `release` disarms it and says how the input went.
 * @param {Element} chosen @param {Kind} kind
 */
export function armGuard(chosen, kind) {
  const seen = seenAs(chosen), targets = pressTargets(seen);
  const j = judge(kind, kind !== "keys" ? (path) => pressReaches(path, seen, targets) : (path) => path.includes(seen),
    () => changedSinceLook(chosen));
  const slots = windowsAround(chosen).map((w) => {
    const slot = installGuard(w);
    if (!stands(w, slot)) {
      throw actionError("unsupported", "The page removed heybro's guard on the browser's own input (it rebuilt its document with document.open), so that input is not used on this page.");
    }
    return slot;
  });
  for (const s of slots) s.armed = j;
  return {
    /**
     * Disarms; the refusal (an error) when input went to another element, or — a click that was
     * sent in full — when its press reached no window the guard watches.
     * @param {boolean} sent the steps were all played
     */
    release(sent) {
      for (const s of slots) if (s.armed === j) s.armed = null;
      if (j.refused?.error) return j.refused.error; // the control changed under the press: judged again
      const detail = { element: brief(chosen), event: j.refused?.type ?? null, instead: isElement(j.refused?.at) ? brief(/** @type {Element} */ (j.refused?.at)) : null };
      if (j.refused && kind === "keys") {
        return actionError("swapped", `The page moved the keyboard's focus to another field: ${describe(j.refused.at) || "another element"}. Nothing was typed there, and heybro does not retry; look at the page again.`, detail);
      }
      if (j.refused) {
        return actionError("swapped", `The page put another control under the pointer: ${describe(j.refused.at) || "another element"}. Nothing was pressed, and heybro does not retry; look at the page again.`, detail);
      }
      if (kind !== "keys" && sent && !j.pressed && !/^(iframe|frame|embed|object)$/.test(tagOf(chosen))) {
        return actionError("swapped", "The press did not reach the control: the page put something heybro cannot see into (such as another site's frame) under the pointer, and the press went there. Look at the page again.", detail);
      }
      return null;
    },
  };
}

/**
 * The kind of input the steps are: a press (a click), keys and text, or neither (a move alone).
 * @param {InputStep[]} steps @returns {Kind | null}
 */
export function kindOf(steps) {
  if (steps.some((s) => s.type === "drag")) return "drag";
  if (steps.some((s) => s.type === "click")) return "pointer";
  if (steps.some((s) => s.type === "key" || s.type === "text")) return "keys";
  return null;
}

/**
 * Plays the steps as the browser's own input with the guard armed on the element they are for.
 * @param {InputStep[]} steps @param {Element} chosen
 * @param {{since?: number}} [opts] since: a replay of an action begun then (the coordinator refuses it when the page reacted since)
 */
export async function sendGuarded(steps, chosen, opts = {}) {
  const kind = kindOf(steps);
  const guard = kind ? armGuard(chosen, kind) : null;
  try {
    await sendTrusted(steps, opts);
  } catch (e) {
    throw guard?.release(false) || e;
  }
  const refusal = guard?.release(true);
  if (refusal) throw refusal;
}
