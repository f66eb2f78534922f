// @ts-check
/**
 * Tables as a person reads them: a data table's cell is read with its column's header ("price
 * 8.50", not a bare "8.50" that could as well be a stock), and a field in a form laid out as a table
 * is named by its row and column ("price Value") when nothing else names it.
 *
 * A data table is an HTML table with a header row (its `thead`, or a first row of `th` cells) or
 * an ARIA grid/table with column headers; a table without headers is a layout table and is read as
 * before. Column positions count `colspan` (HTML) or `aria-colindex` (ARIA grids); `rowspan` is not
 * followed (a cell under a spanning one reads the header of its own position in its row).
 */
import { norm } from "./norm.js";
import { attr, checkVisibilityOf, childCountOf, closestOf, firstElOf, hasAttrs, innerTextOf, nextElOf, parentElOf, prevElOf, qs, qsa, tagOf, textOf } from "./dom_native.js";

const ROWS = "tr, [role=row]";
const CELL_ROLES = "[role=gridcell], [role=cell], [role=columnheader], [role=rowheader]";
const CONTROLS = "a[href], button, input, select, textarea, [role=button], [role=link], [role=checkbox], [contenteditable=true]";
/** A header name is a few words: the rest of a long header is its help text. */
const HEAD_MAX = 40;

/** @typedef {{cell: Element, col: number}} Cell */

const ARIA_TABLES = "[role=grid], [role=table], [role=treegrid]";

/**
 * The table or grid a row belongs to. A grid may draw its header row in an HTML table stripped of
 * its table meaning (`<table role="none">`, its row an ARIA row: a data frame's header): that row
 * is the grid's.
 * @param {Element} row
 */
export function tableOf(row) {
  if (tagOf(row) !== "tr") return closestOf(row, ARIA_TABLES);
  const t = closestOf(row, "table");
  if (t && attr(row, "role") === "row" && /^(none|presentation)$/.test((attr(t, "role") || "").trim())) {
    const grid = closestOf(t, ARIA_TABLES);
    if (grid) return grid;
  }
  return t;
}

/** Whether an element is a row of a table or grid. @param {Element} el */
function isRow(el) {
  return tagOf(el) === "tr" || attr(el, "role") === "row";
}

/**
 * A header cell's words (its label when it shows only an icon), cut to a few words. A header that
 * holds a form field a person sees names no column (a "Select all" checkbox heads the row
 * checkboxes: their own names say what each selects); a sort link's or sort button's words do, and
 * so do a header's words beside a field the grid keeps hidden there (a selection box not drawn).
 * A header led by its one sort link or button is named by that link's words alone.
 * @param {Element} h
 */
function headText(h) {
  // (Most headers are words alone: their text is what is drawn, without asking the layout.)
  const bare = childCountOf(h) === 0;
  if (!bare && Array.from(qsa(h, "input, select, textarea")).some((f) => checkVisibilityOf(f))) return "";
  const all = norm(bare ? textOf(h) : innerTextOf(h));
  // A header led by its one sort link or button is named by its words: those after it (a count of
  // the rows) are not the column's.
  const sort = bare ? [] : Array.from(qsa(h, "a[href], button, [role=button]"));
  const by = sort.length === 1 ? norm(innerTextOf(sort[0])) : "";
  // A button after the header's words that shows only a sign (a column menu's ⋮) is not its name.
  const menu = sort.length === 1 && by && !/[\p{L}\p{N}]/u.test(by) && all.endsWith(by) ? norm(all.slice(0, -by.length)) : "";
  const t = (by && all.startsWith(by) ? by : menu || all) || norm(attr(h, "aria-label")) || norm(attr(h, "title"));
  return t.length > HEAD_MAX ? t.slice(0, HEAD_MAX).replace(/\s+\S*$/, "") : t;
}

/** An HTML row's cells with their column positions (colspan counted). @param {Element} row @returns {Cell[]} */
function htmlCells(row) {
  const out = [];
  let col = 0;
  for (let c = firstElOf(row); c; c = nextElOf(c)) {
    const t = tagOf(c);
    if (t !== "td" && t !== "th") continue;
    out.push({ cell: c, col });
    col += hasAttrs(c) ? Math.max(1, Number(attr(c, "colspan")) || 1) : 1;
  }
  return out;
}

