// @ts-check
/**
 * How an observation's token budget is split between the top page and its cross-origin frames
 * (each read by its own agent). A frame gets a share by the room it takes on screen — its viewport
 * against the top page's — so a row of small ad frames gets a line or two each, not hundreds of
 * tokens; a frame that is not rendered (0×0) gets nothing; all frames together get at most
 * FRAMES_SHARE of the budget. The top page is read after them and gets everything they left.
 */

/** Frames' part of the budget, at most. */
export const FRAMES_SHARE = 0.3;
/** A visible frame's least share (a line or two), room permitting. */
export const MIN_FRAME_TOKENS = 60;

/**
 * @param {number} maxTokens the observation's budget
 * @param {number} topArea the top page's viewport, in CSS px²
 * @param {Array<{frameId: number, area: number}>} frames the cross-origin frames, area = their viewport in CSS px²
 * @returns {Map<number, number>} frame id → tokens (0: not worth reading)
 */
export function frameBudgets(maxTokens, topArea, frames) {
  const cap = Math.floor(maxTokens * FRAMES_SHARE);
  const want = frames.map((f) => (f.area > 0 ? Math.max(MIN_FRAME_TOKENS, maxTokens * Math.min(1, f.area / Math.max(1, topArea))) : 0));
  const sum = want.reduce((a, b) => a + b, 0);
  const scale = sum > cap ? cap / sum : 1;
  return new Map(frames.map((f, i) => [f.frameId, Math.floor(want[i] * scale)]));
}
