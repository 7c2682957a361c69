// corpus.mjs: real forms from npm packages, judged by gpt.fcgi and by
// @hyperjump/json-schema (make check-wild, tests/wild.sh).
//
// The packages (tests/wild/packages.txt: name, version, integrity) are
// fetched by tests/wild.sh with `npm pack` into the build tree and
// unpacked under --pkgs (DIR/<tarball stem>/package/...).  From them:
//   - every request body (application/json) of GitHub's OpenAPI
//     description (@octokit/openapi), a form of its own: the schema with
//     the components it reaches under definitions (OpenAPI 3.0's schema
//     object is draft-04's, with nullable), and the examples shipped
//     beside it;
//   - every AsyncAPI definition (@asyncapi/specs definitions/V/*.json,
//     draft-07, referring to each other by absolute URI: read through
//     --refs), with the examples the package ships for it
//     (examples/V/NAME.json), and every bundled AsyncAPI schema;
//   - every Angular schematic's options schema (@schematics/angular
//     */schema.json: draft-07, with Angular's $default, alias, visible,
//     x-prompt);
//   - generator outputs: the models of tests/wild/models/ (zod, TypeBox,
//     Pydantic), each turned into a JSON Schema at test time by its
//     library (z.toJSONSchema for the 2020-12 target, io output and
//     input, and the draft-07 target, io input;
//     TypeBox's types as built, served as draft-07 and as 2019-09;
//     Pydantic's model_json_schema or schema(), run by --python), with
//     instances made from each model's seeds and their near misses
//     (mutate() below), each also judged by the generator library itself
//     (zod's safeParse, TypeBox's Value.Check, Pydantic's parsing).
// Each form is loaded by gpt.fcgi --validate (exit 2 and its reason:
// refused) and compiled by the library; each example where both load is
// judged by both.  Prints the load rate by cause of refusal, the
// agreement, and, as the last line, "N passed, N failed": a failure is
// an example gpt.fcgi accepts and the library rejects (a form loaded
// wider than its author wrote), or a corpus smaller than --min forms.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, existsSync, writeFileSync }
    from "node:fs";
import { join, basename } from "node:path";
import { pathToFileURL } from "node:url";

const opt = { min: 200 };
for (const a of process.argv.slice(2)) {
	const [k, v] = a.replace(/^--/, "").split("=");
	opt[k] = k === "min" ? Number(v) : v;
}
if (!opt.gpt || !opt.modules || !opt.pkgs || !opt.work || !opt.models) {
	console.error("usage: corpus.mjs --gpt=BIN --modules=DIR --pkgs=DIR " +
	    "--work=DIR --models=DIR [--python=BIN] [--per=N] [--min=N] " +
	    "[--list]");
	process.exit(2);
}
mkdirSync(opt.work, { recursive: true });

function resolveExport(pkg, sub, dir = join(opt.modules, pkg)) {
	const meta = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
	let e = meta.exports?.[sub] ?? (sub === "." ? meta.main : undefined);
	while (e !== undefined && typeof e === "object")
		e = e.import ?? e.default;
	return pathToFileURL(join(dir, e)).href;
}
const HJ = "@hyperjump/json-schema";
const hj = await import(resolveExport(HJ, "."));
for (const d of ["./draft-04", "./draft-06", "./draft-07",
    "./draft-2019-09", "./draft-2020-12"])
	await import(resolveExport(HJ, d));

const pkgDir = (stem) => {
	const d = readdirSync(opt.pkgs).find((n) => n.startsWith(stem));
	return d === undefined ? null : join(opt.pkgs, d, "package");
};
const readJson = (f) => JSON.parse(readFileSync(f, "utf8"));
const DRAFT04 = "http://json-schema.org/draft-04/schema#";
const DRAFT07 = "http://json-schema.org/draft-07/schema#";
const DIALECT_URI = {
	"draft-07": "http://json-schema.org/draft-07/schema",
	"2019-09": "https://json-schema.org/draft/2019-09/schema",
	"2020-12": "https://json-schema.org/draft/2020-12/schema",
};

// ---- the forms ---------------------------------------------------------

const forms = []; // {name, file, refs: [arg], lib: [{uri, schema}], uri, examples}

