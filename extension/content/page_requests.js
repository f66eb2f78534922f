// @ts-check
/**
 * The page's own requests, as the page makes them. Runs in the page's JavaScript world (manifest
 * `"world": "MAIN"`, at document_start, before the page's scripts), because `fetch` and
 * `XMLHttpRequest` are the page's functions and the extension's world never sees them called.
 *
 * Why: an application that draws its content from its server (a mail list, a dashboard, a data
 * table) has loaded — and a click in it has finished — only once those requests have come back and
 * been drawn. The DOM agent waits for that instead of reading a half-drawn page.
 *
 * Each request's start and end is sent to the agent as a DOM event on the document carrying only
 * an id and a time: the page can see and send these too, and can at worst make the agent wait a
 * little longer (its waits are capped) or not at all (as before this script).
 */
(() => {
  const EVENT = "heybro-request";
  let next = 0;
  /** @param {number} id @param {"start" | "end"} phase */
  const tell = (id, phase) => {
    try { document.dispatchEvent(new CustomEvent(EVENT, { detail: JSON.stringify({ id, phase, t: performance.now() }) })); } catch { /* a page without a document yet */ }
  };
  /** @returns {() => void} ends the request, once */
  const begin = () => {
    const id = ++next;
    let open = true;
    tell(id, "start");
    return () => { if (open) { open = false; tell(id, "end"); } };
  };

  const nativeFetch = window.fetch;
  if (typeof nativeFetch === "function") {
    /** @this {unknown} @param {RequestInfo | URL} input @param {RequestInit} [init] */
    window.fetch = function fetch(input, init) {
      const end = begin();
      try {
        const p = nativeFetch.apply(this, /** @type {[RequestInfo | URL, RequestInit | undefined]} */ ([input, init]));
        p.then(end, end);
        return p;
      } catch (e) { end(); throw e; }
    };
  }

  const send = XMLHttpRequest.prototype.send;
  /** @this {XMLHttpRequest} @param {Document | XMLHttpRequestBodyInit | null} [body] */
  XMLHttpRequest.prototype.send = function (body) {
    const end = begin();
    this.addEventListener("loadend", end, { once: true });
    try { return send.call(this, body); } catch (e) { end(); throw e; }
  };
})();
