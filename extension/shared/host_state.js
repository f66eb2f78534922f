// @ts-check
/** Which states of the host link are problems for the user (shown with their fix) and which are progress. */

/** @param {string} state @returns {boolean} */
export function isProblem(state) {
  return state !== "connected" && state !== "connecting" && state !== "idle";
}