function octokit() {
	const dir = pkgDir("octokit-openapi");
	if (dir === null) return;
	const doc = readJson(join(dir, "generated/api.github.com.json"));
	const comps = doc.components?.schemas ?? {};
	const out = join(opt.work, "octokit");
	mkdirSync(out, { recursive: true });
	const rewrite = (v, seen) => {
		if (Array.isArray(v)) return v.map((x) => rewrite(x, seen));
		if (v === null || typeof v !== "object") return v;
		const o = {};
		for (const [k, x] of Object.entries(v)) {
			if (k === "$ref" && typeof x === "string" &&
			    x.startsWith("#/components/schemas/")) {
				const name = x.slice("#/components/schemas/".length);
				seen.add(name);
				o[k] = "#/definitions/" + name;
			} else {
				o[k] = k === "example" || k === "enum" || k === "default"
				    ? x : rewrite(x, seen);
			}
		}
		return o;
	};
	for (const [path, ops] of Object.entries(doc.paths)) {
		for (const [method, op] of Object.entries(ops)) {
			const media = op?.requestBody?.content?.["application/json"];
			if (media?.schema === undefined) continue;
			const seen = new Set();
			const schema = rewrite(media.schema, seen);
			const defs = {};
			for (const queue = [...seen]; queue.length; ) {
				const n = queue.shift();
				if (n in defs || !(n in comps)) continue;
				const s2 = new Set();
				defs[n] = rewrite(comps[n], s2);
				for (const m of s2) if (!(m in defs)) queue.push(m);
			}
			const form = { $schema: DRAFT04, ...schema };
			if (Object.keys(defs).length) form.definitions = defs;
			const name = `${method}-${path}`.replace(/[^A-Za-z0-9._-]+/g, "_");
			const file = join(out, name + ".json");
			writeFileSync(file, JSON.stringify(form));
			const examples = Object.values(media.examples ?? {})
			    .filter((e) => e && "value" in e).map((e) => e.value);
			forms.push({ name: `@octokit/openapi ${method.toUpperCase()} ${path}`,
			    file, refs: [], lib: [], uri: `https://gpt.test/octokit/${name}`,
			    schema: form, examples });
		}
	}
}

function asyncapi() {
	const dir = pkgDir("asyncapi-specs");
	if (dir === null) return;
	const defsRoot = join(dir, "definitions");
	const all = [];
	for (const v of readdirSync(defsRoot))
		for (const f of readdirSync(join(defsRoot, v)))
			if (f.endsWith(".json"))
				all.push({ v, f, uri: `http://asyncapi.com/definitions/${v}/${f}`,
				    schema: readJson(join(defsRoot, v, f)) });
	// the bindings and extensions the definitions refer to, by the same
	// URI layout
	const extra = [];
	const walk = (d, uri) => {
		for (const e of readdirSync(d, { withFileTypes: true })) {
			if (e.isDirectory()) walk(join(d, e.name), `${uri}${e.name}/`);
			else if (e.name.endsWith(".json"))
				extra.push({ uri: uri + e.name,
				    schema: readJson(join(d, e.name)) });
		}
	};
	for (const sub of ["bindings", "extensions"])
		if (existsSync(join(dir, sub)))
			walk(join(dir, sub), `http://asyncapi.com/${sub}/`);
	const lib = [...all.map((d) => ({ uri: d.uri, schema: d.schema })),
	    ...extra.filter((x) => x.schema !== null &&
	        typeof x.schema === "object" && !Array.isArray(x.schema))];
	for (const d of all) {
		const ex = join(dir, "examples", d.v, d.f);
		forms.push({ name: `@asyncapi/specs definitions/${d.v}/${d.f}`,
		    file: join(defsRoot, d.v, d.f),
		    refs: [`http://asyncapi.com/definitions/=${defsRoot}`,
		        `http://asyncapi.com/bindings/=${join(dir, "bindings")}`,
		        `http://asyncapi.com/extensions/=${join(dir, "extensions")}`],
		    lib, uri: d.uri, schema: d.schema,
		    examples: existsSync(ex) ? [].concat(readJson(ex)) : [] });
	}
	for (const f of readdirSync(join(dir, "schemas")))
		if (f.endsWith(".json"))
			forms.push({ name: `@asyncapi/specs schemas/${f}`,
			    file: join(dir, "schemas", f), refs: [], lib: [],
			    uri: `https://gpt.test/asyncapi/${f}`,
			    schema: readJson(join(dir, "schemas", f)), examples: [] });
}

function angular() {
	const dir = pkgDir("schematics-angular");
	if (dir === null) return;
	const walk = (d, rel) => {
		for (const e of readdirSync(d, { withFileTypes: true })) {
			if (e.isDirectory()) walk(join(d, e.name), `${rel}${e.name}/`);
			else if (e.name === "schema.json")
				forms.push({ name: `@schematics/angular ${rel}schema.json`,
				    file: join(d, e.name), refs: [], lib: [],
				    uri: `https://gpt.test/angular/${rel}schema.json`,
				    schema: readJson(join(d, e.name)), examples: [] });
		}
	};
	walk(dir, "");
}


