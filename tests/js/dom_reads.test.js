// Every read the content script makes of a page goes through dom_native.js: a property or method a
// page can shadow (a form's field named "id", "getAttribute", "parentElement" …) is never read off
// an element directly. Checked on the types, as tsc sees them: a read on anything that may be a
// form (Element, HTMLElement, Node …) fails this test and names the accessor to use.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

// The properties and methods with an accessor in dom_native.js (the name to use instead).
const USE = {
  parentElement: "parentElOf", parentNode: "parentNodeOf", firstChild: "firstChildOf", lastChild: "lastChildOf",
  nextSibling: "nextSiblingOf", previousSibling: "previousSiblingOf", nodeType: "nodeTypeOf", nodeValue: "nodeValueOf",
  textContent: "textOf", ownerDocument: "docOf", isConnected: "isConnectedOf", childNodes: "childNodesOf",
  nodeName: "nodeNameOf", localName: "tagOf", tagName: "tagNameOf", id: "idOf", className: "classNameOf",
  attributes: "attrsOf", shadowRoot: "shadowOf", nextElementSibling: "nextElOf", previousElementSibling: "prevElOf",
  scrollHeight: "scrollHeightOf", scrollWidth: "scrollWidthOf", scrollTop: "scrollTopOf", scrollLeft: "scrollLeftOf",
  clientHeight: "clientHeightOf", clientWidth: "clientWidthOf", clientLeft: "clientLeftOf", clientTop: "clientTopOf",
  children: "childrenOf", childElementCount: "childCountOf", firstElementChild: "firstElOf", lastElementChild: "lastElOf",
  innerText: "innerTextOf", tabIndex: "tabIndexOf", style: "styleOf", elements: "formElementsOf",
  getRootNode: "rootOf", contains: "containsOf", compareDocumentPosition: "comparePositionOf", getAttribute: "attr",
  hasAttribute: "hasAttr", hasAttributes: "hasAttrs", matches: "matchesOf", closest: "closestOf",
  getBoundingClientRect: "rectOf", getClientRects: "rectsOf", checkVisibility: "checkVisibilityOf", setAttribute: "setAttr",
  removeAttribute: "removeAttr", scrollIntoView: "scrollIntoViewOf", scrollTo: "scrollToOf", scrollBy: "scrollByOf",
  remove: "removeOf", querySelector: "qs", querySelectorAll: "qsa", append: "appendTo", getElementsByTagName: "byTagOf",
  focus: "focusOf", showPopover: "showPopoverOf", hidePopover: "hidePopoverOf", dispatchEvent: "dispatchOf",
  requestSubmit: "requestSubmitOf",
};
// Receivers that may be a form (or anything): a specific element type (HTMLInputElement …) cannot.
const MAY_BE_A_FORM = /^(Element|HTMLElement|Node|ParentNode|ChildNode|HTMLFormElement|SVGElement|EventTarget|Element & .*)$/;

/** The modules the content script is made of, as the generator lists them. */
function contentModules() {
  const classic = readFileSync(path.join(ROOT, "extension/content/agent.classic.js"), "utf8");
  return [...classic.matchAll(/^\/\/ ---- (\S+)$/gm)].map((m) => path.join(ROOT, m[1]));
}

test("the content script reads the page only through the platform's own getters", () => {
  const ts = require(path.join(ROOT, "node_modules/typescript"));
  const config = ts.readConfigFile(path.join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const files = contentModules().filter((f) => !f.endsWith("dom_native.js"));
  assert.ok(files.length > 20, "the generator's module list was read");
  const program = ts.createProgram(files, parsed.options);
  const checker = program.getTypeChecker();
  const found = [];
  for (const file of files) {
    const sf = program.getSourceFile(file);
    const visit = (n) => {
      if (ts.isPropertyAccessExpression(n) && Object.hasOwn(USE, n.name.text)) {
        const t = checker.getTypeAtLocation(n.expression);
        const kinds = (t.isUnion() ? t.types : [t]).map((x) => checker.typeToString(x));
        const write = ts.isBinaryExpression(n.parent) && n.parent.left === n && n.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
        if (!write && kinds.some((k) => MAY_BE_A_FORM.test(k))) {
          const { line } = sf.getLineAndCharacterOfPosition(n.getStart());
          found.push(`${path.relative(ROOT, file)}:${line + 1}: .${n.name.text} on ${kinds.join(" | ")} — use ${USE[n.name.text]}()`);
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  assert.deepEqual(found, []);
});
