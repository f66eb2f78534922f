// @ts-check
/**
 * The extension half of "checked on both sides": validates messages against the JSON Schema that
 * `python -m shared_schema.generate` writes from the host's pydantic models.
 *
 * It implements exactly the subset of JSON Schema that generator emits; a schema using any other
 * keyword is rejected when the validator is built, so model changes cannot silently go unchecked.
 */
import SCHEMA from "../../shared_schema/messages.schema.js";

/** Keywords that only annotate a schema ("reach": what an argument reaches, shared_schema/reach.py). */
const ANNOTATIONS = new Set(["title", "description", "default", "$comment", "examples", "format",
  "discriminator", "readOnly", "writeOnly", "deprecated", "reach"]);
/** Keywords this validator enforces. */
const ASSERTIONS = new Set(["type", "properties", "required", "additionalProperties", "$ref",
  "anyOf", "oneOf", "allOf", "enum", "const", "minimum", "maximum", "exclusiveMinimum",
  "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "items", "pattern",
  "propertyNames", "maxProperties"]);

/**
 * @typedef {{path: string, message: string}} SchemaIssue
 * @typedef {{[k: string]: any}} Schema
 */

/** @param {unknown} value @param {string} type */
function hasType(value, type) {
  switch (type) {
    case "null": return value === null;
    case "boolean": return typeof value === "boolean";
    case "string": return typeof value === "string";
    case "integer": return typeof value === "number" && Number.isInteger(value);
    case "number": return typeof value === "number" && Number.isFinite(value);
    case "array": return Array.isArray(value);
    case "object": return typeof value === "object" && value !== null && !Array.isArray(value);
    default: throw new Error(`schema uses unknown type ${type}`);
  }
}

/** Walks a schema once and throws on any keyword outside the supported subset. @param {any} s */
function assertSupported(s, path = "#") {
  if (typeof s === "boolean") return;
  if (typeof s !== "object" || s === null) throw new Error(`${path}: not a schema`);
  for (const [k, v] of Object.entries(s)) {
    if (ANNOTATIONS.has(k)) continue;
    if (!ASSERTIONS.has(k)) throw new Error(`${path}: unsupported JSON Schema keyword "${k}"`);
    if (k === "properties") for (const [p, sub] of Object.entries(v)) assertSupported(sub, `${path}/properties/${p}`);
    if (k === "anyOf" || k === "oneOf" || k === "allOf") v.forEach((/** @type {any} */ sub, /** @type {number} */ i) => assertSupported(sub, `${path}/${k}/${i}`));
    if (k === "items" || k === "additionalProperties" || k === "propertyNames") assertSupported(v, `${path}/${k}`);
  }
}

export class Validator {
  /** @param {Schema} root the whole generated document */
  constructor(root) {
    this.root = root;
    assertSupported(root.envelope, "#/envelope");
    for (const [name, def] of Object.entries(root.$defs || {})) assertSupported(def, `#/$defs/${name}`);
  }

  /** @param {string} ref */
  resolve(ref) {
    const m = /^#\/\$defs\/(.+)$/.exec(ref);
    if (!m || !(m[1] in this.root.$defs)) throw new Error(`unresolvable $ref ${ref}`);
    return this.root.$defs[m[1]];
  }

