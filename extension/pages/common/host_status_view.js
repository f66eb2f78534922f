// @ts-check
/** Renders the host's status (pill + a banner with the fixing command) the same way on every page. */
import { isProblem } from "../../shared/host_state.js";

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
 * The problem to show: the status itself, or, while a retry is connecting, the last problem it
 * is retrying after (so the banner and its fix stay put instead of blinking away on every retry).
 * @param {import("../../background/host_link.js").HostStatus} status
 * @returns {import("../../background/host_link.js").HostProblem | undefined}
 */
export function shownProblem(status) {
  if (isProblem(status.state)) return status;
  return status.state === "connecting" ? status.problem : undefined;
}

/**
 * @param {import("../../background/host_link.js").HostStatus} status
 * @param {{pill: HTMLElement, banner?: HTMLElement | null}} els
 */
export function renderHostStatus(status, els) {
  els.pill.dataset.state = status.state;
  els.pill.textContent = LABELS[status.state] || status.state;
  els.pill.title = status.message;
  const banner = els.banner;
  if (!banner) return;
  const problem = shownProblem(status);
  banner.hidden = !problem;
  if (!problem) return;
  banner.dataset.state = problem.state;
  /** @type {HTMLElement} */ (banner.querySelector("[data-field=message]")).textContent = problem.message;
  const fixRow = /** @type {HTMLElement} */ (banner.querySelector("[data-field=fix-row]"));
  fixRow.hidden = !problem.fix;
  /** @type {HTMLElement} */ (banner.querySelector("[data-field=fix]")).textContent = problem.fix || "";
  const retry = /** @type {HTMLElement} */ (banner.querySelector("[data-field=retry]"));
  retry.textContent = status.state === "connecting" ? "Trying again now…"
    : status.retryInMs ? `Retrying in ${Math.round(status.retryInMs / 100) / 10} s.` : "";
}
