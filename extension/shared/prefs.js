// @ts-check
/**
 * The extension's own preferences (nothing secret: the model settings live with the host), in
 * chrome.storage.local under one key. Read by the coordinator, edited on the options page.
 */

export const PREFS_KEY = "heybro_prefs";

/** @typedef {{notify: boolean}} Prefs */

/** @type {Prefs} */
export const DEFAULT_PREFS = { notify: true };

/** @param {{get: (k: string) => Promise<Record<string, any>>}} [storage] @returns {Promise<Prefs>} */
export async function loadPrefs(storage = chrome.storage.local) {
  const got = await storage.get(PREFS_KEY);
  return { ...DEFAULT_PREFS, ...(got?.[PREFS_KEY] || {}) };
}

/** @param {Partial<Prefs>} change @param {{get: (k: string) => Promise<Record<string, any>>, set: (v: Record<string, any>) => Promise<void>}} [storage] */
export async function savePrefs(change, storage = chrome.storage.local) {
  const next = { ...(await loadPrefs(storage)), ...change };
  await storage.set({ [PREFS_KEY]: next });
  return next;
}
