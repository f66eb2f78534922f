// @ts-check
/** The DOM agent's entry in every page: answers the coordinator's requests about this page. */
chrome.runtime.onMessage.addListener((msg, _sender, sendResponse) => {
  if (msg && msg.kind === "dom.ping") {
    sendResponse({ ok: true, url: location.href });
    return false;
  }
  return false;
});
