// @ts-check
/**
 * When each tab was made and from which tab, as the browser says it (`chrome.tabs.onCreated`,
 * registered as this module loads: at the top of the service worker, so a tab made while it slept
 * wakes it and is heard), and when each task started — what tab_adoption.js judges a tab by. Both
 * are kept in `chrome.storage.session`: they outlive a service-worker restart, and end with the
 * browser session, as tab ids do.
 *
 * @typedef {import("./tab_adoption.js").Birth} Birth
 */

const BIRTHS = "heybro_tab_births";
const STARTS = "heybro_task_starts";
/** Task starts kept, newest last. */
const KEEP_STARTS = 20;

/** @type {Map<number, Birth>} */
const births = new Map();
/** @type {Map<string, number>} */
const starts = new Map();

/** What an earlier life of the service worker heard (what this one heard already wins). */
const loaded = Promise.resolve().then(() => chrome.storage.session.get([BIRTHS, STARTS])).then((o) => {
  for (const [id, b] of Object.entries(o?.[BIRTHS] || {})) if (!births.has(Number(id))) births.set(Number(id), /** @type {Birth} */ (b));
  for (const [id, at] of Object.entries(o?.[STARTS] || {})) if (!starts.has(id)) starts.set(id, Number(at));
}, (e) => console.warn("heybro: tab births not read", e));

/** @type {Promise<void> | null} */ let writing = null;
let dirty = false;

/** Saves both records (one write at a time; changes meanwhile go with the next). */
function save() {
  dirty = true;
  if (writing) return writing;
  writing = (async () => {
    await loaded;
    while (dirty) {
      dirty = false;
      await chrome.storage.session.set({ [BIRTHS]: Object.fromEntries(births), [STARTS]: Object.fromEntries(starts) })
        .catch((e) => console.warn("heybro: tab births not saved", e));
    }
  })().finally(() => { writing = null; });
  return writing;
}

chrome.tabs.onCreated.addListener((tab) => {
  if (tab.id === undefined) return;
  births.set(tab.id, { opener: tab.openerTabId ?? null, at: Date.now() });
  save();
});
chrome.tabs.onRemoved.addListener((tabId) => { if (births.delete(tabId)) save(); });

/** Every tab's birth heard in this browser session. @returns {Promise<Map<number, Birth>>} */
export async function tabBirths() {
  await loaded;
  return births;
}

/**
 * When the task started, as heybro first heard of it (its start from the panel, or its first call):
 * the earliest time noted; `at` notes it when none is.
 * @param {string} taskId @param {number} [at]
 * @returns {Promise<number>}
 */
export async function taskStart(taskId, at) {
  await loaded;
  const known = starts.get(taskId);
  if (known !== undefined && (at === undefined || known <= at)) return known;
  const when = at ?? Date.now();
  starts.delete(taskId);
  starts.set(taskId, when);
  while (starts.size > KEEP_STARTS) starts.delete(/** @type {string} */ (starts.keys().next().value));
  await save();
  return when;
}