// ---- generator outputs -----------------------------------------------------

// Near misses of a seed, deterministic: at each node down to depth 3 the
// node replaced by a value of each other JSON type, an object's member
// removed or one added, an array shortened, lengthened or given an item
// of another type.
function mutate(seed) {
	const out = [];
	const clone = (v) => JSON.parse(JSON.stringify(v));
	const at = (root, path, fn) => {
		const r = clone(root);
		if (path.length === 0) return fn(r);
		let p = r;
		for (const k of path.slice(0, -1)) p = p[k];
		const last = path[path.length - 1];
		const v = fn(p[last]);
		if (v === undefined) {
			if (Array.isArray(p)) p.splice(last, 1); else delete p[last];
		} else p[last] = v;
		return r;
	};
	const walk = (v, path) => {
		if (path.length > 3) return;
		for (const alt of [null, 0, 1.5, -1, "", "x", true, [], {}])
			if (JSON.stringify(alt) !== JSON.stringify(v))
				out.push(at(seed, path, () => clone(alt)));
		if (typeof v === "string") {
			out.push(at(seed, path, (s) => s + s));
			out.push(at(seed, path, (s) => s.toUpperCase()));
		}
		if (typeof v === "number") {
			out.push(at(seed, path, (n) => n + 1));
			out.push(at(seed, path, (n) => -n));
		}
		if (Array.isArray(v)) {
			if (v.length) out.push(at(seed, path, (a) => a.slice(0, -1)));
			if (v.length) out.push(at(seed, path, (a) => [...a, a[0]]));
			out.push(at(seed, path, (a) => [...a, "x"]));
			v.forEach((x, i) => walk(x, [...path, i]));
		} else if (v !== null && typeof v === "object") {
			for (const k of Object.keys(v))
				out.push(at(seed, [...path, k], () => undefined));
			out.push(at(seed, path, (o) => ({ ...o, unexpected: 1 })));
			for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
		}
	};
	walk(seed, []);
	return out;
}

// A model's instances: its seeds, then near misses of them, at most
// opt.per (24 unless told) in all, taken evenly from the list.
function instances(seeds) {
	const per = Number(opt.per ?? 24);
	const seen = new Set();
	const all = [];
	for (const v of [...seeds, ...seeds.flatMap(mutate)]) {
		const k = JSON.stringify(v);
		if (!seen.has(k)) { seen.add(k); all.push(v); }
	}
	if (all.length <= per) return all;
	const rest = all.slice(seeds.length);
	const n = per - seeds.length;
	return [...seeds, ...Array.from({ length: n },
	    (_, i) => rest[Math.floor(i * rest.length / n)])];
}

function genForm(lib, name, dialect, schema, examples, verdicts) {
	const out = join(opt.work, "gen");
	mkdirSync(out, { recursive: true });
	const stem = `${lib}-${name}-${dialect}`.replace(/[^A-Za-z0-9._-]+/g, "_");
	const file = join(out, stem + ".json");
	writeFileSync(file, JSON.stringify(schema));
	forms.push({ name: `${lib} ${name} (${dialect})`, file, refs: [], lib: [],
	    uri: `https://gpt.test/gen/${stem}.json`, schema, dialect,
	    examples, verdicts, generator: lib });
}

async function zod() {
	const dir = pkgDir("zod-");
	if (dir === null) return;
	const { z } = await import(resolveExport("zod", ".", dir));
	const { models } = await import(pathToFileURL(join(opt.models,
	    "zod.mjs")).href);
	for (const m of models(z)) {
		const xs = instances(m.seeds);
		const verdicts = xs.map((x) => m.schema.safeParse(x).success);
		// the output's schema (defaults required, objects closed) and
		// the input's, which is what a request body is parsed as
		for (const [target, dialect, io] of [
		    ["draft-2020-12", "2020-12", "output"],
		    ["draft-2020-12", "2020-12", "input"],
		    ["draft-7", "draft-07", "input"]])
			genForm("zod", `${m.name} ${io}`, dialect,
			    z.toJSONSchema(m.schema, { target, io }), xs, verdicts);
	}
}