/**
 * An HTML table's body rows in order (its own `tr` children and its bodies' — not its head's or
 * foot's, nor a nested table's), read from the children: cheaper than a `:scope >` query.
 * @param {Element} table a table, or one of its row groups
 */
function bodyRows(table) {
  /** @type {Element[]} */ const rows = [];
  for (let c = firstElOf(table); c; c = nextElOf(c)) {
    const t = tagOf(c);
    if (t === "tr") rows.push(c);
    else if (t === "tbody") for (let r = firstElOf(c); r; r = nextElOf(r)) if (tagOf(r) === "tr") rows.push(r);
  }
  return rows;
}

/** The first of a table's child elements with this tag. @param {Element} table @param {string} tag */
function part(table, tag) {
  for (let c = firstElOf(table); c; c = nextElOf(c)) if (tagOf(c) === tag) return c;
  return null;
}

/**
 * An ARIA row's cells (its nearest cell descendants: not a header's words in a columnheader of their
 * own inside it), placed by aria-colindex where given, else after the cell before.
 * @param {Element} row @returns {Cell[]}
 */
function ariaCells(row) {
  const near = CELL_ROLES + ", " + ROWS;
  const cells = Array.from(qsa(row, CELL_ROLES)).filter((c) => closestOf(/** @type {Element} */ (parentElOf(c) || c), near) === row);
  let next = 0;
  return cells.map((cell) => {
    const ix = Number(attr(cell, "aria-colindex"));
    const col = ix > 0 ? ix - 1 : next;
    next = col + Math.max(1, Number(attr(cell, "aria-colspan")) || 1);
    return { cell, col };
  });
}

/**
 * What was read of tables in one pass over the page (a scan, its rendering and the signatures,
 * which ask a row's cells and a table's headers once per control in them): kept until the next
 * scan, and never past the task that read them — the page may change after.
 * @type {{cells: WeakMap<Element, Cell[]>, heads: Map<Element, any>, parts: Map<Element, Map<string, Element[]>>} | null}
 */
let pass = null;

/** Starts a pass over the page: what was read before it is not trusted. */
export function newTablesPass() { pass = null; }

/** The current pass's memo (a new one outside a pass). */
function passMemo() {
  if (!pass) {
    const memo = pass = { cells: new WeakMap(), heads: new Map(), parts: new Map() };
    queueMicrotask(() => { if (pass === memo) pass = null; });
  }
  return pass;
}

/** A row's cells with their column positions. @param {Element} row @returns {Cell[]} */
export function rowCells(row) {
  const memo = passMemo().cells;
  let cells = memo.get(row);
  if (!cells) { cells = tagOf(row) === "tr" ? htmlCells(row) : ariaCells(row); memo.set(row, cells); }
  return cells;
}

/**
 * The parts a grid draws one row in (a grid library's pinned columns and the rest: rows of the same
 * aria-rowindex in one grid), in document order: [row] for a row drawn whole.
 * @param {Element} row @param {Element} table
 */
export function rowParts(row, table) {
  const ix = tagOf(row) === "tr" ? null : attr(row, "aria-rowindex");
  if (!ix) return [row];
  const memo = passMemo().parts;
  let byIx = memo.get(table);
  if (!byIx) {
    byIx = new Map();
    for (const r of Array.from(qsa(table, "[role=row][aria-rowindex]"))) {
      if (tableOf(r) !== table) continue;
      const k = /** @type {string} */ (attr(r, "aria-rowindex"));
      const g = byIx.get(k);
      if (g) g.push(r); else byIx.set(k, [r]);
    }
    memo.set(table, byIx);
  }
  const parts = byIx.get(ix);
  return parts && parts.length > 1 && parts.includes(row) ? parts : [row];
}

/** A row's cells across the parts it is drawn in (those drawn at all), by column. @param {Element[]} parts @returns {Cell[]} */
export function partsCells(parts) {
  return parts.length === 1 ? rowCells(parts[0]) : parts.filter((p) => checkVisibilityOf(p)).flatMap(rowCells).sort((a, b) => a.col - b.col);
}

/** What this pass knows of tables' headers (columnHeads' memo), shared by the scan and the names it guesses. */
export function passHeads() { return passMemo().heads; }

/** The column headers of a table, as columnHeads reads them, kept for this pass. @param {Element} table */
export function headsOf(table) { return columnHeads(table, passMemo().heads); }

