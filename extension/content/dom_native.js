// @ts-check
/**
 * The platform's own DOM getters and methods, taken from the prototypes when the content script
 * loads: every read heybro makes of a page goes through these, so no page can change what is read.
 *
 * Why: a form's controls are properties of the form, and they win over the form's own ones
 * ([LegacyOverrideBuiltIns] on HTMLFormElement) — `<form><input name="id">` makes `form.id` that
 * input, and a control named `getAttribute`, `parentElement` or `querySelector` replaces the method
 * itself, in every script world, the content script's included. An SVG element's `className` is an
 * object, not a string. In the page's own world (where tests and benchmarks may load these modules)
 * a custom element or a page script can also redefine any property. Reading through the getter or
 * method of the prototype that defines it (`Element.prototype.getAttribute.call(el, …)`) is immune
 * to all of these; it throws only for a receiver of the wrong kind (then the caller's one element
 * is skipped, never the page).
 *
 * ParentNode members (querySelector, children …) are defined separately on Element, Document and
 * DocumentFragment: those dispatch on the node's type.
 */

/**
 * @param {object | undefined} proto undefined where there is no DOM (the service worker loads the
 *   action modules for their names only)
 * @param {string} name @returns {(this: any, ...args: any[]) => any}
 */
function own(proto, name) {
  if (!proto) return () => { throw new Error("no DOM here"); };
  const d = Object.getOwnPropertyDescriptor(proto, name);
  const f = d && (d.get || d.value);
  if (typeof f !== "function") throw new Error(`dom_native: ${name} not found`);
  return f;
}

const dom = typeof Node === "function";
const N = dom ? Node.prototype : undefined, E = dom ? Element.prototype : undefined, H = dom ? HTMLElement.prototype : undefined;
const S = dom ? SVGElement.prototype : undefined, D = dom ? Document.prototype : undefined, F = dom ? DocumentFragment.prototype : undefined;
const T = dom ? EventTarget.prototype : undefined, FORM = dom ? HTMLFormElement.prototype : undefined;

const nodeType = own(N, "nodeType");
/** @param {Node} n @returns {number} */
export const nodeTypeOf = (n) => nodeType.call(n);

/**
 * The prototype function of a ParentNode member for a node's kind.
 * @param {string} name
 */
function parentNodeMember(name) {
  const e = own(E, name), d = own(D, name), f = own(F, name);
  /** @param {Node} n */
  return (n) => { const t = nodeType.call(n); return t === 1 ? e : t === 9 ? d : f; };
}

// --- Node -----------------------------------------------------------------------------------------
const parentElement = own(N, "parentElement"), parentNode = own(N, "parentNode"), firstChild = own(N, "firstChild"),
  lastChild = own(N, "lastChild"), nextSibling = own(N, "nextSibling"), previousSibling = own(N, "previousSibling"),
  nodeValue = own(N, "nodeValue"), textContent = own(N, "textContent"), ownerDocument = own(N, "ownerDocument"),
  isConnected = own(N, "isConnected"), childNodes = own(N, "childNodes"), nodeName = own(N, "nodeName"),
  getRootNode = own(N, "getRootNode"), contains = own(N, "contains"), compareDocumentPosition = own(N, "compareDocumentPosition");

const assignedSlot = own(E, "assignedSlot");
/**
 * The node's parent as it is drawn (the composed tree): a shadow host's child drawn in a slot → that
 * slot (an icon given to a toolkit's button lies inside the button in its shadow root); a shadow
 * root → its host; else its parent.
 * @param {Node} n @returns {Node | null}
 */
export const composedParentOf = (n) => (nodeType.call(n) === 1 && assignedSlot.call(n)) || parentNode.call(n) || /** @type {ShadowRoot} */ (n).host || null;
/** @param {Node} n @returns {HTMLElement | null} */
export const parentElOf = (n) => parentElement.call(n);
/** @param {Node} n @returns {ParentNode | null} */
export const parentNodeOf = (n) => parentNode.call(n);
/** @param {Node} n @returns {ChildNode | null} */
export const firstChildOf = (n) => firstChild.call(n);
/** @param {Node} n @returns {ChildNode | null} */
export const lastChildOf = (n) => lastChild.call(n);
/** @param {Node} n @returns {ChildNode | null} */
export const nextSiblingOf = (n) => nextSibling.call(n);
/** @param {Node} n @returns {ChildNode | null} */
export const previousSiblingOf = (n) => previousSibling.call(n);
/** @param {Node} n @returns {string | null} */
export const nodeValueOf = (n) => nodeValue.call(n);
/** @param {Node} n @returns {string | null} */
export const textOf = (n) => textContent.call(n);
/** @param {Node} n @returns {Document} */
export const docOf = (n) => ownerDocument.call(n);
/** @param {Node} n @returns {boolean} */
export const isConnectedOf = (n) => isConnected.call(n);
/** @param {Node} n @returns {NodeListOf<ChildNode>} */
export const childNodesOf = (n) => childNodes.call(n);
/** @param {Node} n @returns {string} */
export const nodeNameOf = (n) => nodeName.call(n);
/** @param {Node} n @param {GetRootNodeOptions} [opts] @returns {Node} */
export const rootOf = (n, opts) => getRootNode.call(n, opts);
/** @param {Node} n @param {Node | null} other @returns {boolean} */
export const containsOf = (n, other) => contains.call(n, other);
/** @param {Node} n @param {Node} other @returns {number} */
export const comparePositionOf = (n, other) => compareDocumentPosition.call(n, other);

