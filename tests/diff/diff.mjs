// diff.mjs: the differential oracle.  Random schemas and instances (made
// from scratch, aimed at the schema, and mutated into near misses) are
// judged by the validator (tests/diff/judge, linked with libgpt.a) and by
// @hyperjump/json-schema; any disagreement that is not a documented
// deviation fails the run with a shrunk reproducer.
//
//   node diff.mjs --judge=PATH --modules=DIR [--seconds=N] [--seed=N]
//                 [--batch=K] [--dialects=a,b] [--verbose]
//
// --modules is the node_modules directory npm installed the pinned
// library into (the build tree).  SEED and BATCH may come from the
// environment too.  Batch k of seed s is always the same pairs, so a
// failure is replayed with the seed and the batch it prints.
//
// Exactness.  The library reads numbers as doubles (multipleOf even with
// a tolerance of 1.2e-7), so the keywords that look at a number's value
// or compare values (type, enum, const, uniqueItems, minimum, maximum,
// exclusiveMinimum, exclusiveMaximum, multipleOf) are decided here
// instead, by decimal arithmetic on BigInt over the texts as written:
// the library still walks the schema (applicators, $ref, properties,
// strings, patterns) and calls our keyword handlers where it would call
// its own.  Patterns stay the library's: JS RegExp with the u flag, the
// ECMA-262 reference.
//
// Dialects are a parameter: DIALECTS lists each one's $schema URI, the
// library's entry point and the keywords the generator may use.  A
// dialect runs only when the validator compiles {"$schema": URI}; the
// others are skipped and say so.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { randomInt } from "node:crypto";

// ---- options ------------------------------------------------------------

const opt = { seconds: 60, verbose: false, batch: 0, dialects: null };
for (const a of process.argv.slice(2)) {
	const m = /^--([a-z]+)(?:=(.*))?$/.exec(a);
	if (m === null)
		usage(`unknown argument ${a}`);
	const [, k, v] = m;
	if (k === "judge" || k === "modules")
		opt[k] = v;
	else if (k === "seconds" || k === "seed" || k === "batch")
		opt[k] = Number(v);
	else if (k === "dialects")
		opt.dialects = v.split(",");
	else if (k === "verbose")
		opt.verbose = true;
	else if (k === "library")	// the library's own doubles: a self-check
		opt.library = true;
	else
		usage(`unknown option --${k}`);
}
if (process.env.SEED)
	opt.seed = Number(process.env.SEED);
if (process.env.BATCH)
	opt.batch = Number(process.env.BATCH);
if (opt.seed === undefined)
	opt.seed = randomInt(2 ** 31);
if (!opt.judge || !opt.modules || !(opt.seconds >= 0) ||
    !Number.isInteger(opt.seed) || !Number.isInteger(opt.batch))
	usage("need --judge, --modules, and integer seed and batch");

function usage(msg) {
	console.error(`diff: ${msg}`);
	console.error("usage: node diff.mjs --judge=PATH --modules=DIR " +
	    "[--seconds=N] [--seed=N] [--batch=K] [--dialects=LIST] [--verbose]");
	process.exit(2);
}

// ---- dialects -----------------------------------------------------------

// The 2020-12 vocabulary the validator implements (README: "The form
// vocabulary"); $ref always points into the dialect's definitions keyword.
const KW_2020 = ["type", "enum", "const", "properties", "required",
	"additionalProperties", "patternProperties", "propertyNames",
	"minProperties", "maxProperties", "items", "prefixItems", "contains",
	"minContains", "maxContains", "minItems", "maxItems", "uniqueItems",
	"minLength", "maxLength", "pattern", "minimum", "maximum",
	"exclusiveMinimum", "exclusiveMaximum", "multipleOf", "allOf", "anyOf",
	"oneOf", "not", "if", "dependentRequired", "$ref"];
const without = (list, ...drop) => list.filter((k) => !drop.includes(k));
const KW_2019 = [...without(KW_2020, "prefixItems"), "itemsArray",
	"additionalItems"];
const KW_07 = [...without(KW_2019, "dependentRequired", "minContains",
	"maxContains"), "dependencies"];
const KW_06 = without(KW_07, "if");
const KW_04 = [...without(KW_06, "const", "contains", "propertyNames",
	"exclusiveMinimum", "exclusiveMaximum"), "exclusiveBool"];

// One line per dialect: name, $schema, the library's entry point (its
// package.json "exports" key), the definitions keyword, the keywords, and
// what its meta-schema asks beyond the validator (README, the oracle):
// uniqueEnum, an enum of distinct values; noBoolean, no boolean
// subschemas (true is {}, false {"not": {}}); fullDeps, no empty name
// list in dependencies; refAlone, draft-04 to 07, whose $ref siblings the
// validator applies (refsApart gives the library the $ref under allOf), so the
// root's definitions are not beside a root $ref (is a pointer into an
// ignored member resolved?  the validator says yes, the library no; the
// suite never asks: it puts such a $ref under allOf, and so do we).
const DIALECTS = [
	{ name: "2020-12", uri: "https://json-schema.org/draft/2020-12/schema",
	  entry: "./draft-2020-12", defs: "$defs", keywords: KW_2020 },
	{ name: "2019-09", uri: "https://json-schema.org/draft/2019-09/schema",
	  entry: "./draft-2019-09", defs: "$defs", keywords: KW_2019 },
	{ name: "draft-07", uri: "http://json-schema.org/draft-07/schema#",
	  entry: "./draft-07", defs: "definitions", keywords: KW_07,
	  uniqueEnum: true, refAlone: true },
	{ name: "draft-06", uri: "http://json-schema.org/draft-06/schema#",
	  entry: "./draft-06", defs: "definitions", keywords: KW_06,
	  uniqueEnum: true, refAlone: true },
	{ name: "draft-04", uri: "http://json-schema.org/draft-04/schema#",
	  entry: "./draft-04", defs: "definitions", keywords: KW_04,
	  uniqueEnum: true, noBoolean: true, fullDeps: true, refAlone: true },
	{ name: "v1", uri: "https://json-schema.org/v1",
	  entry: ".", defs: "$defs", keywords: KW_2020 },
];

// ---- exact JSON values ----------------------------------------------------
// null, true, false, strings and arrays are themselves; numbers keep their
// text (Num); objects keep their members in order (Obj).

