// @ts-check
/**
 * Pages for the wide re-finding suite: the kinds of page where a signature has a twin in another
 * part of the page — login beside sign-up, billing beside shipping, header and footer navigation
 * with the same links, tables with per-row Edit/Delete, web components repeating the same controls
 * in open shadow roots (nested too), radio groups and switches with shared labels, icon-only
 * buttons, product grids, search results.
 *
 *   buildPage(kind, seed) → fills document.body (deterministic for a kind and seed: the suite
 *   rebuilds the page for every trial and names its target by its place in a deep walk).
 *
 * Each seed draws other words, counts, orders and markup habits (ids or not, labels wrapping or
 * `for`, icon buttons with or without a name, utility or BEM classes), so a held-out seed is a page
 * the matcher was not tuned on.
 */

export const KINDS = ["auth", "checkout", "docs", "table", "components", "settings", "products", "search"];

/** @param {number} seed */
function rng(seed) {
  let a = seed >>> 0 || 1;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** @param {number} p */ chance: (p) => next() < p,
    /** @param {number} lo @param {number} hi */ int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    /** @template T @param {T[]} xs @returns {T} */ pick: (xs) => xs[Math.floor(next() * xs.length)],
    /** @template T @param {T[]} xs @returns {T[]} */ shuffle: (xs) => {
      const out = xs.slice();
      for (let i = out.length - 1; i > 0; i--) { const j = Math.floor(next() * (i + 1)); [out[i], out[j]] = [out[j], out[i]]; }
      return out;
    },
  };
}
/** @typedef {ReturnType<typeof rng>} Rng */