// --- Element --------------------------------------------------------------------------------------
const getAttribute = own(E, "getAttribute"), getAttributeNames = own(E, "getAttributeNames"), hasAttribute = own(E, "hasAttribute"), hasAttributes = own(E, "hasAttributes"),
  localName = own(E, "localName"), tagName = own(E, "tagName"), id = own(E, "id"), attributes = own(E, "attributes"),
  shadowRoot = own(E, "shadowRoot"), matches = own(E, "matches"), closest = own(E, "closest"),
  getBoundingClientRect = own(E, "getBoundingClientRect"), getClientRects = own(E, "getClientRects"),
  checkVisibility = own(E, "checkVisibility"), setAttribute = own(E, "setAttribute"), removeAttribute = own(E, "removeAttribute"),
  scrollIntoView = own(E, "scrollIntoView"), scrollTo = own(E, "scrollTo"), scrollBy = own(E, "scrollBy"), remove = own(E, "remove"),
  nextElementSibling = own(E, "nextElementSibling"), previousElementSibling = own(E, "previousElementSibling"),
  scrollHeight = own(E, "scrollHeight"), scrollWidth = own(E, "scrollWidth"), scrollTop = own(E, "scrollTop"),
  scrollLeft = own(E, "scrollLeft"), clientHeight = own(E, "clientHeight"), clientWidth = own(E, "clientWidth"),
  clientLeft = own(E, "clientLeft"), clientTop = own(E, "clientTop");
const scrollTopSet = E && Object.getOwnPropertyDescriptor(E, "scrollTop")?.set;
const scrollLeftSet = E && Object.getOwnPropertyDescriptor(E, "scrollLeft")?.set;

/** @param {Element} el @param {string} name @returns {string | null} */
export const attr = (el, name) => getAttribute.call(el, name);
/** @param {Element} el @param {string} name @returns {boolean} */
export const hasAttr = (el, name) => hasAttribute.call(el, name);
/** @param {Element} el @returns {boolean} */
export const hasAttrs = (el) => hasAttributes.call(el);
/** @param {Element} el @returns {string} */
export const tagOf = (el) => localName.call(el);
/** @param {Element} el @returns {string} */
export const tagNameOf = (el) => tagName.call(el);
/** @param {Element} el @returns {string} */
export const idOf = (el) => id.call(el);
/** The class attribute as a string (an SVG element's `className` is an object). @param {Element} el */
export const classNameOf = (el) => getAttribute.call(el, "class") || "";
/** The names of an element's attributes (no Attr objects made). @param {Element} el @returns {string[]} */
export const attrNamesOf = (el) => getAttributeNames.call(el);
/** @param {Element} el @returns {NamedNodeMap} */
export const attrsOf = (el) => attributes.call(el);
/** @param {Element} el @returns {ShadowRoot | null} */
export const shadowOf = (el) => shadowRoot.call(el);
/** @param {Element} el @param {string} sel @returns {boolean} */
export const matchesOf = (el, sel) => matches.call(el, sel);
/** @param {Element} el @param {string} sel @returns {Element | null} */
export const closestOf = (el, sel) => closest.call(el, sel);
/** @param {Element} el @returns {DOMRect} */
export const rectOf = (el) => getBoundingClientRect.call(el);
/** @param {Element} el @returns {DOMRectList} */
export const rectsOf = (el) => getClientRects.call(el);
/** @param {Element} el @param {CheckVisibilityOptions} [opts] @returns {boolean} */
export const checkVisibilityOf = (el, opts) => checkVisibility.call(el, opts);
/** @param {Element} el @param {string} name @param {string} value */
export const setAttr = (el, name, value) => setAttribute.call(el, name, value);
/** @param {Element} el @param {string} name */
export const removeAttr = (el, name) => removeAttribute.call(el, name);
/** @param {Element} el @param {boolean | ScrollIntoViewOptions} [opts] */
export const scrollIntoViewOf = (el, opts) => scrollIntoView.call(el, opts);
/** @param {Element} el @param {ScrollToOptions} opts */
export const scrollToOf = (el, opts) => scrollTo.call(el, opts);
/** @param {Element} el @param {ScrollToOptions} opts */
export const scrollByOf = (el, opts) => scrollBy.call(el, opts);
/** @param {Element} el */
export const removeOf = (el) => remove.call(el);
/** @param {Element} el @returns {Element | null} */
export const nextElOf = (el) => nextElementSibling.call(el);
/** @param {Element} el @returns {Element | null} */
export const prevElOf = (el) => previousElementSibling.call(el);
/** @param {Element} el @returns {number} */
export const scrollHeightOf = (el) => scrollHeight.call(el);
/** @param {Element} el @returns {number} */
export const scrollWidthOf = (el) => scrollWidth.call(el);
/** @param {Element} el @returns {number} */
export const scrollTopOf = (el) => scrollTop.call(el);
/** @param {Element} el @returns {number} */
export const scrollLeftOf = (el) => scrollLeft.call(el);
/** @param {Element} el @param {number} v */
export const setScrollTop = (el, v) => scrollTopSet?.call(el, v);
/** @param {Element} el @param {number} v */
export const setScrollLeft = (el, v) => scrollLeftSet?.call(el, v);
/** @param {Element} el @returns {number} */
export const clientHeightOf = (el) => clientHeight.call(el);
/** @param {Element} el @returns {number} */
export const clientWidthOf = (el) => clientWidth.call(el);
/** @param {Element} el @returns {number} */
export const clientLeftOf = (el) => clientLeft.call(el);
/** @param {Element} el @returns {number} */
export const clientTopOf = (el) => clientTop.call(el);