class Num {
	constructor(text) { this.text = text; }
}
class Obj {
	constructor(entries) { this.entries = entries; } // [[name, value]]
	get(k) {
		const e = this.entries.find(([n]) => n === k);
		return e === undefined ? undefined : e[1];
	}
	has(k) { return this.entries.some(([n]) => n === k); }
}
const N = (t) => new Num(t);
const O = (entries) => new Obj(entries);

function typeOf(v) {
	if (v === null) return "null";
	if (v === true || v === false) return "boolean";
	if (v instanceof Num) return "number";
	if (typeof v === "string") return "string";
	if (Array.isArray(v)) return "array";
	return "object";
}

function text(v) {
	switch (typeOf(v)) {
	case "number": return v.text;
	case "array": return `[${v.map(text).join(",")}]`;
	case "object":
		return `{${v.entries.map(([k, x]) =>
		    `${JSON.stringify(k)}:${text(x)}`).join(",")}}`;
	default: return JSON.stringify(v);
	}
}

// The library's copy: plain JS.  In a schema, a number the double cannot
// hold becomes a stand-in of the same sign and kind (the library's
// meta-schema checks it; the exact handlers read the original).
function toJs(v, inSchema) {
	switch (typeOf(v)) {
	case "number": {
		const d = dec(v.text), x = Number(v.text);
		if (!inSchema || (Number.isFinite(x) && (x !== 0) === (d.mant !== 0n)))
			return x;
		return (d.neg ? -1 : 1) * (isInt(d) ? 1e300 : 0.5);
	}
	case "array": return v.map((x) => toJs(x, inSchema));
	case "object": {
		const o = {};
		for (const [k, x] of v.entries)
			o[k] = toJs(x, inSchema);
		return o;
	}
	default: return v;
	}
}