  /**
   * @param {any} value @param {Schema | boolean} schema @param {string} path
   * @param {SchemaIssue[]} out
   */
  check(value, schema, path, out) {
    if (schema === true) return;
    if (schema === false) { out.push({ path, message: "no value is allowed here" }); return; }
    const s = schema;
    if (s.$ref) this.check(value, this.resolve(s.$ref), path, out);
    if (s.type !== undefined) {
      const types = Array.isArray(s.type) ? s.type : [s.type];
      if (!types.some((t) => hasType(value, t))) {
        out.push({ path, message: `expected ${types.join(" or ")}, got ${describe(value)}` });
        return;
      }
    }
    if (s.const !== undefined && !sameJson(value, s.const)) out.push({ path, message: `must be ${JSON.stringify(s.const)}` });
    if (s.enum && !s.enum.some((/** @type {any} */ e) => sameJson(value, e))) out.push({ path, message: `must be one of ${s.enum.map((/** @type {any} */ e) => JSON.stringify(e)).join(", ")}` });
    if (typeof value === "number") {
      if (s.minimum !== undefined && value < s.minimum) out.push({ path, message: `must be ≥ ${s.minimum}` });
      if (s.maximum !== undefined && value > s.maximum) out.push({ path, message: `must be ≤ ${s.maximum}` });
      if (s.exclusiveMinimum !== undefined && value <= s.exclusiveMinimum) out.push({ path, message: `must be > ${s.exclusiveMinimum}` });
      if (s.exclusiveMaximum !== undefined && value >= s.exclusiveMaximum) out.push({ path, message: `must be < ${s.exclusiveMaximum}` });
    }
    if (typeof value === "string" && (s.minLength !== undefined || s.maxLength !== undefined || s.pattern)) {
      // JSON Schema counts code points, not UTF-16 units.
      const n = value.length > 200_000 ? value.length : [...value].length;
      if (s.minLength !== undefined && n < s.minLength) out.push({ path, message: `must have at least ${s.minLength} characters` });
      if (s.maxLength !== undefined && n > s.maxLength) out.push({ path, message: `must have at most ${s.maxLength} characters` });
      if (s.pattern && !new RegExp(s.pattern, "u").test(value)) out.push({ path, message: `must match ${s.pattern}` });
    }
    if (Array.isArray(value)) {
      if (s.minItems !== undefined && value.length < s.minItems) out.push({ path, message: `must have at least ${s.minItems} items` });
      if (s.maxItems !== undefined && value.length > s.maxItems) out.push({ path, message: `must have at most ${s.maxItems} items` });
      if (s.items !== undefined) value.forEach((item, i) => this.check(item, s.items, `${path}/${i}`, out));
    }
    if (hasType(value, "object")) {
      for (const req of s.required || []) if (!(req in value)) out.push({ path, message: `missing required field "${req}"` });
      const props = s.properties || {};
      if (s.maxProperties !== undefined && Object.keys(value).length > s.maxProperties) out.push({ path, message: `must have at most ${s.maxProperties} fields` });
      for (const [k, v] of Object.entries(value)) {
        if (k in props) this.check(v, props[k], `${path}/${k}`, out);
        else if (s.additionalProperties === false) out.push({ path: `${path}/${k}`, message: "unexpected field" });
        else if (typeof s.additionalProperties === "object") this.check(v, s.additionalProperties, `${path}/${k}`, out);
        if (s.propertyNames) this.check(k, s.propertyNames, `${path}/${k}`, out);
      }
    }
    if (s.allOf) for (const sub of s.allOf) this.check(value, sub, path, out);
    if (s.oneOf && s.discriminator && hasType(value, "object")) {
      // A discriminated union (an event's kind and data): only the alternative its tag names.
      const tag = s.discriminator.propertyName;
      const alt = s.oneOf.find((/** @type {any} */ a) => sameJson(a.properties?.[tag]?.const, value[tag]));
      if (alt) this.check(value, alt, path, out);
      else out.push({ path: `${path}/${tag}`, message: `unknown ${tag} ${JSON.stringify(value[tag])}` });
    } else if (s.anyOf || s.oneOf) {
      const alts = s.anyOf || s.oneOf;
      const results = alts.map((/** @type {any} */ alt) => { /** @type {SchemaIssue[]} */ const o = []; this.check(value, alt, path, o); return o; });
      const passing = results.filter((/** @type {SchemaIssue[]} */ r) => r.length === 0).length;
      if (passing === 0) {
        // Report the alternative that came closest, which is the one a person meant.
        const best = results.reduce((/** @type {SchemaIssue[]} */ a, /** @type {SchemaIssue[]} */ b) => (b.length < a.length ? b : a));
        out.push(...best);
      } else if (s.oneOf && passing > 1) out.push({ path, message: "matches more than one alternative" });
    }
  }