// --- ParentNode (Element, Document, DocumentFragment) ---------------------------------------------
const qsFor = parentNodeMember("querySelector"), qsaFor = parentNodeMember("querySelectorAll"),
  childrenFor = parentNodeMember("children"), countFor = parentNodeMember("childElementCount"),
  firstElFor = parentNodeMember("firstElementChild"), lastElFor = parentNodeMember("lastElementChild"),
  appendFor = parentNodeMember("append");
const byTagE = own(E, "getElementsByTagName"), byTagD = own(D, "getElementsByTagName");
const elementsFromPoint = own(D, "elementsFromPoint");
/** Every element at a point of a document's viewport, topmost first (a page's `<img name=…>` cannot shadow it). @param {Document} doc @param {number} x @param {number} y @returns {Element[]} */
export const elementsAtOf = (doc, x, y) => elementsFromPoint.call(doc, x, y);

/** @param {Node} root @param {string} sel @returns {Element | null} */
export const qs = (root, sel) => qsFor(root).call(root, sel);
/** @param {Node} root @param {string} sel @returns {NodeListOf<Element>} */
export const qsa = (root, sel) => qsaFor(root).call(root, sel);
/** @param {Node} n @returns {HTMLCollection} */
export const childrenOf = (n) => childrenFor(n).call(n);
/** @param {Node} n @returns {number} */
export const childCountOf = (n) => countFor(n).call(n);
/** @param {Node} n @returns {Element | null} */
export const firstElOf = (n) => firstElFor(n).call(n);
/** @param {Node} n @returns {Element | null} */
export const lastElOf = (n) => lastElFor(n).call(n);
/** @param {Node} n @param {...(Node | string)} kids */
export const appendTo = (n, ...kids) => appendFor(n).call(n, ...kids);
/** @param {Node} n @param {string} tag @returns {HTMLCollectionOf<Element>} */
export const byTagOf = (n, tag) => (nodeType.call(n) === 9 ? byTagD : byTagE).call(n, tag);

// --- HTML and SVG elements ------------------------------------------------------------------------
const innerText = own(H, "innerText"), focusH = own(H, "focus"), focusS = own(S, "focus"), tabIndexH = own(H, "tabIndex"),
  tabIndexS = own(S, "tabIndex"), styleH = own(H, "style"), styleS = own(S, "style"), showPopover = own(H, "showPopover"),
  hidePopover = own(H, "hidePopover"), dispatchEvent = own(T, "dispatchEvent"), addEventListener = own(T, "addEventListener");
const requestSubmit = own(FORM, "requestSubmit"), formElements = own(FORM, "elements");
const offsetParent = own(H, "offsetParent");
/** The nearest positioned element around an HTML element (null for one fixed, or not rendered). @param {Element} el @returns {Element | null} */
export const offsetParentOf = (el) => isHtml(el) ? offsetParent.call(el) : null;

// An element's kind by its namespace, not `instanceof`: an element of a same-origin frame belongs to
// the frame's realm, whose HTMLElement is another object.
const namespaceURI = own(E, "namespaceURI");
const HTML_NS = "http://www.w3.org/1999/xhtml", SVG_NS = "http://www.w3.org/2000/svg";
/** @param {Element} el */
export const isHtml = (el) => namespaceURI.call(el) === HTML_NS;
/** @param {Element} el */
export const isSvg = (el) => namespaceURI.call(el) === SVG_NS;

