// @ts-check
/** The toolbar popup: host status, the running task, pause/resume/stop, and a way into the panel. */
import { CoordinatorClient } from "../lib/ui_protocol.js";
import { renderHostStatus } from "../lib/host_status_view.js";

const pill = /** @type {HTMLElement} */ (document.getElementById("host-pill"));
new CoordinatorClient("popup", (push) => {
  if (push.kind === "host_status") renderHostStatus(push.status, { pill });
});

// sidePanel.open must run inside the click's user gesture, so the window id is looked up first.
/** @type {number | undefined} */
let windowId;
chrome.windows.getCurrent().then((w) => { windowId = w.id; });
document.getElementById("open-panel")?.addEventListener("click", () => {
  if (windowId === undefined) return;
  chrome.sidePanel.open({ windowId }).then(() => window.close(), (e) => console.warn("heybro: side panel", e));
});
