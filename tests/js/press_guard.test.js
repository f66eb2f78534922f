// The press guard's judgement (extension/content/press_guard.js), on events as the browser gives
// them: what it lets through, what it stops before the page sees it, and that after one refusal it
// stops everything of the action.
import { test } from "node:test";
import assert from "node:assert/strict";
import { judge, kindOf } from "../../extension/content/press_guard.js";

const chosen = { name: "Keep my plan" }, other = { name: "Delete account" };

/** An event as the guard sees it: its path, and what was done to it. */
function event(type, target, { trusted = true, cancelable = true } = {}) {
  const e = { type, isTrusted: trusted, cancelable, stopped: false, prevented: false,
    composedPath: () => [target, "document", "window"],
    stopImmediatePropagation() { this.stopped = true; }, preventDefault() { this.prevented = true; } };
  return e;
}
const fits = (path) => path.includes(chosen);

test("a press on the chosen element goes through, and counts as the press landing", () => {
  const j = judge("pointer", fits);
  for (const type of ["pointermove", "mousemove", "pointerdown", "mousedown", "pointerup", "mouseup", "click"]) {
    const e = event(type, chosen);
    j.on(e);
    assert.equal(e.stopped || e.prevented, false, type);
  }
  assert.equal(j.refused, null);
  assert.equal(j.pressed, true);
});

test("a press on another element is stopped before the page sees it, and so is all that follows", () => {
  const j = judge("pointer", fits);
  j.on(event("pointermove", chosen));
  const down = event("pointerdown", other);
  j.on(down);
  assert.deepEqual([down.stopped, down.prevented], [true, true]);
  assert.deepEqual(j.refused, { type: "pointerdown", at: other });
  assert.equal(j.pressed, false);
  // Even what then lands on the chosen element, of either kind: nothing half-done goes on.
  for (const [type, at] of [["mouseup", chosen], ["click", chosen], ["keydown", chosen]]) {
    const e = event(type, at);
    j.on(e);
    assert.equal(e.stopped, true, type);
  }
  assert.deepEqual(j.refused, { type: "pointerdown", at: other }); // the first refusal is the one told
});

test("the page's own events are not judged, nor events of the other kind, nor a move that is no press's", () => {
  const j = judge("pointer", fits);
  for (const e of [event("click", other, { trusted: false }), event("keydown", other), event("focus", other), event("mouseover", other)]) {
    j.on(e);
    assert.equal(e.stopped, false, e.type);
  }
  assert.equal(j.refused, null);
});

test("keys and text that go to another field are stopped; a click the keys cause is not judged", () => {
  const j = judge("keys", fits);
  const typed = event("beforeinput", chosen), submit = event("click", other);
  j.on(typed);
  j.on(submit); // (Enter in a field clicks its form's submit button)
  assert.equal(typed.stopped || submit.stopped, false);
  const elsewhere = event("keypress", other);
  j.on(elsewhere);
  assert.deepEqual([elsewhere.stopped, elsewhere.prevented, j.refused?.type], [true, true, "keypress"]);
  const later = event("input", other, { cancelable: false });
  j.on(later);
  assert.deepEqual([later.stopped, later.prevented], [true, false]); // (stopped; it has no default to prevent)
});

test("what the steps are decides what is guarded: a click, keys and text, or a move alone (nothing)", () => {
  assert.equal(kindOf([{ type: "click", x: 1, y: 2 }]), "pointer");
  assert.equal(kindOf([{ type: "key", key: "a", code: "KeyA", keyCode: 65, modifiers: 2 }, { type: "text", text: "x" }]), "keys");
  assert.equal(kindOf([{ type: "move", x: 1, y: 2 }]), null);
});