/**
 * The row that heads an HTML table's columns: of its header's rows (its `thead`, or its first rows
 * of header cells), the last that names two columns or more — a caption spanning the table above
 * them ("History") names none.
 * @param {Element} table
 */
function headerRow(table) {
  const head = part(table, "thead");
  let rows = head ? bodyRows(head) : [];
  if (!rows.length) {
    for (const r of bodyRows(table)) {
      if (!headerCells(rowCells(r)) && !isSpanningHead(r)) break;
      rows.push(r);
    }
  }
  rows = rows.filter((r) => rowCells(r).length >= 2);
  return rows.length ? rows[rows.length - 1] : null;
}

/** A row of one header cell spanning the table (a caption). @param {Element} row */
function isSpanningHead(row) {
  const cells = rowCells(row);
  return cells.length === 1 && tagOf(cells[0].cell) === "th";
}

/**
 * The column headers of a data table or grid (by column position, "" where a column has none), or
 * null for a table without headers (layout). Kept per table for a scan.
 * @param {Element} table @param {Map<Element, {row: Element | null, heads: string[] | null}>} memo
 */
export function columnHeads(table, memo) {
  let known = memo.get(table);
  if (!known) {
    /** @type {Element | null} */ let row = null;
    /** @type {Cell[]} */ let cells = [];
    if (tagOf(table) === "table") {
      row = headerRow(table);
      if (row) cells = rowCells(row);
    } else {
      // Rows of headers, lowest aria-rowindex first: a group's header ("Delivery" over two columns)
      // is overridden by the columns' own below it. (A grid may draw them in parts: see rowParts.)
      const rows = [];
      for (const h of Array.from(qsa(table, "[role=columnheader]"))) {
        const r = closestOf(h, ROWS);
        if (r && tableOf(r) === table && !rows.includes(r)) rows.push(r);
      }
      rows.sort((a, b) => (Number(attr(a, "aria-rowindex")) || 0) - (Number(attr(b, "aria-rowindex")) || 0));
      row = rows.length ? rows[rows.length - 1] : null;
      cells = rows.flatMap((r) => rowCells(r).filter(({ cell }) => attr(cell, "role") === "columnheader"));
    }
    /** @type {string[]} */ const heads = [];
    for (const { cell, col } of cells) {
      const html = tagOf(cell) === "th" || tagOf(cell) === "td";
      const span = Math.max(1, Number(attr(cell, html ? "colspan" : "aria-colspan")) || 1);
      const t = headText(cell);
      // (An empty header leaves the name a row above gave its column.)
      for (let k = 0; k < span; k++) if (t || heads[col + k] === undefined) heads[col + k] = t;
    }
    const named = heads.filter(Boolean).length;
    // A header the page keeps hidden (another layout's, a screen reader's) names no column a person sees.
    const shown = !row || checkVisibilityOf(row);
    known = { row, heads: named >= 2 && shown ? Array.from(heads, (h) => h || "") : null };
    memo.set(table, known);
  }
  return known.heads;
}

/**
 * Whether a table without headers is a list of records all the same (three rows or more of the same
 * cells, each of two or more: a mailbox's messages) rather than a page laid out in a table: each
 * row is then read across, as one line.
 * @param {Element} table @param {Map<Element, any>} memo
 */
export function rowsAlike(table, memo) {
  columnHeads(table, memo); // (kept in the same memo: known first)
  const key = memo.get(table);
  if (key && "alike" in key) return key.alike;
  const rows = tagOf(table) === "table" ? bodyRows(table) : [];
  const sizes = rows.slice(0, 20).map((r) => rowCells(r).length);
  const alike = sizes.length >= 3 && sizes[0] >= 2 && sizes.every((n) => n === sizes[0]) && !qs(table, "table");
  memo.set(table, { ...key, alike });
  return alike;
}

/**
 * Whether a row of a table without headers is a row of a form laid out as a table: label cells
 * beside the fields they label (`Priority | [select] | Status | [select]`), read across as one line
 * as a person reads it. A page laid out in a table (a cell holding a table, or long text) is not.
 * @param {Element} row
 */
export function isFormRow(row) {
  if (tagOf(row) !== "tr") return false;
  const cells = rowCells(row);
  if (cells.length < 2 || cells.length > 8) return false;
  let label = false, field = false;
  for (const { cell } of cells) {
    if (qs(cell, "table")) return false;
    if (qs(cell, "input:not([type=hidden]), select, textarea")) field = true;
    else {
      const t = norm(textOf(cell));
      if (t.length > HEAD_MAX * 2) return false;
      if (t) label = true;
    }
  }
  return label && field;
}

