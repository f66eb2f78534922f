// @ts-check
/**
 * Fields whose value is a secret: a password, a passphrase, a PIN or a one-time code. Their value
 * never leaves the page — not in the page map, a signature, an extraction, an error or a check: a
 * map says only whether one is filled. Known by what the page says of the field, not by how it is
 * drawn: its type, its `autocomplete`, its name or id, or its label — so a password the page shows
 * as text (a "show password" toggle, a generated password) is one too.
 */
import { attr, idOf, tagOf } from "./dom_native.js";

/** What a filled secret field shows: that it holds something, never what or how long. */
export const SECRET_SHOWN = "••••••••";

const SECRET_AUTOCOMPLETE = /\b(current-password|new-password|one-time-code)\b/i;
/** Words of a name or id that mean a secret (`pass1`, `user_pass`, `newPassword`, `pin_code`). */
const SECRET_WORDS = new Set(["password", "passwd", "passphrase", "passcode", "pass", "pwd", "pw", "pin", "otp", "secret"]);
const SECRET_LABEL = /\b(password|passphrase|passcode|PIN|one-time code|security code)\b/i;
/** Inputs whose value could be typed secret text (not a checkbox, a date or a file). */
const TEXT_TYPES = new Set(["", "text", "password", "search", "tel", "number", "email"]);

/** The words of a name or id: split at non-letters and at lower-to-upper case steps. @param {string} s */
function wordsOfName(s) {
  return s.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z]+/).filter(Boolean);
}

/**
 * Whether the element is a field holding a secret.
 * @param {Element} el @param {() => string} [label] the field's label (asked only when nothing else settles it)
 */
export function isSecretField(el, label) {
  if (tagOf(el) !== "input") return false;
  const type = (attr(el, "type") || "").toLowerCase();
  if (type === "password") return true;
  if (!TEXT_TYPES.has(type)) return false;
  if (SECRET_AUTOCOMPLETE.test(attr(el, "autocomplete") || "")) return true;
  for (const s of [attr(el, "name") || "", idOf(el) || ""]) if (wordsOfName(s).some((w) => SECRET_WORDS.has(w))) return true;
  return !!label && SECRET_LABEL.test(label());
}