/** The words an element shows (innerText); an element that is not HTML has its text. @param {Element} el @returns {string} */
export const innerTextOf = (el) => isHtml(el) ? innerText.call(el) : (textContent.call(el) || "");
/** Whether the element is of a kind that has focus() (HTML and SVG; not MathML). @param {Element} el */
export const canFocus = (el) => isHtml(el) || isSvg(el);
/** @param {Element} el @param {FocusOptions} [opts] */
export const focusOf = (el, opts) => (isSvg(el) ? focusS : focusH).call(el, opts);
/** @param {Element} el @returns {number} */
export const tabIndexOf = (el) => isHtml(el) ? tabIndexH.call(el) : isSvg(el) ? tabIndexS.call(el) : -1;
/** @param {Element} el @returns {CSSStyleDeclaration} */
export const styleOf = (el) => (isSvg(el) ? styleS : styleH).call(el);
/** @param {Element} el */
export const showPopoverOf = (el) => showPopover.call(el);
/** @param {Element} el */
export const hidePopoverOf = (el) => hidePopover.call(el);
/** @param {EventTarget} t @param {Event} ev @returns {boolean} */
export const dispatchOf = (t, ev) => dispatchEvent.call(t, ev);
/**
 * A listener on a window (or any target): a window's named properties (an element with
 * id="addEventListener") come before EventTarget's own methods on it, in every script world.
 * @param {EventTarget} t @param {string} type @param {(e: Event) => void} fn @param {AddEventListenerOptions} [opts]
 */
export const listenOf = (t, type, fn, opts) => addEventListener.call(t, type, fn, opts);
/** @param {HTMLFormElement} form @param {HTMLElement | null} [submitter] */
export const requestSubmitOf = (form, submitter) => requestSubmit.call(form, submitter);
/** @param {HTMLFormElement} form @returns {HTMLFormControlsCollection} */
export const formElementsOf = (form) => formElements.call(form);

// What a form submits and where, through the prototypes' own getters: a control named `action`,
// `method` or `form` replaces the form's property of that name for anyone reading it plainly.
const formAction = own(FORM, "action"), formMethod = own(FORM, "method");
const A = dom ? HTMLAnchorElement.prototype : undefined, AREA = dom ? HTMLAreaElement.prototype : undefined;
const hrefA = own(A, "href"), hrefArea = own(AREA, "href");
/** @type {Record<string, (this: any) => any>} */
const ownerForm = dom ? Object.fromEntries([["button", HTMLButtonElement], ["input", HTMLInputElement], ["select", HTMLSelectElement],
  ["textarea", HTMLTextAreaElement], ["fieldset", HTMLFieldSetElement], ["output", HTMLOutputElement], ["object", HTMLObjectElement]]
  .map(([tag, C]) => [tag, own(/** @type {any} */ (C).prototype, "form")])) : {};
const submitterAction = dom ? { button: own(HTMLButtonElement.prototype, "formAction"), input: own(HTMLInputElement.prototype, "formAction") } : {};
const submitterMethod = dom ? { button: own(HTMLButtonElement.prototype, "formMethod"), input: own(HTMLInputElement.prototype, "formMethod") } : {};
/** The form a control belongs to (its `form` attribute or its place), or null. @param {Element} el @returns {HTMLFormElement | null} */
export const formOwnerOf = (el) => { const f = isHtml(el) ? ownerForm[tagOf(el)] : undefined; return f ? f.call(el) : null; };
/** Where a form is sent (absolute), by a submitter's own `formaction` when it has one. @param {HTMLFormElement} form @param {Element | null} [submitter] @returns {string} */
export const formActionOf = (form, submitter) => {
  const t = submitter && isHtml(submitter) ? tagOf(submitter) : "";
  if (submitter && (t === "button" || t === "input") && hasAttribute.call(submitter, "formaction")) return /** @type {any} */ (submitterAction)[t].call(submitter);
  return formAction.call(form);
};
/** "get", "post" or "dialog", by a submitter's own `formmethod` when it has one. @param {HTMLFormElement} form @param {Element | null} [submitter] @returns {string} */
export const formMethodOf = (form, submitter) => {
  const t = submitter && isHtml(submitter) ? tagOf(submitter) : "";
  if (submitter && (t === "button" || t === "input") && hasAttribute.call(submitter, "formmethod")) return /** @type {any} */ (submitterMethod)[t].call(submitter);
  return formMethod.call(form);
};
/** A link's target, absolute ("" for none). @param {Element} el @returns {string} */
export const linkTargetOf = (el) => (!isHtml(el) ? "" : tagOf(el) === "a" ? hrefA.call(el) : tagOf(el) === "area" ? hrefArea.call(el) : "");
