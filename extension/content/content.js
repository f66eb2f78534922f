// @ts-check
/**
 * The DOM agent's entry in every frame. Content scripts are classic scripts; the agent itself is
 * ES modules (shared with tests and benchmarks, which load extension/lib/*.js as-is), so this loader
 * imports it from the extension's own origin (the modules are listed in web_accessible_resources,
 * which a dynamic import from a content script requires). One copy of the code, no bundler, and a
 * syntax error shows up in `node --check` rather than at run time in a concatenated bundle.
 *
 * A request that arrives before the import resolved finds no listener; the coordinator retries
 * for a short while (dom_tools.js), which also covers pages still loading.
 */
(() => {
  const w = /** @type {any} */ (globalThis);
  if (w.__heybroAgentLoading) return; // injected twice (manifest + executeScript): keep the first
  w.__heybroAgentLoading = import(chrome.runtime.getURL("extension/content/agent.js")).catch((e) => {
    console.warn("heybro: DOM agent failed to load", e);
  });
})();
