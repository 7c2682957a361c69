// actor.cjs: a real constrained decoder as the actor.  xgrammar (the
// grammar engine vLLM uses by default, npm @mlc-ai/web-xgrammar) compiles
// each form into a grammar; a random actor with a byte-level vocabulary
// (256 byte tokens and an end token, no model) walks the grammar's
// allowed next bytes with a seeded choice and so produces values the
// decoder would let a model write.  Each value is POSTed to a real server
// (an address per form, failures = explain, so a rejection names its
// keyword and pointer).
//
// Judged against the decoder report: where xgrammar enforces every
// keyword of the form, every value must be accepted; where it ignores
// some, each rejection must be explained by them: the value must pass the
// form with those keywords removed (gpt.fcgi --validate).  The ignored
// keywords come from `gpt.fcgi --check --json` (decoders[xgrammar].ignores)
// when the binary reports them, else from the xgrammar row of the decoder
// table (xgrammar-row.json, from DECODERS.md).
//
// Then the same addresses get `gpt.fcgi --sample` values (all must be
// accepted) and json-schema-faker's values (each accepted, or rejected
// for a reason @hyperjump/json-schema confirms: faker does not always
// honour a form).
//
//   node actor.cjs --gpt-fcgi BIN --modules DIR --base URL --list FILE
//       [--values N] [--seed S] [--tmp DIR]
//
// FILE: one line per form, "NAME<TAB>DIR" (an address directory served at
// BASE/NAME).  Prints one line of figures per form; exit 0 when every
// promise held.
"use strict";
const fs = require("fs");
const path = require("path");
const http = require("http");
const Module = require("module");
const {spawnSync} = require("child_process");

const opt = {values: 20, seed: 20261201, tmp: "/tmp"};
for (let i = 2; i < process.argv.length; i += 2)
	opt[process.argv[i].replace(/^--/, "").replace(/-(.)/g,
	    (_, c) => c.toUpperCase())] = process.argv[i + 1];
opt.values = Number(opt.values);

// The package is a UMD bundle in a "type": "module" directory: load it as
// the CommonJS module it is, with require and __filename set.
function requireUmd(file) {
	const m = new Module(file, module);
	m.filename = file;
	m.paths = Module._nodeModulePaths(path.dirname(file));
	m._compile(fs.readFileSync(file, "utf8"), file);
	return m.exports;
}
const xgr = requireUmd(path.join(opt.modules, "@mlc-ai/web-xgrammar",
    "lib/index.js"));
const jsf = require(path.join(opt.modules,
    "json-schema-faker/dist/main.cjs"));