  /**
   * Validates a whole message: envelope, known type, direction, payload.
   * @param {any} message
   * @param {"to_host" | "to_extension"} [direction]
   * @returns {SchemaIssue[]} empty when valid
   */
  validateMessage(message, direction) {
    /** @type {SchemaIssue[]} */
    const out = [];
    this.check(message, this.root.envelope, "", out);
    if (out.length) return out;
    const spec = this.root.messages[message.type];
    // Only the handshake and errors are read in another protocol version (`any_version`).
    if (message.v !== this.root.protocol && !spec?.any_version) return [{ path: "/v", message: `protocol ${message.v} is not ${this.root.protocol}` }];
    if (!spec) return [{ path: "/type", message: `unknown message type "${message.type}"` }];
    if (direction && spec.direction !== "both" && spec.direction !== direction) {
      return [{ path: "/type", message: `"${message.type}" is not sent ${direction.replace("_", " ")}` }];
    }
    this.check(message.payload, spec.payload, "/payload", out);
    if (out.length) return out;
    // Tool calls and results are checked down to the tool's own arguments and result.
    if (message.type === "tool.call") {
      const tool = this.root.tools?.[message.payload.tool];
      if (!tool) return [{ path: "/payload/tool", message: `unknown tool "${message.payload.tool}"` }];
      this.check(message.payload.args ?? {}, tool.args, "/payload/args", out);
    }
    return out;
  }

  /**
   * Checks a tool's result against its schema (the reply does not name the tool, the caller does).
   * @param {string} tool @param {any} result @returns {SchemaIssue[]}
   */
  validateToolResult(tool, result) {
    const spec = this.root.tools?.[tool];
    if (!spec) return [{ path: "/tool", message: `unknown tool "${tool}"` }];
    /** @type {SchemaIssue[]} */
    const out = [];
    this.check(result, spec.result, "/result", out);
    return out;
  }
}

/** @param {unknown} a @param {unknown} b */
function sameJson(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

/** @param {unknown} v */
function describe(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number" && Number.isInteger(v)) return "integer";
  return typeof v;
}

export const validator = new Validator(SCHEMA);
export const PROTOCOL = SCHEMA.protocol;
/** The command that fixes each broken state of the host link (one text with the host's). @type {Record<string, string>} */
export const FIXES = SCHEMA.fixes;
/** What to say with a fix when the command alone is not enough. @type {Record<string, string>} */
export const FIX_NOTES = SCHEMA.fix_notes;
/** What a task may open and read (shared_schema/reach.py): web schemes, a blank page, and each tool's arguments that open an address or name a tab. @type {{schemes: string[], blank: string, tools: Record<string, Record<string, string>>}} */
export const REACH = SCHEMA.reach;
/** The kinds of sites heybro stays off unless the user lets it on (shared_schema/sites.py). @type {{name: string, label: string, patterns: string[]}[]} */
export const SITE_CATEGORIES = SCHEMA.site_categories;

/** Thrown when a message fails its schema; `issues` says where. */
export class SchemaError extends Error {
  /** @param {string} what @param {SchemaIssue[]} issues */
  constructor(what, issues) {
    super(`${what}: ${issues.slice(0, 3).map((i) => `${i.path || "/"} ${i.message}`).join("; ")}`);
    this.issues = issues;
  }
}

/**
 * Throws SchemaError unless the message is valid for that direction.
 * @param {any} message @param {"to_host" | "to_extension"} direction
 */
export function assertMessage(message, direction) {
  const issues = validator.validateMessage(message, direction);
  if (issues.length) throw new SchemaError(`invalid ${message?.type ?? "message"}`, issues);
  return message;
}
