// @ts-check
/** Building envelopes the same way on every page of the extension. */
import { PROTOCOL, assertMessage } from "./schema_check.js";

/** @returns {string} a short random id, unique enough to correlate replies */
export function newId() {
  const a = new Uint8Array(8);
  crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * A checked extension → host message.
 * @param {string} type @param {Record<string, any>} [payload] @param {string} [re]
 */
export function makeMessage(type, payload = {}, re) {
  /** @type {{v: number, id: string, type: string, payload: Record<string, any>, re?: string}} */
  const msg = { v: PROTOCOL, id: newId(), type, payload };
  if (re) msg.re = re;
  return assertMessage(msg, "to_host");
}