const escPtr = (k) => String(k).replace(/~/g, "~0").replace(/\//g, "~1");

// Every location of v, as RFC 6901 pointers, into map.
function locate(v, ptr, map) {
	map.set(ptr, v);
	if (Array.isArray(v))
		v.forEach((x, i) => locate(x, `${ptr}/${i}`, map));
	else if (v instanceof Obj)
		for (const [k, x] of v.entries)
			locate(x, `${ptr}/${escPtr(k)}`, map);
	return map;
}

// ---- exact decimals ---------------------------------------------------------
// A number is (neg, mant, exp): (-1)^neg * mant * 10^exp, mant a BigInt
// without trailing zeros (0 is mant 0n, exp 0).

const decCache = new Map();

function dec(t) {
	let d = decCache.get(t);
	if (d === undefined) {
		if (decCache.size > 100000)
			decCache.clear();
		d = decParse(t);
		decCache.set(t, d);
	}
	return d;
}

function decParse(t) {
	const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(t);
	if (m === null)
		throw new Error(`not a JSON number: ${t}`);
	const frac = m[3] ?? "", all = m[2] + frac;
	const sig = all.replace(/0+$/, "");
	if (sig.replace(/^0+/, "") === "")
		return { neg: false, mant: 0n, exp: 0 };
	return { neg: m[1] === "-", mant: BigInt(sig),
		exp: Number(m[4] ?? 0) - frac.length + (all.length - sig.length) };
}

const digits = (b) => b.toString().length;
const isInt = (d) => d.mant === 0n || d.exp >= 0;
const sign = (d) => (d.mant === 0n ? 0 : d.neg ? -1 : 1);

function cmpAbs(a, b) {
	const ma = digits(a.mant) + a.exp, mb = digits(b.mant) + b.exp;
	if (ma !== mb)
		return ma < mb ? -1 : 1;
	// Same magnitude: the exponents differ by fewer than the digits.
	let x = a.mant, y = b.mant;
	if (a.exp > b.exp)
		x *= 10n ** BigInt(a.exp - b.exp);
	else
		y *= 10n ** BigInt(b.exp - a.exp);
	return x < y ? -1 : x > y ? 1 : 0;
}

function cmp(a, b) {
	const sa = sign(a), sb = sign(b);
	if (sa !== sb)
		return sa < sb ? -1 : 1;
	return sa === 0 ? 0 : sa * cmpAbs(a, b);
}

function modpow(b, e, m) {
	let r = 1n % m;
	b %= m;
	while (e > 0n) {
		if (e & 1n)
			r = (r * b) % m;
		b = (b * b) % m;
		e >>= 1n;
	}
	return r;
}

// a / m is an integer (m > 0).
function multipleOf(a, m) {
	if (a.mant === 0n)
		return true;
	const d = a.exp - m.exp;
	if (d >= 0)
		return (a.mant * modpow(10n, BigInt(d), m.mant)) % m.mant === 0n;
	if (-d > digits(a.mant))
		return false;
	return a.mant % (m.mant * 10n ** BigInt(-d)) === 0n;
}

// a + b, or null when the exponents are too far apart to spell out.
function add(a, b) {
	if (a.mant === 0n) return b;
	if (b.mant === 0n) return a;
	if (Math.abs(a.exp - b.exp) > 2000)
		return null;
	const e = Math.min(a.exp, b.exp);
	const va = (a.neg ? -a.mant : a.mant) * 10n ** BigInt(a.exp - e);
	const vb = (b.neg ? -b.mant : b.mant) * 10n ** BigInt(b.exp - e);
	return dec(`${va + vb}e${e}`);
}

function mulInt(a, k) {
	const v = (a.neg ? -a.mant : a.mant) * BigInt(k);
	return dec(`${v}e${a.exp}`);
}

// ---- exact keyword semantics ----------------------------------------------

function equal(a, b) {
	const t = typeOf(a);
	if (t !== typeOf(b))
		return false;
	switch (t) {
	case "number": return cmp(dec(a.text), dec(b.text)) === 0;
	case "array":
		return a.length === b.length && a.every((x, i) => equal(x, b[i]));
	case "object":
		return a.entries.length === b.entries.length &&
		    a.entries.every(([k, x]) => b.has(k) && equal(x, b.get(k)));
	default: return a === b;
	}
}

// draft-04 core 3.5: an integer is "a JSON number without a fraction or
// exponent part" (1.0 is none); later dialects take the value.
let judgeDialect = null;
const isType = (v, t) => t === "integer"
	? v instanceof Num && (judgeDialect === "draft-04"
	    ? !/[.eE]/.test(v.text) : isInt(dec(v.text)))
	: typeOf(v) === t;

const numCmp = (v, bound) => cmp(dec(v.text), dec(bound.text));
const EXACT = {
	type: (s, v) => (typeof s === "string" ? [s] : s).some((t) => isType(v, t)),
	enum: (s, v) => s.some((x) => equal(x, v)),
	const: (s, v) => equal(s, v),
	uniqueItems: (s, v) => !Array.isArray(v) || s !== true ||
	    v.every((x, i) => v.slice(i + 1).every((y) => !equal(x, y))),
	minimum: (s, v, p) => !(v instanceof Num) ||
	    (p.get("exclusiveMinimum") === true ? numCmp(v, s) > 0 : numCmp(v, s) >= 0),
	maximum: (s, v, p) => !(v instanceof Num) ||
	    (p.get("exclusiveMaximum") === true ? numCmp(v, s) < 0 : numCmp(v, s) <= 0),
	exclusiveMinimum: (s, v) => !(v instanceof Num) || typeof s === "boolean" ||
	    numCmp(v, s) > 0,
	exclusiveMaximum: (s, v) => !(v instanceof Num) || typeof s === "boolean" ||
	    numCmp(v, s) < 0,
	multipleOf: (s, v) => !(v instanceof Num) ||
	    multipleOf(dec(v.text), dec(s.text)),
};

// ---- the library, with the exact handlers in place of its own ------------

function resolveExport(pkg, sub) {
	const dir = join(opt.modules, pkg);
	const meta = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
	let e = meta.exports?.[sub] ?? (sub === "." ? meta.main : undefined);
	while (e !== undefined && typeof e === "object")
		e = e.import ?? e.default;
	if (e === undefined)
		throw new Error(`${pkg} exports no ${sub}`);
	return pathToFileURL(join(dir, e)).href;
}

const HJ = "@hyperjump/json-schema";
const hj = await import(resolveExport(HJ, "."));
const hjx = await import(resolveExport(HJ, "./experimental"));
const hjVersion = JSON.parse(readFileSync(
    join(opt.modules, HJ, "package.json"), "utf8")).version;

// The schema being judged (pointer -> exact value) and the instance.
let schemaMap = null, schemaBase = "", instanceMap = null;
const wrapped = new Set();

// The library has no budget of its own: a recursive form ("$ref": "#"
// under contains, oneOf and if at once) can make it take minutes on a
// nested instance, where the validator stops at its step limit.  Each
// library judgement is charged per wrapped keyword it interprets (nearly
// every generated subschema has one) and by the clock; past either, the
// case is skipped and counted as "library too slow", never a verdict.
const LIB_STEPS = 2000000, LIB_MS = 3000;
class LibraryBudget extends Error {}
let libSteps = 0, libDeadline = 0;
function libCharge() {
	if (++libSteps > LIB_STEPS ||
	    ((libSteps & 1023) === 0 && Date.now() > libDeadline))
		throw new LibraryBudget("library budget spent");
}
const TOO_SLOW = Symbol("library too slow");

function wrapKeyword(name, dialectUri) {
	let id;
	// Throws on a dialect the library does not know: a harness bug, not
	// a keyword to leave to the library's doubles.
	id = hjx.getKeywordId(name, dialectUri);
	if (id === undefined || wrapped.has(id))
		return;
	const orig = hjx.getKeyword(id);
	if (orig === undefined)
		return;
	wrapped.add(id);
	hjx.addKeyword({
		...orig,
		compile: async (schema, ast, parent) => {
			const mine = schema.document.baseUri === schemaBase &&
			    schemaMap.has(schema.cursor);
			const ptr = schema.cursor;
			const parentPtr = ptr.slice(0, ptr.lastIndexOf("/"));
			return {
				exact: mine ? schemaMap.get(ptr) : undefined,
				parent: mine ? schemaMap.get(parentPtr) : undefined,
				orig: await orig.compile(schema, ast, parent),
			};
		},
		interpret: (c, instance, ...rest) => {
			libCharge();
			// baseUri "": an instance, not a schema under meta-validation
			if (c.exact === undefined || instance.baseUri !== "")
				return orig.interpret(c.orig, instance, ...rest);
			// A name under propertyNames is not in the instance's tree:
			// it is a string, which JS holds exactly.
			const v = instanceMap.has(instance.pointer)
			    ? instanceMap.get(instance.pointer)
			    : typeof instance.value === "string" ? instance.value
			    : undefined;
			if (v === undefined)
				throw new Error(`no exact value at ${instance.pointer}`);
			return EXACT[name](c.exact, v, c.parent);
		},
	});
}

let schemaSerial = 0;

// With --verbose the library says where its meta-schema rejects a schema.
if (opt.verbose)
	hj.setMetaSchemaOutputFormat("BASIC");
const libErrors = (e) => (e.output?.errors ?? []).map((x) =>
    `\n    ${x.instanceLocation.replace(/^[^#]*/, "")} fails ${x.absoluteKeywordLocation}`).join("");

// Draft-04 to draft-07 say to ignore the keywords beside $ref; the
// validator applies them (an author who writes them means them), so the
// library's copy says the same in the suite's way: the $ref goes under
// allOf beside them.  Values that are data (const, enum) are left alone.
const DATA_KEYS = new Set(["const", "enum", "default", "examples"]);
function refsApart(v) {
	if (Array.isArray(v))
		return v.map(refsApart);
	if (!(v instanceof Obj))
		return v;
	let entries = v.entries.map(([k, x]) =>
	    [k, DATA_KEYS.has(k) ? x : refsApart(x)]);
	const ref = entries.find(([k]) => k === "$ref");
	if (ref !== undefined && entries.some(([k]) => k !== "$ref" &&
	    k !== "$schema" && k !== "$comment" && k !== "definitions")) {
		const all = entries.find(([k]) => k === "allOf");
		const sub = O([["$ref", ref[1]]]);
		entries = entries.filter(([k]) => k !== "$ref");
		if (all !== undefined)
			all[1] = [...all[1], sub];
		else
			entries.push(["allOf", [sub]]);
	}
	return O(entries);
}

// The library's verdicts on one schema: null when it refuses the schema.
async function hjJudge(d, schema, instances) {
	judgeDialect = d.name;
	if (d.refAlone)
		schema = refsApart(schema);
	const uri = `https://gpt.test/diff/${++schemaSerial}`;
	schemaMap = locate(schema, "", new Map());
	schemaBase = uri;
	libSteps = 0;
	libDeadline = Date.now() + LIB_MS;
	try {
		hj.registerSchema(toJs(schema, true), uri, d.uri);
		const v = await hj.validate(uri);
		return instances.map((x) => {
			instanceMap = locate(x, "", new Map());
			return v(toJs(x, false)).valid;
		});
	} catch (e) {
		if (e instanceof LibraryBudget)
			return TOO_SLOW;
		if (opt.verbose)
			console.error(`diff: library refused ${text(schema)}: ` +
			    `${e.message}${libErrors(e)}`);
		return null;
	} finally {
		hj.unregisterSchema(uri);
	}
}

// ---- the validator ----------------------------------------------------------

// [{schema, instances}] -> [{refused, why, verdicts: ["1" | "0 ..." ...]}],
// each schema read in dialect d when it has no $schema (the address's
// dialect, as the library's default dialect is d too).
function gptJudge(cases, d) {
	const lines = [];
	if (d !== undefined)
		lines.push(`D ${d.name}`);
	for (const c of cases) {
		lines.push(`S ${text(c.schema)}`);
		for (const x of c.instances)
			lines.push(`I ${text(x)}`);
	}
	const r = spawnSync(opt.judge, [], { input: lines.join("\n") + "\n",
	    maxBuffer: 1 << 30, encoding: "utf8" });
	if (r.status !== 0)
		throw new Error(`judge failed (${r.status ?? r.signal}): ${r.stderr}`);
	const out = r.stdout.split("\n");
	let i = 0;
	if (d !== undefined && out[i++] !== "ok")
		throw new Error(`judge does not know dialect ${d.name}`);
	return cases.map((c) => {
		const head = out[i++];
		const verdicts = c.instances.map(() => out[i++]);
		return head === "ok"
		    ? { refused: false, verdicts }
		    : { refused: true, why: head.replace(/^refused /, "") };
	});
}

// ---- random generation --------------------------------------------------------

// sfc32, seeded from (seed, batch) through splitmix32.
function rngFor(seed, batch) {
	let s = (seed ^ Math.imul(batch + 1, 0x9e3779b9)) >>> 0;
	const mix = () => {
		s = (s + 0x9e3779b9) >>> 0;
		let z = s;
		z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
		z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
		return (z ^ (z >>> 16)) >>> 0;
	};
	let a = mix(), b = mix(), c = mix(), d = mix();
	return () => {
		const t = (((a + b) >>> 0) + d) >>> 0;
		d = (d + 1) >>> 0;
		a = b ^ (b >>> 9);
		b = (c + (c << 3)) >>> 0;
		c = ((c << 21) | (c >>> 11)) >>> 0;
		c = (c + t) >>> 0;
		return t / 4294967296;
	};
}

let rnd = rngFor(0, 0);
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
const chance = (p) => rnd() < p;
const pick = (a) => a[Math.floor(rnd() * a.length)];
function pickSome(a, lo, hi) {
	const pool = [...a], out = [];
	for (let n = int(lo, Math.min(hi, pool.length)); n > 0; n--)
		out.push(pool.splice(Math.floor(rnd() * pool.length), 1)[0]);
	return out;
}

const NAMES = ["a", "b", "c", "aa", "ab", "ba", "1", "", "a/b", "~0", "é",
	"😀", "x y", "%25"];
const MANY = [...NAMES, ...Array.from({ length: 40 }, (_, i) => `p${i}`)];
const STRINGS = ["", "a", "b", "c", "ab", "abc", "aaaa", "ba", "aa", "é",
	"😀", "a😀", "😀😀", "\n", "a\n", "\u2028", "A1", "_", "0", "12", "x y",
	"ß", "\u0000", "aé", "1a", "abcde", "ab.c", "\t", "Ω"];
// Known-safe ECMA-262 constructs only (see the README): literals, anchors,
// '.', simple classes, \d \w \s outside classes, quantifiers,
// alternation, non-capturing groups.
const PATTERNS = ["^a", "a$", "^a*$", "^[a-c]+$", "b", "^.$", "^..$", "\\d",
	"^\\d+$", "^\\w*$", "\\s", "^(?:ab|c)+$", "^a{2,3}$", "[^a]", "😀",
	"^.{1,2}$", "^$", "é", "^[^b]*$", "x|^$", "^[😀a]+$", "\\.", "^a?b?$",
	"[0-9]{2}", "^(?:a|b)*c?$", "^[A-Z]", ".", "^\\s*$"];
const NUMS = ["0", "1", "-1", "2", "3", "5", "10", "0.5", "0.1", "0.3",
	"1.5", "2.5", "19.99", "0.015", "-0.5", "100", "1e2", "1.0", "5.0", "-0",
	"0.0", "9007199254740992", "9007199254740993", "-9007199254740993",
	"18446744073709551616", "1e400", "-1e400", "1e-400",
	"123456789012345678901234567890", "0.30000000000000004", "1e308",
	"1.7976931348623157e308", "5e-324", "1E+2", "-2.50", "7", "4.9e-324",
	"1e1000000000", "-1e-1000000000", "12345678901234567.5"];
const MULTS = ["1", "2", "3", "0.1", "0.01", "0.5", "2.5", "0.0001",
	"1e-400", "1e20", "7", "1.5", "0.3", "1e2", "10", "0.001", "1.1",
	"9007199254740993", "1e-9"];
const TYPES = ["null", "boolean", "object", "array", "number", "string",
	"integer"];

// A number's text in one of the spellings JSON allows for its value.
function spell(d) {
	const s = d.neg ? "-" : "", m = d.mant.toString();
	const form = int(0, 4);
	if (d.mant === 0n)
		return pick(["0", "-0", "0.0", "0e5", "-0.000"]);
	if (form === 0 || Math.abs(d.exp) > 60)
		return d.exp === 0 ? s + m : `${s}${m}${pick(["e", "E", "e+"])}${d.exp}`
		    .replace("e+-", "e-");
	if (d.exp >= 0)
		return s + m + "0".repeat(d.exp) + (form === 1 ? ".0" : "");
	const k = -d.exp, p = m.padStart(k + 1, "0");
	const body = `${p.slice(0, p.length - k)}.${p.slice(p.length - k)}`;
	if (form === 2)
		return s + body + "00";
	if (form === 3)
		return `${s}${m}0e${d.exp - 1}`;
	return s + body;
}

// A JSON Pointer as a URI fragment (RFC 6901 section 6): what RFC 3986
// does not allow there is percent-encoded.
const fragment = (ptr) => "#" + Array.from(new TextEncoder().encode(ptr),
    (b) => /[A-Za-z0-9\-._~!$&'()*+,;=:@\/]/.test(String.fromCharCode(b))
	? String.fromCharCode(b)
	: "%" + b.toString(16).toUpperCase().padStart(2, "0")).join("");

class Gen {
	constructor(d) {
		this.d = d;
		this.kw = new Set(d.keywords);
		this.defNames = [];
		this.budget = 40;	// schema objects per root, so pairs stay small
		this.descend = 0;	// descending keywords above this point
	}

	num() { return N(pick(NUMS)); }

	// A boolean schema, or its object spelling where there is none.
	bool(b) {
		if (!this.d.noBoolean)
			return b;
		return b ? O([]) : O([["not", O([])]]);
	}

	value(depth) {
		const r = rnd();
		if (depth > 2 || r < 0.55) {
			switch (int(0, 5)) {
			case 0: return pick([null, true, false]);
			case 1: case 2: return this.num();
			default: return pick(STRINGS);
			}
		}
		if (r < 0.78)
			return Array.from({ length: int(0, 3) }, () => this.value(depth + 1));
		return O(pickSome(NAMES, 0, 3).map((k) => [k, this.value(depth + 1)]));
	}

	// A schema for `depth` levels down, with `focus` the type it is about.
	schema(depth, focus) {
		if (chance(depth === 0 ? 0.02 : 0.12) || this.budget <= 0)
			return this.bool(chance(0.6));
		this.budget--;
		focus ??= pick(["object", "array", "string", "number", "integer",
			"any", "any"]);
		const out = [];
		const n = depth > 3 ? int(1, 2) : int(1, 4);
		const groups = {
			object: ["properties", "required", "additionalProperties",
				"patternProperties", "propertyNames", "minProperties",
				"maxProperties", "dependentRequired", "dependencies"],
			array: ["items", "prefixItems", "itemsArray", "additionalItems",
				"contains", "minItems", "maxItems", "uniqueItems"],
			string: ["minLength", "maxLength", "pattern"],
			number: ["minimum", "maximum", "exclusiveMinimum",
				"exclusiveMaximum", "multipleOf", "exclusiveBool"],
			any: ["type", "enum", "const", "allOf", "anyOf", "oneOf", "not",
				"if", "$ref"],
		};
		const own = groups[focus === "integer" ? "number" : focus] ?? [];
		if (focus !== "any" && chance(0.7))
			out.push(["type", chance(0.8) ? focus
			    : [focus, ...pickSome(without(TYPES, focus), 1, 2)]]);
		for (let i = 0; i < n * 3 && out.length < n + 1; i++) {
			const k = chance(0.7) && own.length ? pick(own) : pick(groups.any);
			if (!this.kw.has(k) || out.some(([x]) => x === k))
				continue;
			if (depth > 4 && ["allOf", "anyOf", "oneOf", "if", "not",
				"properties", "items", "prefixItems", "itemsArray",
				"patternProperties", "contains"].includes(k))
				continue;
			this.keyword(k, depth, focus, out);
		}
		return O(out);
	}

	sub(depth, focus) { return this.schema(depth + 1, focus); }

	// A subschema applied to a part of the instance: a "#" below it
	// recurses with progress.
	down(depth, focus) {
		this.descend++;
		const s = this.schema(depth + 1, focus);
		this.descend--;
		return s;
	}

	keyword(k, depth, focus, out) {
		const put = (name, v) => {
			if (!out.some(([x]) => x === name))
				out.push([name, v]);
		};
		switch (k) {
		case "type":
			put(k, chance(0.6) ? pick(TYPES) : pickSome(TYPES, 1, 3));
			break;
		case "enum":
			// Long enums are hashed by the validator: respelled numbers
			// and reordered members must still be found.
			put(k, distinct(this.d, Array.from({ length: chance(0.1)
			    ? int(12, 40) : int(1, 4) }, () =>
			    chance(0.7) ? this.value(3) : this.value(1))));
			break;
		case "const":
			put(k, this.value(chance(0.7) ? 3 : 1));
			break;
		case "properties":
			// Many members: the validator's hashed member tables.
			put(k, O(pickSome(chance(0.05) ? MANY : NAMES, 1, chance(0.1) ? 30 : 3)
			    .map((p) => [p, this.down(depth)])));
			break;
		case "required":
			put(k, pickSome(chance(0.05) ? MANY : NAMES, 1, chance(0.1) ? 30 : 3));
			break;
		case "additionalProperties":
			put(k, chance(0.5) ? chance(0.6) ? false : true : this.down(depth));
			break;
		case "patternProperties":
			put(k, O(pickSome(PATTERNS, 1, 2).map((p) => [p, this.down(depth)])));
			break;
		case "propertyNames":
			put(k, this.sub(depth, "string"));
			break;
		case "minProperties": case "maxProperties":
		case "minItems": case "maxItems":
		case "minLength": case "maxLength":
			put(k, N(chance(0.9) ? String(int(0, 4)) : `${int(0, 3)}.0`));
			break;
		case "items":
			put(k, this.down(depth));
			break;
		case "prefixItems":
			put(k, Array.from({ length: int(1, 3) }, () => this.down(depth)));
			break;
		case "itemsArray": // items as an array: 2019-09 and before
			put("items", Array.from({ length: int(1, 3) }, () => this.down(depth)));
			break;
		case "additionalItems":
			put(k, chance(0.5) ? false : this.down(depth));
			break;
		case "contains":
			put(k, this.down(depth));
			if (this.kw.has("minContains") && chance(0.5))
				put("minContains", N(String(int(0, 3))));
			if (this.kw.has("maxContains") && chance(0.4))
				put("maxContains", N(String(int(0, 3))));
			break;
		case "uniqueItems":
			put(k, chance(0.8));
			break;
		case "pattern":
			put(k, pick(PATTERNS));
			break;
		case "minimum": case "maximum":
		case "exclusiveMinimum": case "exclusiveMaximum":
			put(k, focus === "integer" && chance(0.5)
			    ? N(String(int(-3, 10))) : this.num());
			break;
		case "exclusiveBool": // draft-04: a boolean beside minimum/maximum
			for (const [b, x] of [["minimum", "exclusiveMinimum"],
			    ["maximum", "exclusiveMaximum"]])
				if (chance(0.6)) {
					put(b, this.num());
					put(x, chance(0.7));
				}
			break;
		case "multipleOf":
			put(k, N(pick(MULTS)));
			break;
		case "allOf": case "anyOf": case "oneOf":
			put(k, Array.from({ length: int(1, 3) }, () =>
			    this.sub(depth, chance(0.5) ? focus : undefined)));
			break;
		case "not":
			put(k, this.sub(depth, focus));
			break;
		case "if":
			put("if", this.sub(depth, focus));
			if (chance(0.8)) put("then", this.sub(depth, focus));
			if (chance(0.6)) put("else", this.sub(depth, focus));
			break;
		case "dependentRequired":
			put(k, O(pickSome(NAMES, 1, 2).map((p) =>
			    [p, pickSome(NAMES, 0, 2)])));
			break;
		case "dependencies":
			put(k, O(pickSome(NAMES, 1, 2).map((p) =>
			    [p, chance(0.6) ? pickSome(NAMES, this.d.fullDeps ? 1 : 0, 2)
			        : this.sub(depth)])));
			break;
		case "$ref":
			// Definitions refer only to later ones, so no cycle without a
			// step into the instance; "#" only below such a step.
			if (this.defNames.length > this.defFloor)
				put(k, fragment(`/${this.d.defs}/${escPtr(pick(
				    this.defNames.slice(this.defFloor)))}`));
			else if (this.descend > 0 && chance(0.3))
				put(k, "#");
			break;
		}
	}

	// A root: definitions first (each may refer to later ones), then the
	// schema itself.
	root() {
		const names = pickSome(["d0", "d1", "n/x", "e~f", "g h"], 0, 3);
		this.defNames = names;
		const defs = [];
		for (let i = names.length - 1; i >= 0; i--) {
			this.defFloor = i + 1;
			defs.unshift([names[i], this.schema(1)]);
		}
		this.defFloor = 0;
		let s = this.schema(0);
		if (s === true || s === false)
			return s;
		if (defs.length && this.d.refAlone && s.has("$ref"))
			s = O([["allOf", [s]]]);
		if (defs.length)
			s.entries.push([this.d.defs, O(defs)]);
		if (chance(0.4))
			s.entries.unshift(["$schema", this.d.uri]);
		return s;
	}
}

// The values of list, each once by the library's equality too (numbers
// as doubles): what an enum is where the meta-schema says uniqueItems.
function distinct(d, list) {
	if (!d.uniqueEnum)
		return list;
	const canon = (x) => Array.isArray(x) ? x.map(canon)
	    : x !== null && typeof x === "object" ? Object.fromEntries(
	        Object.keys(x).sort().map((k) => [k, canon(x[k])]))
	    : x;
	const seen = new Set();
	return list.filter((x) => {
		const k = JSON.stringify(canon(toJs(x, true)));
		return !seen.has(k) && seen.add(k);
	});
}

// ---- instances aimed at a schema, and near misses --------------------------

function aim(g, root, s, depth) {
	if (!(s instanceof Obj) || depth > 4 || chance(0.1))
		return g.value(depth > 2 ? 3 : 1);
	if (s.has("const") && chance(0.6)) return s.get("const");
	if (s.has("enum") && chance(0.6)) return pick(s.get("enum"));
	if (s.has("$ref") && chance(0.5)) {
		const ptr = decodeURIComponent(s.get("$ref").slice(1));
		const t = locate(root, "", new Map()).get(ptr);
		if (t !== undefined) return aim(g, root, t, depth + 1);
	}
	for (const k of ["allOf", "anyOf", "oneOf"])
		if (s.has(k) && chance(0.4))
			return aim(g, root, pick(s.get(k)), depth + 1);
	if (s.has("if") && chance(0.3))
		return aim(g, root, chance(0.5) ? s.get("if")
		    : s.get("then") ?? s.get("else") ?? true, depth + 1);
	let t = s.get("type");
	if (Array.isArray(t)) t = pick(t);
	if (t === undefined) {
		const has = (...ks) => ks.some((k) => s.has(k));
		t = has("properties", "required", "patternProperties",
		    "additionalProperties", "propertyNames", "dependentRequired")
		    ? "object"
		    : has("items", "prefixItems", "contains", "minItems", "maxItems",
		        "uniqueItems") ? "array"
		    : has("minLength", "maxLength", "pattern") ? "string"
		    : has("minimum", "maximum", "exclusiveMinimum",
		        "exclusiveMaximum", "multipleOf") ? "number"
		    : pick(TYPES);
	}
	const count = (k, dflt) => (s.has(k) ? Number(s.get(k).text) : dflt);
	switch (t) {
	case "null": return null;
	case "boolean": return chance(0.5);
	case "object": {
		const props = s.get("properties"), names = new Set();
		for (const k of s.get("required") ?? [])
			if (chance(0.9)) names.add(k);
		if (props instanceof Obj)
			for (const [k] of props.entries)
				if (chance(0.6)) names.add(k);
		if (chance(0.3)) names.add(pick(NAMES));
		if (chance(0.05))
			for (const k of pickSome(MANY, 10, 40)) names.add(k);
		const dep = s.get("dependentRequired") ?? s.get("dependencies");
		if (dep instanceof Obj)
			for (const [k, v] of dep.entries)
				if (names.has(k) && Array.isArray(v))
					for (const x of v) if (chance(0.8)) names.add(x);
		const want = count("minProperties", 0);
		for (const k of NAMES)
			if (names.size < want) names.add(k);
		return O([...names].map((k) => {
			const ps = props instanceof Obj && props.has(k) ? props.get(k)
			    : s.get("additionalProperties") ?? true;
			return [k, aim(g, root, ps, depth + 1)];
		}));
	}
	case "array": {
		const pre = s.get("prefixItems") ??
		    (Array.isArray(s.get("items")) ? s.get("items") : []);
		const rest = Array.isArray(s.get("items"))
		    ? s.get("additionalItems") ?? true : s.get("items") ?? true;
		const out = pre.filter(() => chance(0.9))
		    .map((x) => aim(g, root, x, depth + 1));
		// Long arrays: uniqueItems hashes them instead of comparing pairs.
		if (chance(0.1)) {
			const len = int(16, 60);
			if (chance(0.5)) {
				const pool = Array.from({ length: int(2, 8) }, () =>
				    aim(g, root, rest, depth + 1));
				for (let i = len; i > 0; i--)
					out.push(respell(pick(pool)));
				return out;
			}
			// Distinct values, and maybe one respelled duplicate.
			const kind = int(0, 3);
			for (let i = 0; i < len; i++)
				out.push(kind === 0 ? N(spell(dec(`${i}e${int(-2, 2)}`)))
				    : kind === 1 ? `s${i}`
				    : kind === 2 ? O([["a", N(String(i))], ["b", i % 2 === 0]])
				    : [N(String(i % 7)), `${Math.floor(i / 7)}`]);
			if (chance(0.5))
				out.splice(int(0, out.length), 0, respell(pick(out)));
			return out;
		}
		const n = Math.max(count("minItems", 0), int(0, 3));
		while (out.length < n)
			out.push(aim(g, root, s.has("contains") && chance(0.5)
			    ? s.get("contains") : rest, depth + 1));
		return out;
	}
	case "string": {
		if (chance(0.5)) return pick(STRINGS);
		const n = chance(0.5) ? count("minLength", 1) : count("maxLength", 2);
		return pick(["a", "b", "😀", "é", "1"]).repeat(Math.max(0, n + int(-1, 1)));
	}
	default: { // number, integer
		const bounds = ["minimum", "maximum", "exclusiveMinimum",
			"exclusiveMaximum"].filter((k) => s.get(k) instanceof Num)
		    .map((k) => dec(s.get(k).text));
		let d;
		if (s.has("multipleOf") && chance(0.6))
			d = mulInt(dec(s.get("multipleOf").text), int(-3, 7));
		else if (bounds.length && chance(0.7))
			d = pick(bounds);
		else
			d = dec(t === "integer" ? String(int(-5, 12)) : g.num().text);
		if (chance(0.5)) d = nudge(d) ?? d;
		return N(spell(d));
	}
	}
}

// The same value, spelled anew: numbers respelled, members reordered.
function respell(x) {
	if (x instanceof Num) return N(spell(dec(x.text)));
	if (Array.isArray(x)) return x.map(respell);
	if (x instanceof Obj)
		return O([...x.entries].sort(() => rnd() - 0.5)
		    .map(([k, v]) => [k, respell(v)]));
	return x;
}

// A decimal a tiny step, or a unit, away.
function nudge(d) {
	const step = dec(pick(["1", "-1", "0.1", "-0.1", "1e-20", "-1e-20",
		"0.5", "1e-400"]));
	return add(d, step);
}

// One change somewhere in x: the near miss of an aimed instance.
function mutate(g, x) {
	const r = rnd();
	if (x instanceof Num) {
		if (r < 0.5) return N(spell(nudge(dec(x.text)) ?? dec(x.text)));
		if (r < 0.8) return N(spell(dec(x.text)));
		return g.value(3);
	}
	if (typeof x === "string") {
		if (r < 0.4) return x + pick(["a", "😀", "é", "b", "\n"]);
		if (r < 0.7) return [...x].slice(0, -1).join("");
		return g.value(3);
	}
	if (Array.isArray(x)) {
		if (x.length && r < 0.5) {
			const i = int(0, x.length - 1), y = [...x];
			y[i] = mutate(g, x[i]);
			return y;
		}
		if (x.length && r < 0.65) return x.slice(0, -1);
		if (x.length && r < 0.8) return [...x, x[int(0, x.length - 1)]];
		return [...x, g.value(2)];
	}
	if (x instanceof Obj) {
		const e = x.entries;
		if (e.length && r < 0.5) {
			const i = int(0, e.length - 1);
			return O(e.map(([k, v], j) => [k, j === i ? mutate(g, v) : v]));
		}
		if (e.length && r < 0.75) {
			const i = int(0, e.length - 1);
			return O(e.filter((_, j) => j !== i));
		}
		const k = pick(NAMES);
		return x.has(k) ? x : O([...e, [k, g.value(2)]]);
	}
	return g.value(3);
}

function instancesFor(g, s) {
	const out = [];
	for (let i = int(2, 4); i > 0; i--)
		out.push(g.value(0));
	for (let i = int(4, 7); i > 0; i--) {
		const x = aim(g, s, s, 0);
		out.push(x);
		for (let j = int(0, 2); j > 0; j--)
			out.push(mutate(g, x));
	}
	return out;
}

// ---- documented deviations -------------------------------------------------

// Why a disagreement is a documented deviation (README), or null.
function documented(gpt) {
	// "Reaching any limit rejects the act (fail closed)".
	if (gpt.startsWith("L"))
		return "limit";
	return null;
}

// ---- shrinking ------------------------------------------------------------------

// Every value one step smaller than v (a member or item dropped, a
// subtree made trivial), for schemas (boolean stand-ins) or instances.
function smaller(v, inSchema) {
	const out = [];
	if (Array.isArray(v)) {
		v.forEach((_, i) => out.push(v.filter((_, j) => j !== i)));
		v.forEach((x, i) => {
			for (const y of smaller(x, inSchema))
				out.push(v.map((z, j) => (j === i ? y : z)));
		});
	} else if (v instanceof Obj) {
		v.entries.forEach((_, i) =>
		    out.push(O(v.entries.filter((_, j) => j !== i))));
		v.entries.forEach(([k, x], i) => {
			for (const y of smaller(x, inSchema))
				out.push(O(v.entries.map((e, j) => (j === i ? [k, y] : e))));
		});
	}
	if (inSchema)
		out.push(true, false);
	else if (v !== null)
		out.push(null, 0 === 0 ? N("0") : null, "");
	return out.filter((y) => text(y).length < text(v).length);
}

async function disagrees(d, schema, instance) {
	const [g] = gptJudge([{ schema, instances: [instance] }], d);
	if (g.refused) return null;
	const h = await hjJudge(d, schema, [instance]);
	if (h === null || h === TOO_SLOW) return null;
	const gv = g.verdicts[0];
	if ((gv === "1") === h[0] || documented(gv)) return null;
	return { gpt: gv, hj: h[0] };
}

// Bounded by rounds and by SHRINK_MS of wall time: a large case shrinks
// only as far as the time allows, and what is left is still a reproducer.
const SHRINK_MS = 30000;
async function shrink(d, schema, instance) {
	const until = Date.now() + SHRINK_MS;
	let best = { schema, instance, v: await disagrees(d, schema, instance) };
	for (let round = 0; round < 200 && Date.now() < until; round++) {
		let found = false;
		// The root's $schema stays: without it the case would be judged
		// in the default dialect, another question.
		const keeps = (s) => !(best.schema instanceof Obj) ||
		    !best.schema.has("$schema") ||
		    (s instanceof Obj && s.get("$schema") === best.schema.get("$schema"));
		const cands = [
			...smaller(best.instance, false).map((x) => [best.schema, x]),
			...smaller(best.schema, true).filter(keeps)
			    .map((s) => [s, best.instance]),
		];
		// One judge process per round: all candidates in one batch.
		const gs = gptJudge(cands.map(([s, x]) => ({ schema: s, instances: [x] })),
		    d);
		for (let i = 0; i < cands.length && !found && Date.now() < until;
		    i++) {
			if (gs[i].refused || documented(gs[i].verdicts[0])) continue;
			const h = await hjJudge(d, cands[i][0], [cands[i][1]]);
			if (h !== null && h !== TOO_SLOW &&
			    (gs[i].verdicts[0] === "1") !== h[0]) {
				best = { schema: cands[i][0], instance: cands[i][1],
					v: { gpt: gs[i].verdicts[0], hj: h[0] } };
				found = true;
			}
		}
		if (!found) break;
	}
	return best;
}

// ---- the run -------------------------------------------------------------------

const start = Date.now();
const stats = { schemas: 0, instances: 0, valid: 0, refused: 0, libRefused: 0,
	libSlow: 0, limits: 0, disagreements: 0 };
const refusals = new Map();
const failures = [];

const probe = gptJudge(DIALECTS.map((d) => ({
	schema: O([["$schema", d.uri]]), instances: [] })));
const active = DIALECTS.filter((d, i) => !probe[i].refused &&
    (opt.dialects === null || opt.dialects.includes(d.name)));
const skipped = DIALECTS.filter((d, i) => probe[i].refused).map((d) => d.name);
for (const d of active) {
	await import(resolveExport(HJ, d.entry));
	if (!opt.library)
		for (const k of Object.keys(EXACT))
			// The library names dialects without the empty fragment.
			wrapKeyword(k, d.uri.replace(/#$/, ""));
}
console.log(`diff: seed ${opt.seed} (replay: SEED=${opt.seed}), ` +
    `${HJ} ${hjVersion}, dialects ${active.map((d) => d.name).join(" ")}` +
    (skipped.length ? ` (not accepted by the validator: ${skipped.join(" ")})`
        : ""));
if (active.length === 0) {
	console.error("diff: no dialect to run");
	process.exit(1);
}

const BATCH = 40;
let batch = opt.batch;
while (failures.length === 0 &&
    (batch === opt.batch || Date.now() - start < opt.seconds * 1000)) {
	rnd = rngFor(opt.seed, batch);
	const d = active[batch % active.length];
	const cases = [];
	for (let i = 0; i < BATCH; i++) {
		const g = new Gen(d);
		const schema = g.root();
		cases.push({ schema, instances: instancesFor(g, schema) });
	}
	const gs = gptJudge(cases, d);
	for (let i = 0; i < cases.length; i++) {
		const c = cases[i], g = gs[i];
		stats.schemas++;
		if (g.refused) {
			stats.refused++;
			const why = g.why.replace(/^\S*: /, "");
			refusals.set(why, (refusals.get(why) ?? 0) + 1);
			continue;
		}
		const h = await hjJudge(d, c.schema, c.instances);
		if (h === TOO_SLOW) {
			stats.libSlow++;
			continue;
		}
		if (h === null) {
			// The validator compiled what the library calls no schema.
			stats.libRefused++;
			failures.push({ d, batch, schema: c.schema, instance: null,
				v: { gpt: "ok (compiled)", hj: "schema refused" } });
			continue;
		}
		c.instances.forEach((x, j) => {
			stats.instances++;
			const gv = g.verdicts[j];
			if (h[j]) stats.valid++;
			if (gv === "P")
				throw new Error(`instance does not parse: ${text(x)}`);
			if ((gv === "1") === h[j]) return;
			if (documented(gv)) {
				stats.limits++;
				return;
			}
			stats.disagreements++;
			failures.push({ d, batch, schema: c.schema, instance: x,
				v: { gpt: gv, hj: h[j] } });
		});
	}
	batch++;
}

// Reproducers in ASCII (non-ASCII only occurs inside strings), so a
// U+2028 or a NUL cannot hide in a terminal.
const shown = (v) => text(v).replace(/[^\x20-\x7e]/g, (c) =>
    `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
const verdict = (v) => v === true || v === "1" ? "valid"
	: v === false ? "invalid"
	: /^[0L] /.test(v) ? `invalid (${v.slice(2)})` : v;
for (const f of failures.slice(0, 3)) {
	const m = f.instance === null ? f : await shrink(f.d, f.schema, f.instance);
	const v = m.v ?? f.v;
	console.log(`diff: DISAGREEMENT (${f.d.name}, SEED=${opt.seed} ` +
	    `BATCH=${f.batch})`);
	console.log(`  schema:   ${shown(m.schema)}`);
	if (m.instance !== null)
		console.log(`  instance: ${shown(m.instance)}`);
	console.log(`  gpt.fcgi: ${verdict(v.gpt)}`);
	console.log(`  ${HJ}${opt.library ? "" : " (exact numbers)"}: ` +
	    verdict(v.hj));
}
if (opt.verbose)
	for (const [why, n] of [...refusals].sort((a, b) => b[1] - a[1]))
		console.log(`diff: refused ${n}: ${why}`);
const secs = ((Date.now() - start) / 1000).toFixed(1);
console.log(`diff: ${stats.schemas} schemas, ${stats.instances} instances, ` +
    `${stats.refused} refused, ` +
    `${stats.disagreements + stats.libRefused} disagreements ` +
    `(${stats.valid} instances valid, ${stats.limits} limits, ` +
    `${stats.libSlow} too slow for the library, ` +
    `${batch - opt.batch} batches, ${secs} s)`);
process.exit(failures.length ? 1 : 0);