// mulberry32: seeded, the same sequence on every machine
function prng(seed) {
	let s = seed >>> 0;
	return () => {
		s = (s + 0x6d2b79f5) >>> 0;
		let t = s;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

// ----- the decoder report -------------------------------------------------

const row = JSON.parse(fs.readFileSync(path.join(__dirname,
    "xgrammar-row.json"), "utf8"));

// Every keyword occurrence of a schema: [{pointer, keyword, value, parent}]
const SUBS = {properties: "map", patternProperties: "map", $defs: "map",
    definitions: "map", dependentSchemas: "map", items: "one-or-list",
    prefixItems: "list", allOf: "list", anyOf: "list", oneOf: "list",
    additionalProperties: "one", unevaluatedProperties: "one",
    unevaluatedItems: "one", additionalItems: "one", contains: "one",
    propertyNames: "one", not: "one", if: "one", then: "one", else: "one",
    contentSchema: "one", dependencies: "deps"};
const esc = (k) => String(k).replace(/~/g, "~0").replace(/\//g, "~1");
function keywords(s, ptr, out) {
	if (!s || typeof s !== "object" || Array.isArray(s))
		return out;
	for (const [k, v] of Object.entries(s)) {
		out.push({pointer: `${ptr}/${esc(k)}`, keyword: k, value: v,
		    parent: s});
		const kind = SUBS[k];
		const at = `${ptr}/${esc(k)}`;
		if (kind === "one" || (kind === "one-or-list" && !Array.isArray(v)))
			keywords(v, at, out);
		else if (kind === "list" || kind === "one-or-list")
			(Array.isArray(v) ? v : []).forEach((x, i) =>
			    keywords(x, `${at}/${i}`, out));
		else if (kind === "map" || kind === "deps")
			for (const [n, x] of Object.entries(v || {}))
				if (!Array.isArray(x))
					keywords(x, `${at}/${esc(n)}`, out);
	}
	return out;
}

// What the xgrammar row of the table says each occurrence is.
function rowIgnores(schema) {
	const ign = [];
	for (const o of keywords(schema, "", [])) {
		const k = o.keyword, p = o.parent;
		if (row.annotations.includes(k) || k.startsWith("x-"))
			continue;
		let ignored = false;
		if (row.ignored.includes(k))
			ignored = true;
		else if (k === "$ref")
			/* only JSON Pointers: "#rule" (a draft-04 id, an
			 * anchor) is not followed, the value is left free */
			ignored = !/^#(\/|$)/.test(String(o.value));
		else if (k === "allOf")
			ignored = Array.isArray(o.value) && o.value.length > 1;
		else if (k === "format")
			ignored = !row.formats.includes(o.value);
		else if (["minimum", "maximum", "exclusiveMinimum",
		    "exclusiveMaximum"].includes(k))
			ignored = [].concat(p.type).includes("number");
		else if (k === "pattern")
			ignored = /\(\?[=!<]/.test(String(o.value));
		else if (k === "minLength" || k === "maxLength")
			ignored = "pattern" in p || "format" in p;
		else if (k === "patternProperties" || k === "propertyNames")
			ignored = p.additionalProperties !== false;
		else if (!row.enforced.includes(k))
			ignored = true; /* a keyword the row does not list */
		/* the engine's own warning: "Specifying pattern and
		 * minLength/maxLength/format is not supported yet, ignoring
		 * minLength/maxLength/format"; and the values it lets through
		 * beside a format follow the format, not the pattern
		 * (tests/data/validate/zod-formats) */
		if ((k === "format" && "pattern" in p) ||
		    (k === "pattern" && "format" in p))
			ignored = true;
		if (ignored)
			ign.push({pointer: o.pointer, keyword: k});
	}
	return ign;
}

// The report's ignores, when `--check --json` gives them.
function reportIgnores(dir) {
	const r = spawnSync(opt.gptFcgi, ["--check", "--json", dir],
	    {encoding: "utf8"});
	try {
		const doc = JSON.parse(r.stdout);
		const d = (doc.decoders || []).find((x) => x.id === "xgrammar");
		/* each names the schema (pointer) and its keyword */
		if (d && Array.isArray(d.ignores))
			return d.ignores.map((x) => ({pointer: `${x.pointer.replace(
			    /^#/, "")}/${esc(x.keyword)}`, keyword: x.keyword}));
	} catch (e) {
	}
	return null;
}

// The form as xgrammar holds the actor to it: each ignored keyword
// removed (oneOf as the anyOf xgrammar makes of it).
function relaxed(schema, ignores) {
	const copy = JSON.parse(JSON.stringify(schema));
	const names = new Set(); /* identifiers xgrammar does not follow */
	for (const ig of ignores) {
		const toks = ig.pointer.split("/").slice(1).map((t) =>
		    t.replace(/~1/g, "/").replace(/~0/g, "~"));
		const key = toks.pop();
		let node = copy;
		for (const t of toks)
			node = node == null ? undefined : node[t];
		if (!node || typeof node !== "object" || !(key in node))
			continue;
		if (key === "oneOf" && !("anyOf" in node))
			node.anyOf = node.oneOf;
		if (["id", "$id", "$anchor", "$dynamicAnchor"].includes(key) &&
		    typeof node[key] === "string")
			names.add(node[key].startsWith("#") || key === "id" ||
			    key === "$id" ? node[key] : `#${node[key]}`);
		delete node[key];
	}
	/* a reference to an identifier it does not follow leaves the value
	 * free ({"$ref": "#rule"} beside a draft-04 "id": "#rule") */
	(function drop(x) {
		if (!x || typeof x !== "object")
			return;
		if (!Array.isArray(x) && typeof x.$ref === "string" &&
		    names.has(x.$ref))
			delete x.$ref;
		for (const v of Object.values(x))
			drop(v);
	})(copy);
	return copy;
}

// ----- the constrained random actor ----------------------------------------

const VOCAB = [];
for (let b = 0; b < 256; b++)
	VOCAB.push(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`);
VOCAB.push("</s>");
const EOS = 256;
const MAX_BYTES = 2048;
// " } ] the end, and the newline of the indented layout (never allowed
// inside a string, so always structure)
const CLOSERS = new Set([0x22, 0x7d, 0x5d, 0x0a, EOS]);

async function walkOnce(matcher, rnd) {
	const bytes = [];
	matcher.reset();
	for (let step = 0; step < MAX_BYTES; step++) {
		const mask = await matcher.getNextTokenBitmask();
		const allowed = [];
		for (let t = 0; t <= EOS; t++)
			if (mask[t >> 5] & (1 << (t & 31)))
				allowed.push(t);
		if (allowed.length === 0)
			return null;
		// a seeded choice, leaning to closing what is open as the
		// value grows, so it ends; control bytes and bytes past ASCII
		// rarely, as a model writes them, but never not at all
		const w = allowed.map((t) => CLOSERS.has(t) ? 1 + step / 8 :
		    t < 0x20 ? 0.02 : t < 0x80 ? 1 : 0.05);
		let x = rnd() * w.reduce((a, b) => a + b, 0), i = 0;
		while (x >= w[i] && i < w.length - 1)
			x -= w[i++];
		const t = allowed[i];
		if (!matcher.acceptToken(t))
			return null;
		if (t === EOS || matcher.isTerminated())
			return Buffer.from(bytes);
		bytes.push(t);
	}
	return null; /* did not end within MAX_BYTES */
}

// The bytes with each raw control character inside a string written as
// \u00XX: what the value would be had the decoder kept to RFC 8259
// section 7 (its string rule admits them).
function escapeControls(buf) {
	const out = [];
	let inString = false, escaped = false;
	for (const b of buf) {
		if (inString && !escaped && b < 0x20) {
			out.push(...Buffer.from(`\\u00${b.toString(16)
			    .padStart(2, "0")}`));
			continue;
		}
		if (inString && !escaped && b === 0x5c)
			escaped = true;
		else if (escaped)
			escaped = false;
		else if (b === 0x22)
			inString = !inString;
		out.push(b);
	}
	return Buffer.from(out);
}

// Why bytes the decoder let through are not JSON, or null: the checks
// are node's own (TextDecoder, JSON.parse), not the server's.
function notJson(buf) {
	let text;
	try {
		text = new TextDecoder("utf-8", {fatal: true}).decode(buf);
	} catch (e) {
		return "invalid UTF-8";
	}
	try {
		JSON.parse(text);
	} catch (e) {
		if (escapeControls(buf).length === buf.length)
			return "broken syntax";
		try {
			JSON.parse(escapeControls(buf).toString());
		} catch (e2) {
			return "broken syntax";
		}
		return "raw control characters in a string";
	}
	if (duplicateNames(text))
		return "a member name twice";
	/* RFC 8259 section 8.2: a \\u escape of half a surrogate pair is no
	 * character; JSON.parse keeps it as a lone UTF-16 unit */
	let lone = false;
	const lonely = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
	JSON.parse(text, function (k, v) {
		lone = lone || lonely.test(k) ||
		    (typeof v === "string" && lonely.test(v));
		return v;
	});
	return lone ? "an unpaired \\u surrogate" : null;
}

// Does a pattern of the form admit '"' or '\\' in a character class?
// xgrammar copies such a class into the string rule unescaped, and the
// value it lets through then breaks the JSON string (the styled-text
// href pattern "^https?://[!-~]+$").
function quotesInPatterns(schema) {
	for (const o of keywords(schema, "", [])) {
		if (o.keyword !== "pattern" || typeof o.value !== "string")
			continue;
		for (const cls of o.value.match(/\[(?:\\.|[^\]\\])*\]/g) || []) {
			try {
				const re = new RegExp(`^${cls}$`, "u");
				if (re.test('"') || re.test("\\"))
					return true;
			} catch (e) {
			}
		}
	}
	return false;
}

// A member name twice in one object (RFC 8259 section 4: names SHOULD be
// unique; the draft rejects the body), found by a small scanner of our
// own: JSON.parse keeps the last silently.
function duplicateNames(text) {
	const stack = [];
	let i = 0;
	while (i < text.length) {
		const c = text[i];
		if (c === '"') {
			let j = i + 1;
			while (j < text.length && text[j] !== '"')
				j += text[j] === "\\" ? 2 : 1;
			const top = stack[stack.length - 1];
			if (top && top.names && top.expectKey) {
				let name = text.slice(i, j + 1);
				try {
					name = JSON.parse(name);
				} catch (e) {
					/* a raw control character: the text is the name */
				}
				if (top.names.has(name))
					return true;
				top.names.add(name);
				top.expectKey = false;
			}
			i = j + 1;
			continue;
		}
		if (c === "{")
			stack.push({names: new Set(), expectKey: true});
		else if (c === "[")
			stack.push({});
		else if (c === "}" || c === "]")
			stack.pop();
		else if (c === "," && stack.length && stack[stack.length - 1].names)
			stack[stack.length - 1].expectKey = true;
		i++;
	}
	return false;
}

// The JSON the decoder meant: raw control characters escaped (the same
// code points, so lengths are judged as the decoder counted them).
function repaired(buf) {
	return escapeControls(buf);
}

// ----- the server -------------------------------------------------------------

function post(url, body) {
	return new Promise((resolve) => {
		const u = new URL(url);
		const req = http.request({host: u.hostname, port: u.port,
		    path: u.pathname, method: "POST", timeout: 20000, headers: {
		        "Content-Type": "application/json",
		        "Content-Length": body.length,
		        "GPT-Actor": "xgrammar-random-actor"}}, (res) => {
			const chunks = [];
			res.on("data", (c) => chunks.push(c));
			res.on("end", () => resolve({status: res.statusCode,
			    body: Buffer.concat(chunks).toString()}));
		});
		req.on("timeout", () => req.destroy(new Error("timeout")));
		req.on("error", (e) => resolve({status: 0, body: e.message}));
		req.end(body);
	});
}

let nvalid = 0, lastWhy = "";
function validate(schemaFile, bytes) {
	const f = path.join(opt.tmp, `actor-v-${nvalid++}.json`);
	fs.writeFileSync(f, bytes);
	const r = spawnSync(opt.gptFcgi, ["--validate", schemaFile, f],
	    {encoding: "utf8"});
	lastWhy = r.stderr.trim().replace(/^gpt.fcgi: /, "");
	return r.status === 0;
}

// ----- the independent opinion on faker's values -------------------------

let hj = null;
async function hyperjumpValid(schema, value) {
	if (hj === null) {
		/* each dialect's entry point registers that dialect */
		const dir = path.join(opt.modules, "@hyperjump/json-schema");
		const meta = JSON.parse(fs.readFileSync(path.join(dir,
		    "package.json"), "utf8"));
		for (const sub of ["./draft-04", "./draft-06", "./draft-07",
		    "./draft-2019-09", "./draft-2020-12"]) {
			let e = meta.exports[sub];
			while (typeof e === "object")
				e = e.import || e.default;
			hj = await import(require("url").pathToFileURL(
			    path.join(dir, e)).href);
		}
	}
	const uri = `https://gpt.test/actor/${nvalid++}`;
	try {
		let s = JSON.parse(JSON.stringify(schema));
		if (!s.$schema)
			s.$schema = "https://json-schema.org/draft/2020-12/schema";
		/* draft-07 and before ignore $ref's siblings; the library then
		 * cannot reach the definitions beside it: the same form with
		 * the reference in an allOf */
		if (/draft-0[467]/.test(s.$schema) && "$ref" in s) {
			s.allOf = [{$ref: s.$ref}];
			delete s.$ref;
		}
		hj.registerSchema(s, uri);
		return (await hj.validate(uri, value)).valid;
	} catch (e) {
		return null; /* the library cannot judge this form */
	} finally {
		try {
			hj.unregisterSchema(uri);
		} catch (e) {
		}
	}
}

// ----- per form ------------------------------------------------------------

async function main() {
	const list = fs.readFileSync(opt.list, "utf8").split("\n")
	    .filter((l) => l.trim() !== "").map((l) => l.split("\t"));
	const ti = await xgr.TokenizerInfo.createTokenizerInfo(VOCAB,
	    "byte_fallback", false, undefined, [EOS]);
	const compiler = await xgr.GrammarCompiler.createGrammarCompiler(ti);
	let failures = 0, source = null;
	const fail = (m) => {
		failures++;
		console.log(`FAIL: ${m}`);
	};
	const total = {produced: 0, accepted: 0, explained: 0, forms: 0,
	    refused: 0, notjson: {}};
	for (const [name, dir] of list) {
		const doc = JSON.parse(fs.readFileSync(path.join(dir, "form.json"),
		    "utf8"));
		const schema = doc.s;
		const url = `${opt.base}/${name}`;
		let ignores = reportIgnores(dir);
		source = ignores === null ? "the table's xgrammar row" :
		    "--check --json";
		if (ignores === null)
			ignores = rowIgnores(schema);
		const relaxedFile = path.join(opt.tmp, `${name}-relaxed.json`);
		fs.writeFileSync(relaxedFile, JSON.stringify(relaxed(schema,
		    ignores)));
		const schemaFile = path.join(opt.tmp, `${name}-s.json`);
		fs.writeFileSync(schemaFile, JSON.stringify(schema));
		const ignNames = [...new Set(ignores.map((x) => x.keyword))];
		const quoteClasses = quotesInPatterns(schema);

		// the decoder
		let grammar = null, why = "";
		try {
			grammar = await compiler.compileJSONSchema(
			    JSON.stringify(schema), false);
		} catch (e) {
			why = String(e && e.message ? e.message : e).split("\n")[0];
		}
		const fig = {produced: 0, accepted: 0, explained: 0,
		    unfinished: 0, notjson: {}, repairedOk: 0};
		if (grammar !== null) {
			const matcher = await xgr.GrammarMatcher
			    .createGrammarMatcher(grammar);
			const rnd = prng(Number(opt.seed) ^ name.length * 7919);
			for (let i = 0; i < opt.values; i++) {
				const v = await walkOnce(matcher, rnd);
				if (v === null) {
					fig.unfinished++;
					continue;
				}
				fig.produced++;
				let r = await post(url, v), bytes = v;
				let bad = r.status === 422 &&
				    /not strict JSON/.test(r.body) ? notJson(v) : null;
				if (bad === "raw control characters in a string" &&
				    duplicateNames(new TextDecoder("utf-8").decode(v)))
					bad = "a member name twice";
				if (bad === "broken syntax" && !quoteClasses)
					bad = null; /* no reason we know of */
				if (bad === "broken syntax")
					bad = "a pattern's '\"' or '\\' unescaped";
				if (bad === "a member name twice" ||
				    bad === "invalid UTF-8" ||
				    bad === "an unpaired \\u surrogate" ||
				    bad === "a pattern's '\"' or '\\' unescaped") {
					/* no JSON to judge again: which member counts,
					 * or which characters the bytes meant, is what
					 * the draft refuses to guess */
					fig.notjson[bad] = (fig.notjson[bad] || 0) + 1;
					total.notjson[bad] = (total.notjson[bad] || 0) + 1;
					fig.explained++;
					continue;
				}
				if (bad !== null) {
					/* not JSON: the decoder's string rule over
					 * bytes, not a keyword, explains it; the JSON
					 * it meant (the controls escaped) must then
					 * pass as any value would */
					fig.notjson[bad] = (fig.notjson[bad] || 0) + 1;
					total.notjson[bad] = (total.notjson[bad] || 0) + 1;
					fig.explained++;
					bytes = repaired(v);
					r = await post(url, bytes);
					if (r.status === 200)
						fig.repairedOk++;
				}
				if (r.status === 200) {
					if (bad === null)
						fig.accepted++;
				} else if (r.status === 422 && ignores.length > 0 &&
				    validate(relaxedFile, bytes)) {
					if (bad === null)
						fig.explained++;
				} else {
					fail(`${name}: xgrammar's value rejected ` +
					    `(${r.status} ${r.body.slice(0, 200)}), ` +
					    (ignores.length === 0 ?
					        "and xgrammar ignores no keyword of it" :
					        "not explained by what it ignores " +
					        `(${ignNames.join(", ")}: without them, ` +
					        `${lastWhy})`) +
					    `: ${v.toString().slice(0, 300)}`);
				}
			}
			matcher.dispose();
			grammar.dispose();
		} else {
			total.refused++;
		}

		// --sample: all accepted
		let sampled = 0, sampleOk = 0;
		const smp = spawnSync(opt.gptFcgi, ["--sample", "--count",
		    String(opt.values), "--seed", String(opt.seed), dir],
		    {encoding: "utf8"});
		for (const line of smp.stdout.split("\n").filter((l) => l)) {
			sampled++;
			const r = await post(url, Buffer.from(line));
			if (r.status === 200)
				sampleOk++;
			else
				fail(`${name}: --sample's value rejected ` +
				    `(${r.status} ${r.body}): ${line}`);
		}
		if (smp.status !== 0)
			fail(`${name}: --sample exit ${smp.status}: ${smp.stderr}`);

		// json-schema-faker: accepted, or faker's own mistake
		let faked = 0, fakeOk = 0, fakeWrong = 0;
		jsf.option({random: prng(Number(opt.seed)), maxItems: 4,
		    maxLength: 16, failOnInvalidTypes: false,
		    failOnInvalidFormat: false, refDepthMax: 4});
		for (let i = 0; i < opt.values; i++) {
			let v;
			try {
				v = jsf.generate(JSON.parse(JSON.stringify(schema)));
			} catch (e) {
				continue; /* faker cannot make one */
			}
			if (v === undefined)
				continue;
			faked++;
			const text = JSON.stringify(v);
			const r = await post(url, Buffer.from(text));
			if (r.status === 200) {
				fakeOk++;
				continue;
			}
			const other = await hyperjumpValid(schema, v);
			/* the library leaves format unasserted: a format the
			 * server refuses is confirmed by the format's own rule */
			if ((other === false || (other === true &&
			    /"keyword":"format"/.test(r.body))) &&
			    !validate(schemaFile, text)) {
				fakeWrong++;
			} else {
				fail(`${name}: faker's value rejected (${r.status} ` +
				    `${r.body.slice(0, 200)}) though ` +
				    (other === null ? "no second opinion exists" :
				        "@hyperjump/json-schema accepts it") +
				    `: ${text.slice(0, 300)}`);
			}
		}

		total.forms++;
		total.produced += fig.produced;
		total.accepted += fig.accepted;
		total.explained += fig.explained;
		console.log(`${name}: xgrammar ` + (grammar === null && why ?
		    `refuses the form (${why.slice(0, 100)})` :
		    `produced ${fig.produced}, accepted ${fig.accepted}, ` +
		    `rejected-as-explained ${fig.explained}` +
		    (Object.keys(fig.notjson).length ? ` (of them not JSON: ${
		        Object.entries(fig.notjson).map(([k, n]) => `${n} ${k}`)
		        .join(", ")}` + (fig.notjson["raw control characters in " +
		        "a string"] ? `; with the controls escaped, ` +
		        `${fig.repairedOk} accepted, the rest explained` : "") +
		        ")" : "") +
		    (fig.unfinished ? `, ${fig.unfinished} did not end` : "")) +
		    `; ignores ${ignNames.length ? ignNames.join(", ") : "none"}` +
		    `; --sample ${sampleOk}/${sampled} accepted; faker ` +
		    `${fakeOk}/${faked} accepted` +
		    (fakeWrong ? `, ${fakeWrong} invalid (confirmed by ` +
		        "@hyperjump/json-schema)" : ""));
	}
	console.log(`actor: ${total.forms} forms (ignored keywords from ` +
	    `${source}): xgrammar produced ${total.produced}, accepted ` +
	    `${total.accepted}, rejected-as-explained ${total.explained}; ` +
	    `of them not JSON: ${JSON.stringify(total.notjson)}; ` +
	    `${total.refused} forms xgrammar refuses`);
	compiler.dispose();
	process.exit(failures === 0 ? 0 : 1);
}
main().catch((e) => {
	console.log(`FAIL: ${e.stack}`);
	process.exit(1);
});