async function typebox() {
	const dir = pkgDir("sinclair-typebox-");
	if (dir === null) return;
	const tb = await import(resolveExport("@sinclair/typebox", ".", dir));
	const { Value } = await import(resolveExport("@sinclair/typebox",
	    "./value", dir));
	const { models, formats } = await import(pathToFileURL(join(opt.models,
	    "typebox.mjs")).href);
	formats(tb.FormatRegistry);
	for (const m of models(tb.Type)) {
		const xs = instances(m.seeds);
		const verdicts = xs.map((x) => Value.Check(m.schema, x));
		const schema = JSON.parse(JSON.stringify(m.schema));
		for (const dialect of ["draft-07", "2019-09"])
			genForm("@sinclair/typebox", m.name, dialect, schema, xs,
			    verdicts);
	}
}

function pydantic() {
	if (!opt.python) return;
	const script = join(opt.models, "pydantic_models.py");
	const r = spawnSync(opt.python, [script, "schemas"],
	    { encoding: "utf8", maxBuffer: 1 << 26 });
	if (r.status !== 0) {
		console.log(`FAIL: ${script} schemas: ${r.stderr.trim()}`);
		genFailed++;
		return;
	}
	const ms = JSON.parse(r.stdout);
	const todo = Object.fromEntries(ms.map((m) => [m.name,
	    instances(m.seeds)]));
	const j = spawnSync(opt.python, [script, "judge"],
	    { input: JSON.stringify(todo), encoding: "utf8",
	      maxBuffer: 1 << 26 });
	if (j.status !== 0) {
		console.log(`FAIL: ${script} judge: ${j.stderr.trim()}`);
		genFailed++;
		return;
	}
	const verdicts = JSON.parse(j.stdout);
	for (const m of ms)
		genForm(`pydantic ${m.version}`, m.name, m.dialect, m.schema,
		    todo[m.name], verdicts[m.name]);
}

let genFailed = 0;
octokit();
asyncapi();
angular();
await zod();
await typebox();
pydantic();

// ---- judging -------------------------------------------------------------

// A generator's output has no $schema (TypeBox, Pydantic): its dialect
// is named to gpt.fcgi as an address's `dialect` names it, and to the
// library as the context dialect.
const gptOpts = (f) => [...(f.dialect ? ["--dialect", f.dialect] : []),
    ...f.refs.flatMap((x) => ["--refs", x])];
function gptLoad(f) {
	const r = spawnSync(opt.gpt, ["--validate", ...gptOpts(f), f.file,
	    "/dev/null"],
	    { encoding: "utf8" });
	if (r.status !== 2) return null;
	const line = r.stderr.split("\n").find((l) => l.includes("refused")) ??
	    r.stderr.split("\n")[0];
	return line;
}
function gptJudge(f, value) {
	const body = join(opt.work, "body.json");
	writeFileSync(body, JSON.stringify(value));
	const r = spawnSync(opt.gpt, ["--validate", ...gptOpts(f), f.file, body],
	    { encoding: "utf8" });
	return { ok: r.status === 0, why: r.stderr.trim().split("\n").pop() };
}

// The cause of a refusal, as a short class of its reason.
function cause(reason) {
	let m;
	if ((m = /unknown keyword "([^"]*)"/.exec(reason)))
		return m[1] === "nullable" || m[1] === "discriminator"
		    ? `keyword ${m[1]} (refused with a fix)` : `unknown keyword ${m[1]}`;
	if ((m = /unknown format "([^"]*)"/.exec(reason)))
		return `unknown format ${m[1]}`;
	if ((m = /keyword "([^"]*)" is not part of/.exec(reason)))
		return `keyword ${m[1]} of another dialect`;
	if (/names nothing/.test(reason)) return "reference names nothing";
	if (/not absolute/.test(reason)) return "relative $id without base";
	if (/invalid pattern|unsupported pattern/.test(reason))
		return "pattern";
	return reason.replace(/^.*schema refused at [^:]*: /, "").slice(0, 60);
}

// The library: the shared documents (the AsyncAPI definitions) once, each
// other form under a URI of its own, unregistered after.
const shared = new Set();
for (const f of forms)
	for (const x of f.lib)
		if (!shared.has(x.uri)) {
			shared.add(x.uri);
			hj.registerSchema(x.schema, x.uri);
		}
let libSerial = 0;
async function libCompile(f) {
	const uri = shared.has(f.uri) ? f.uri : `${f.uri}-${++libSerial}`;
	try {
		if (!shared.has(uri))
			hj.registerSchema(f.schema, uri, f.dialect === undefined
			    ? undefined : DIALECT_URI[f.dialect]);
		return { v: await hj.validate(uri), uri };
	} catch (e) {
		return { err: e.message.split("\n")[0], uri };
	}
}