const FIRST = ["Ada", "Bea", "Cyrus", "Dana", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea", "Milo", "Nia", "Omar", "Pia", "Quin", "Rosa", "Sami", "Tess", "Uma", "Vik", "Wren", "Yara", "Zed"];
const LAST = ["Abbott", "Brandt", "Castro", "Dahl", "Eze", "Fischer", "Gupta", "Holm", "Ito", "Jansen", "Kowal", "Lund", "Moreau", "Novak", "Okafor", "Park", "Quist", "Rossi", "Sato", "Tan"];
const PRODUCTS = ["Kettle", "Toaster", "Blender", "Desk lamp", "Backpack", "Headphones", "Water bottle", "Notebook", "Umbrella", "Coffee mug", "Yoga mat", "Sunglasses", "Wallet", "Scarf", "Candle", "Plant pot"];
const WORDS = ["quick", "setup", "guide", "routing", "cache", "deploy", "tokens", "limits", "errors", "billing", "themes", "plugins", "search", "events", "storage", "export"];

/** Markup habits of one page: whether authors gave ids, how they styled. */
function habits(/** @type {Rng} */ r) {
  const style = r.pick(["bem", "utility", "plain", "hashed"]);
  return {
    ids: r.chance(0.6),
    names: r.chance(0.8),
    testids: r.chance(0.3),
    wrapLabels: r.chance(0.5),
    iconNames: r.pick(["aria", "title", "none", "sr"]),
    /** @param {string} what */
    cls: (what) => style === "bem" ? `c-${what}` : style === "utility" ? `px-2 py-1 rounded ${what === "btn" ? "bg-blue-500" : "text-sm"}`
      : style === "hashed" ? `${what} css-${(what.length * 7919 + r.int(1000, 9999)).toString(36)}` : what,
  };
}
/** @typedef {ReturnType<typeof habits>} Habits */

/** @param {string} s */
const esc = (s) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
/** @param {string} s */
const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

/** A text field with its label, in the page's habit. @param {Habits} h @param {string} prefix @param {string} label @param {string} name @param {string} [type] @param {string} [ph] */
function field(h, prefix, label, name, type = "text", ph = "") {
  const id = `${prefix}-${name}`;
  const attrs = `${h.ids || !h.wrapLabels ? ` id="${id}"` : ""}${h.names ? ` name="${name}"` : ""} type="${type}"${ph ? ` placeholder="${esc(ph)}"` : ""}${h.testids ? ` data-testid="${id}"` : ""}`;
  return h.wrapLabels ? `<label class="${h.cls("field")}">${label} <input${attrs}></label>`
    : `<div class="${h.cls("field")}"><label for="${id}">${label}</label><input${attrs}></div>`;
}

/** An icon-only button, named (or not) as this page's author names icons. @param {Habits} h @param {string} icon @param {string} name @param {string} [extra] */
function iconButton(h, icon, name, extra = "") {
  const svg = `<svg width="16" height="16" viewBox="0 0 16 16" class="icon icon-${icon}"><path d="M2 2h12v12H2z"></path></svg>`;
  const named = h.iconNames === "aria" ? ` aria-label="${name}"` : h.iconNames === "title" ? ` title="${name}"` : "";
  const sr = h.iconNames === "sr" ? `<span class="sr-only" style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)">${name}</span>` : "";
  return `<button type="button" class="${h.cls("icon-btn")} btn-${icon}"${named}${extra}>${svg}${sr}</button>`;
}

/** @param {Rng} r @param {Habits} h @param {string} where */
function navLinks(r, h, where) {
  const links = ["Home", "Docs", "Blog", "Pricing", "About", "Careers", "Support"].slice(0, r.int(4, 7));
  return `<ul class="${h.cls("nav-list")}">${links.map((l) => `<li><a href="/${l === "Home" ? "" : slug(l)}" class="${h.cls(`${where}-link`)}">${l}</a></li>`).join("")}</ul>`;
}

/** @param {Rng} r @param {Habits} h @param {string} inner */
function frame(r, h, inner) {
  const header = `<header class="${h.cls("header")}"><a href="/" class="logo">Acme</a><nav${r.chance(0.5) ? ' aria-label="Main"' : ""}>${navLinks(r, h, "header")}</nav>${r.chance(0.5) ? `<input type="search" placeholder="Search" aria-label="Search site">` : ""}</header>`;
  const footer = `<footer class="${h.cls("footer")}"><nav${r.chance(0.5) ? ' aria-label="Footer"' : ""}>${navLinks(r, h, "footer")}</nav><p>© Acme</p></footer>`;
  return `${header}<main>${inner}</main>${footer}`;
}

const PAGES = {
  /** @param {Rng} r @param {Habits} h */
  auth(r, h) {
    const social = (/** @type {string} */ p) => `<div class="${h.cls("social")}">${r.shuffle(["Google", "GitHub", "Apple"]).slice(0, r.int(2, 3)).map((s) => `<button type="button" class="${h.cls("btn")}"${h.ids ? ` id="${p}-${slug(s)}"` : ""}><svg width="12" height="12"></svg> Continue with ${s}</button>`).join("")}</div>`;
    const login = `<section${h.ids ? ' id="login"' : ""} class="${h.cls("card")}"><h2>${r.pick(["Sign in", "Log in", "Welcome back"])}</h2><form action="/login"${h.ids ? ' id="login-form"' : ""}>
      ${field(h, "login", "Email", "email", "email", "you@example.com")}${field(h, "login", "Password", "password", "password")}
      <label><input type="checkbox" name="remember"> Remember me</label><button type="submit" class="${h.cls("btn")}">${r.pick(["Sign in", "Log in"])}</button>
      <a href="/forgot">Forgot password?</a></form>${social("login")}</section>`;
    const signup = `<section${h.ids ? ' id="signup"' : ""} class="${h.cls("card")}"><h2>${r.pick(["Create account", "Sign up", "New here?"])}</h2><form action="/signup"${h.ids ? ' id="signup-form"' : ""}>
      ${field(h, "signup", "Name", "name", "text", "Jane Doe")}${field(h, "signup", "Email", "email", "email", "you@example.com")}${field(h, "signup", "Password", "password", "password")}
      ${r.chance(0.6) ? field(h, "signup", "Confirm password", "password2", "password") : ""}<label><input type="checkbox" name="terms"> I agree to the terms</label>
      <button type="submit" class="${h.cls("btn")}">${r.pick(["Create account", "Sign up"])}</button></form>${r.chance(0.7) ? social("signup") : ""}</section>`;
    return frame(r, h, r.chance(0.7) ? login + signup : signup + login);
  },
  /** @param {Rng} r @param {Habits} h */
  checkout(r, h) {
    const address = (/** @type {string} */ p, /** @type {string} */ title) => `<fieldset${h.ids ? ` id="${p}"` : ""} class="${h.cls("address")}"><legend>${title}</legend>
      ${field(h, p, "Full name", "name")}${field(h, p, "Street", "street")}${field(h, p, "City", "city")}${field(h, p, "ZIP", "zip")}
      <label>Country <select${h.names ? ' name="country"' : ""}><option>United States</option><option>Canada</option><option>Germany</option></select></label></fieldset>`;
    const radios = (/** @type {string} */ name, /** @type {string} */ title, /** @type {string[]} */ opts) => `<fieldset class="${h.cls("options")}"><legend>${title}</legend>${opts.map((o) => `<label><input type="radio" name="${name}" value="${slug(o)}"> ${o}</label>`).join("")}</fieldset>`;
    const items = r.shuffle(PRODUCTS).slice(0, r.int(2, 4));
    const summary = `<aside class="${h.cls("summary")}"><h2>Order summary</h2><ul>${items.map((p) => `<li><span>${p}</span> <span>$${r.int(5, 90)}.00</span> <a href="#" class="remove">Remove</a></li>`).join("")}</ul>
      <input placeholder="Coupon code"${h.names ? ' name="coupon"' : ""}><button type="button">Apply</button></aside>`;
    const billing = address("billing", "Billing address"), shipping = address("shipping", "Shipping address");
    return frame(r, h, `<form action="/order"${h.ids ? ' id="checkout"' : ""}>${billing}<label><input type="checkbox" name="same"> Shipping same as billing</label>${shipping}
      ${radios("shipping-method", "Shipping method", r.shuffle(["Standard", "Express", "Overnight"]))}${radios("payment", "Payment", ["Card", "PayPal", "Invoice"])}
      ${r.chance(0.5) ? radios("gift", "Gift wrap", ["Yes", "No"]) : ""}<button type="submit" class="${h.cls("btn")}">Place order</button></form>${summary}`);
  },
  /** @param {Rng} r @param {Habits} h */
  docs(r, h) {
    const groups = r.shuffle(["Getting started", "Guides", "Reference", "Community"]).slice(0, r.int(2, 4));
    const side = `<aside><nav aria-label="Docs">${groups.map((g) => `<h3>${g}</h3><ul>${r.shuffle(WORDS).slice(0, r.int(3, 5)).map((w) => `<li><a href="/docs/${slug(g)}/${w}">${w[0].toUpperCase() + w.slice(1)}</a></li>`).join("")}</ul>`).join("")}</nav></aside>`;
    const topic = r.pick(WORDS);
    const article = `<article><nav aria-label="Breadcrumb"><a href="/">Home</a> / <a href="/docs">Docs</a> / <span>${topic}</span></nav><h1>${topic}</h1>
      ${[1, 2, 3].map((i) => `<h2 id="s${i}">Section ${i}</h2><p>Read about <a href="/docs/${r.pick(WORDS)}">${r.pick(WORDS)}</a> and <a href="/blog/${i}">the blog post</a> before you start.</p>`).join("")}
      <p><a href="https://git.example/edit/${topic}">Edit this page</a></p><nav class="pager"><a href="/docs/prev">Previous</a> <a href="/docs/next">Next</a></nav></article>`;
    return frame(r, h, r.chance(0.5) ? side + article : article + side);
  },
  /** @param {Rng} r @param {Habits} h */
  table(r, h) {
    const rows = r.shuffle(FIRST).slice(0, r.int(5, 10)).map((f, i) => ({ name: `${f} ${LAST[(i * 7 + f.length) % LAST.length]}`, id: 100 + r.int(1, 899) }));
    const rowKeyed = r.chance(0.5);
    const action = (/** @type {string} */ what, /** @type {{name: string, id: number}} */ u) => r.chance(0.5) || h.iconNames === "none"
      ? `<button type="button" class="${h.cls("btn")} ${what.toLowerCase()}">${what}</button>` : iconButton(h, what === "Edit" ? "pencil" : "trash", `${what} ${u.name}`);
    const body = rows.map((u) => `<tr${rowKeyed ? ` data-id="${u.id}"` : ""}><td><input type="checkbox" aria-label="Select row"></td><td>${r.chance(0.5) ? `<a href="/users/${u.id}">${u.name}</a>` : u.name}</td>
      <td>${slug(u.name)}@example.com</td><td>${r.pick(["Admin", "Editor", "Viewer"])}</td><td>${action("Edit", u)} ${action("Delete", u)}</td></tr>`).join("");
    return frame(r, h, `<h1>Users</h1><div class="toolbar"><input type="search" placeholder="Filter users"><button type="button">Invite user</button></div>
      <table class="${h.cls("table")}"><thead><tr><th><input type="checkbox" aria-label="Select all"></th><th><button type="button" class="sort">Name</button></th><th>Email</th><th><button type="button" class="sort">Role</button></th><th>Actions</th></tr></thead><tbody>${body}</tbody></table>
      <nav aria-label="Pagination"><a href="?p=1">Previous</a> <a href="?p=1">1</a> <a href="?p=2">2</a> <a href="?p=3">3</a> <a href="?p=2">Next</a></nav>`);
  },
  /** @param {Rng} r @param {Habits} h */
  components(r, h) {
    defineComponents();
    const named = r.chance(0.5) ? "named" : "bare";
    const reviews = r.shuffle(PRODUCTS).slice(0, r.int(2, 4)).map((p) => `<div class="review"><h3>${p}</h3><hb-rating mode="${named}"${r.chance(0.4) ? ` clear` : ""}></hb-rating><p>${r.pick(["Great", "Fine", "Meh"])} product.</p></div>`).join("");
    const chips = `<section><h2>Tags</h2><hb-chips items="${r.shuffle(WORDS).slice(0, r.int(3, 6)).join(",")}"></hb-chips></section><section><h2>Filters</h2><hb-chips items="${r.shuffle(WORDS).slice(0, r.int(2, 4)).join(",")}"></hb-chips></section>`;
    const cards = r.shuffle(PRODUCTS).slice(0, r.int(2, 4)).map((p) => `<hb-card title="${p}" price="${r.int(5, 99)}"${r.chance(0.5) ? ` mode="${named}"` : ""}></hb-card>`).join("");
    return frame(r, h, `<h1>Reviews</h1>${reviews}${chips}<section><h2>Picks</h2>${cards}</section>`);
  },
  /** @param {Rng} r @param {Habits} h */
  settings(r, h) {
    const channels = ["Email", "Push", "SMS"].slice(0, r.int(2, 3));
    const cats = r.shuffle(["Comments", "Mentions", "Updates", "Security", "Billing"]).slice(0, r.int(3, 5));
    const asSwitch = r.chance(0.5);
    const notif = `<section${h.ids ? ' id="notifications"' : ""}><h2>Notifications</h2>${cats.map((c) => `<fieldset><legend>${c}</legend>${channels.map((ch) => asSwitch
      ? `<label><span>${ch}</span> <button type="button" role="switch" aria-checked="${r.chance(0.5)}" class="${h.cls("switch")}"></button></label>`
      : `<label><input type="checkbox"${h.names ? ` name="${slug(c)}-${slug(ch)}"` : ""}> ${ch}</label>`).join("")}</fieldset>`).join("")}<button type="button" class="${h.cls("btn")}">Save</button></section>`;
    const radioGroup = (/** @type {string} */ title, /** @type {string[]} */ opts) => `<div role="radiogroup" aria-label="${title}"><span>${title}</span>${opts.map((o) => `<label><input type="radio" name="${slug(title)}" value="${slug(o)}"> ${o}</label>`).join("")}</div>`;
    const prefs = `<section><h2>Preferences</h2>${radioGroup("Theme", ["Light", "Dark", "System"])}${r.shuffle(["Weekly digest", "Product news", "Tips"]).map((t) => radioGroup(t, ["On", "Off"])).join("")}<button type="button" class="${h.cls("btn")}">Save</button></section>`;
    const keys = `<section><h2>API keys</h2><ul>${[1, 2, 3].slice(0, r.int(2, 3)).map((i) => `<li><code>key_${r.int(1000, 9999)}</code> ${iconButton(h, "copy", "Copy key")} ${iconButton(h, "trash", "Delete key")}</li>`).join("")}</ul><button type="button">New key</button></section>`;
    return frame(r, h, r.shuffle([notif, prefs, keys]).join(""));
  },
  /** @param {Rng} r @param {Habits} h */
  products(r, h) {
    const brands = r.shuffle(["Acme", "Globex", "Initech", "Umbrella", "Hooli"]).slice(0, r.int(3, 5));
    const filters = `<aside><h2>Filters</h2><fieldset><legend>Brand</legend>${brands.map((b) => `<label><input type="checkbox" name="brand" value="${slug(b)}"> ${b}</label>`).join("")}</fieldset>
      <label>Sort <select name="sort"><option>Relevance</option><option>Price</option></select></label></aside>`;
    const cardTag = r.pick(["article", "div", "li"]);
    const cards = r.shuffle(PRODUCTS).slice(0, r.int(4, 9)).map((p, i) => `<${cardTag} class="${h.cls("card")}"${r.chance(0.3) ? ` data-sku="${1000 + i * 13}"` : ""}><a href="/p/${slug(p)}"><img alt="${r.chance(0.6) ? p : ""}" src="/img/${slug(p)}.png" width="80" height="60"></a>
      <h3><a href="/p/${slug(p)}">${p}</a></h3><span class="price">$${r.int(5, 99)}</span>${iconButton(h, "heart", "Add to wishlist")}
      <button type="button" class="${h.cls("btn")}">Add to cart</button></${cardTag}>`).join("");
    return frame(r, h, `${filters}<section><h1>Shop</h1><${cardTag === "li" ? "ul" : "div"} class="grid">${cards}</${cardTag === "li" ? "ul" : "div"}></section>`);
  },
  /** @param {Rng} r @param {Habits} h */
  search(r, h) {
    const q = r.pick(WORDS);
    const results = Array.from({ length: r.int(5, 9) }, (_, i) => {
      const w = r.pick(WORDS), site = r.pick(["docs", "blog", "wiki", "forum"]);
      return `<div class="${h.cls("result")}"><h3><a href="https://${site}.example/${w}/${i}">${w[0].toUpperCase() + w.slice(1)} ${r.pick(["guide", "tips", "FAQ", "notes"])}</a></h3><cite>${site}.example</cite>
        <p>Everything about ${w} and ${q}.</p><a href="/cache/${i}" class="small">Cached</a> <a href="/similar/${i}" class="small">Similar</a></div>`;
    }).join("");
    const pages = Array.from({ length: r.int(4, 8) }, (_, i) => `<a href="?q=${q}&amp;p=${i + 1}">${i + 1}</a>`).join(" ");
    return frame(r, h, `<form role="search" action="/search"><input name="q" value="${q}" aria-label="Search"><button type="submit">Search</button></form>
      <div class="results">${results}</div><nav aria-label="Pagination">${pages} <a href="?p=2">Next</a></nav><section><h2>Related searches</h2>${r.shuffle(WORDS).slice(0, 4).map((w) => `<a href="?q=${w}">${q} ${w}</a>`).join(" ")}</section>`);
  },
};

/**
 * Web components with open shadow roots: a star rating (five look-alike buttons, named or bare,
 * and maybe "Clear rating"), a chip list (a "Remove" button per chip) and a product card holding
 * a rating of its own (a shadow root inside a shadow root).
 */
function defineComponents() {
  if (customElements.get("hb-rating")) return;
  customElements.define("hb-rating", class extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) return;
      const named = this.getAttribute("mode") === "named";
      const root = this.attachShadow({ mode: "open" });
      root.innerHTML = `<div class="stars">${[1, 2, 3, 4, 5].map((i) => `<button type="button" class="star"${named ? ` aria-label="${i} star${i > 1 ? "s" : ""}"` : ""}>★</button>`).join("")}</div>${this.hasAttribute("clear") ? '<button type="button" class="clear">Clear rating</button>' : ""}`;
    }
  });
  customElements.define("hb-chips", class extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) return;
      const root = this.attachShadow({ mode: "open" });
      root.innerHTML = (this.getAttribute("items") || "").split(",").map((w) => `<span class="chip"><span>${w}</span><button type="button" aria-label="Remove">×</button></span>`).join(" ");
    }
  });
  customElements.define("hb-card", class extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) return;
      const root = this.attachShadow({ mode: "open" });
      const t = this.getAttribute("title") || "";
      root.innerHTML = `<div class="card"><h3>${t}</h3><span>$${this.getAttribute("price")}</span><hb-rating mode="${this.getAttribute("mode") || "bare"}"></hb-rating><button type="button">Add to cart</button><a href="/p/${slug(t)}">Details</a></div>`;
    }
  });
}

/**
 * Fills document.body with the page of this kind and seed.
 * @param {string} kind @param {number} seed
 */
export function buildPage(kind, seed) {
  const r = rng(seed * 977 + KINDS.indexOf(kind) * 131);
  const h = habits(r);
  document.body.innerHTML = /** @type {Record<string, (r: Rng, h: Habits) => string>} */ (PAGES)[kind](r, h);
}