/**
 * Whether a row is a line across the whole table (one cell spanning its columns: a group's heading
 * "critical", a foot line "1..20 out of 20"), not a row of values under the headers.
 * @param {Element} row @param {Cell[]} [cells] the row's cells, when the caller has them
 */
export function isSpanningRow(row, cells = rowCells(row)) {
  return cells.length === 1 && (Number(attr(cells[0].cell, "colspan")) || 1) > 1;
}

/**
 * Whether the row heads the table's columns: the one they are read from, or another of header
 * cells only (the same headers repeated in the table's foot).
 * @param {Element} row @param {Element} table @param {Map<Element, {row: Element | null, heads: string[] | null}>} memo
 * @param {Cell[]} [cells] the row's cells, when the caller has them
 */
export function isHeaderRow(row, table, memo, cells = rowCells(row)) {
  columnHeads(table, memo);
  if (memo.get(table)?.row === row) return true;
  return headerCells(cells);
}

/**
 * Whether a row's cells are headers: one plain cell may sit among them holding a "select all" box;
 * label cells beside the fields they label (a form laid out as a table) are no row of headers.
 * @param {Cell[]} cells
 */
function headerCells(cells) {
  const head = (/** @type {Element} */ c) => tagOf(c) === "th" || attr(c, "role") === "columnheader";
  // (Tags first: a row of data cells answers without a query.)
  if (cells.length < 2 || !cells.some(({ cell }) => head(cell))) return false;
  const plain = cells.filter(({ cell }) => !head(cell));
  return plain.length === 0 || (plain.length === 1 && !!qs(plain[0].cell, "input[type=checkbox]"));
}

/**
 * What a row is called by a person: its row header, else its first short cell of words that holds
 * no control (or only the link its words are, see nameLink) (`Red Mug` in `1 | Red Mug | 8.50 | [Edit]` is the name; a bare number is an id, kept
 * only when nothing else names the row).
 * @param {Element} row @param {Element} [except] a cell not to take (the one being named)
 */
export function rowLabel(row, except) {
  const cells = rowCells(row);
  const head = cells.find(({ cell }) => cell !== except && (attr(cell, "scope") === "row" || attr(cell, "role") === "rowheader"));
  if (head) return headText(head.cell);
  let number = "";
  for (const { cell, col } of cells) {
    if (cell === except || (qs(cell, CONTROLS) && !nameLink(row, cell, col))) continue;
    const t = norm(innerTextOf(cell)).replace(/[:*]\s*$/, "");
    if (!t || t.length > HEAD_MAX) continue;
    if (/^[\d\s.,#-]+$/.test(t)) { number = number || t; continue; }
    return t;
  }
  return number;
}

/**
 * Whether a cell is a single link that names its row (a run's name, linking to the run): all its
 * words are the link's, and the rows beside it read otherwise there — an "Edit" in every row names
 * none of them.
 * @param {Element} row @param {Element} cell @param {number} col
 */
function nameLink(row, cell, col) {
  const ctl = qsa(cell, CONTROLS);
  if (ctl.length !== 1 || tagOf(ctl[0]) !== "a") return false;
  const t = norm(innerTextOf(cell));
  if (!t || norm(innerTextOf(ctl[0])) !== t) return false;
  for (const other of [prevElOf(row), nextElOf(row)]) {
    const same = other && isRow(other) ? rowCells(other).find((c) => c.col === col) : null;
    if (same && norm(innerTextOf(same.cell)) === t) return false;
  }
  return true;
}

/**
 * A name for a field with none, from the table it is laid out in: its row's label, and its
 * column's header when the table has headers ("price Value"); "" outside a table.
 * @param {Element} el
 */
export function cellName(el) {
  const cell = closestOf(el, "td, th, [role=gridcell], [role=cell]");
  const row = cell && closestOf(cell, ROWS);
  const table = row && tableOf(row);
  if (!cell || !row || !table) return "";
  const label = rowLabel(row, cell);
  const heads = headsOf(table);
  const at = rowCells(row).find((c) => c.cell === cell);
  const head = heads && at ? heads[at.col] || "" : "";
  return norm(`${label} ${head !== label ? head : ""}`);
}