// Counts per source: the packages' shipped forms, and each generator's.
const groups = new Map();
const group = (f) => {
	const k = f.generator ?? "shipped forms";
	if (!groups.has(k))
		groups.set(k, { forms: 0, withEx: 0, examples: 0, loaded: 0,
		    causes: new Map(), judged: 0, agree: 0, stricter: 0, wider: 0,
		    libRefused: 0, genJudged: 0, genLib: 0, genGpt: 0 });
	return groups.get(k);
};
const notes = [];
for (const f of forms) {
	const g0 = group(f);
	g0.forms++;
	if (f.examples.length) g0.withEx++;
	g0.examples += f.examples.length;
	const refusal = gptLoad(f);
	if (refusal !== null) {
		const c = cause(refusal);
		g0.causes.set(c, (g0.causes.get(c) ?? 0) + 1);
		if (opt.list) console.log(`refused: ${f.name}: ${refusal}`);
		continue;
	}
	g0.loaded++;
	if (f.examples.length === 0) continue;
	const lib = await libCompile(f);
	if (lib.err !== undefined) {
		g0.libRefused++;
		if (!shared.has(lib.uri))
			try { hj.unregisterSchema(lib.uri); } catch { /* never in */ }
		if (opt.list) console.log(`library refused: ${f.name}: ${lib.err}`);
		continue;
	}
	f.examples.forEach((x, i) => {
		const g = gptJudge(f, x);
		const l = lib.v(x).valid;
		g0.judged++;
		if (f.verdicts !== undefined) {
			g0.genJudged++;
			if (f.verdicts[i] === l) g0.genLib++;
			if (f.verdicts[i] === g.ok) g0.genGpt++;
			if (opt.list && f.verdicts[i] !== l)
				console.log(`generator and library differ: ${f.name}: ` +
				    `${JSON.stringify(x).slice(0, 160)}: ${f.generator} ` +
				    `${f.verdicts[i]}, library ${l}`);
		}
		if (g.ok === l) g0.agree++;
		else if (!g.ok) {
			g0.stricter++;
			notes.push(`stricter: ${f.name}: ${g.why}`);
		} else {
			g0.wider++;
			notes.push(`WIDER: ${f.name}: gpt.fcgi accepts ` +
			    `${JSON.stringify(x).slice(0, 200)}, the library rejects`);
		}
	});
	if (!shared.has(lib.uri))
		hj.unregisterSchema(lib.uri);
}

const pct = (n, d) => d === 0 ? "-" : `${(100 * n / d).toFixed(1)}%`;
let wider = 0, total = 0;
for (const [k, g] of groups) {
	total += g.forms;
	wider += g.wider;
	console.log(`wild: ${k}: ${g.forms} forms (${g.withEx} with ` +
	    `examples, ${g.examples} examples)`);
	console.log(`wild: ${k}: loaded ${g.loaded} of ${g.forms} ` +
	    `(${pct(g.loaded, g.forms)}); refused by cause:`);
	for (const [c, n] of [...g.causes].sort((a, b) => b[1] - a[1]))
		console.log(`  ${String(n).padStart(5)}  ${c}`);
	console.log(`wild: ${k}: ${g.judged} examples judged by both: ` +
	    `${g.agree} agree (${pct(g.agree, g.judged)}), ${g.stricter} ` +
	    `rejected by gpt.fcgi only, ${g.wider} accepted by gpt.fcgi only; ` +
	    `${g.libRefused} loaded forms the library refuses`);
	if (g.genJudged)
		console.log(`wild: ${k}: the generator's own verdict agrees with ` +
		    `the library on ${g.genLib} of ${g.genJudged} ` +
		    `(${pct(g.genLib, g.genJudged)}), with gpt.fcgi on ${g.genGpt}`);
}
const shown = opt.list ? notes : notes.filter((n) => n.startsWith("WIDER"))
    .concat(notes.filter((n) => !n.startsWith("WIDER")).slice(0, 20));
for (const n of shown) console.log(`  ${n}`);
if (shown.length < notes.length)
	console.log(`  (${notes.length - shown.length} more; --list shows all)`);
let failed = wider + genFailed;
if (total < opt.min) {
	console.log(`FAIL: ${total} forms, fewer than ${opt.min}`);
	failed++;
}
console.log(`${failed === 0 ? 1 : 0} passed, ${failed === 0 ? 0 : 1} failed`);
process.exit(failed === 0 ? 0 : 1);
