// @ts-check
/** Renders the host's status (pill + a banner with the fixing command) the same way on every page. */

/** @type {Record<string, string>} */
const LABELS = {
  idle: "Host idle",
  connecting: "Connecting…",
  connected: "Host connected",
  disconnected: "Host disconnected",
  not_installed: "Host not installed",
  not_responding: "Host not responding",
  wrong_version: "Host version mismatch",
};

/**
 * @param {import("../background/host_link.js").HostStatus} status
 * @param {{pill: HTMLElement, banner?: HTMLElement | null}} els
 */
export function renderHostStatus(status, els) {
  els.pill.dataset.state = status.state;
  els.pill.textContent = LABELS[status.state] || status.state;
  els.pill.title = status.message;
  const banner = els.banner;
  if (!banner) return;
  const bad = status.state !== "connected" && status.state !== "connecting" && status.state !== "idle";
  banner.hidden = !bad;
  if (!bad) return;
  banner.dataset.state = status.state;
  /** @type {HTMLElement} */ (banner.querySelector("[data-field=message]")).textContent = status.message;
  const fixRow = /** @type {HTMLElement} */ (banner.querySelector("[data-field=fix-row]"));
  fixRow.hidden = !status.fix;
  /** @type {HTMLElement} */ (banner.querySelector("[data-field=fix]")).textContent = status.fix || "";
  const retry = /** @type {HTMLElement} */ (banner.querySelector("[data-field=retry]"));
  retry.textContent = status.retryInMs ? `Retrying in ${Math.round(status.retryInMs / 100) / 10} s.` : "";
}
