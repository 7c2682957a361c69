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
//     x-prompt).
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
if (!opt.gpt || !opt.modules || !opt.pkgs || !opt.work) {
	console.error("usage: corpus.mjs --gpt=BIN --modules=DIR --pkgs=DIR " +
	    "--work=DIR [--min=N] [--list]");
	process.exit(2);
}
mkdirSync(opt.work, { recursive: true });

function resolveExport(pkg, sub) {
	const dir = join(opt.modules, pkg);
	const meta = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
	let e = meta.exports?.[sub] ?? (sub === "." ? meta.main : undefined);
	while (e !== undefined && typeof e === "object")
		e = e.import ?? e.default;
	return pathToFileURL(join(dir, e)).href;
}
const HJ = "@hyperjump/json-schema";
const hj = await import(resolveExport(HJ, "."));
for (const d of ["./draft-04", "./draft-06", "./draft-07"])
	await import(resolveExport(HJ, d));

const pkgDir = (stem) => {
	const d = readdirSync(opt.pkgs).find((n) => n.startsWith(stem));
	return d === undefined ? null : join(opt.pkgs, d, "package");
};
const readJson = (f) => JSON.parse(readFileSync(f, "utf8"));
const DRAFT04 = "http://json-schema.org/draft-04/schema#";
const DRAFT07 = "http://json-schema.org/draft-07/schema#";

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

octokit();
asyncapi();
angular();

// ---- judging -------------------------------------------------------------

function gptLoad(f) {
	const r = spawnSync(opt.gpt, ["--validate",
	    ...f.refs.flatMap((x) => ["--refs", x]), f.file, "/dev/null"],
	    { encoding: "utf8" });
	if (r.status !== 2) return null;
	const line = r.stderr.split("\n").find((l) => l.includes("refused")) ??
	    r.stderr.split("\n")[0];
	return line;
}
function gptJudge(f, value) {
	const body = join(opt.work, "body.json");
	writeFileSync(body, JSON.stringify(value));
	const r = spawnSync(opt.gpt, ["--validate",
	    ...f.refs.flatMap((x) => ["--refs", x]), f.file, body],
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
			hj.registerSchema(f.schema, uri);
		return { v: await hj.validate(uri), uri };
	} catch (e) {
		return { err: e.message.split("\n")[0], uri };
	}
}

const causes = new Map();
let loaded = 0, judged = 0, agree = 0, stricter = 0, wider = 0, libRefused = 0;
const notes = [];
for (const f of forms) {
	const refusal = gptLoad(f);
	if (refusal !== null) {
		const c = cause(refusal);
		causes.set(c, (causes.get(c) ?? 0) + 1);
		if (opt.list) console.log(`refused: ${f.name}: ${refusal}`);
		continue;
	}
	loaded++;
	if (f.examples.length === 0) continue;
	const lib = await libCompile(f);
	if (lib.err !== undefined) {
		libRefused++;
		if (!shared.has(lib.uri))
			try { hj.unregisterSchema(lib.uri); } catch { /* never in */ }
		if (opt.list) console.log(`library refused: ${f.name}: ${lib.err}`);
		continue;
	}
	for (const x of f.examples) {
		const g = gptJudge(f, x);
		const l = lib.v(x).valid;
		judged++;
		if (g.ok === l) agree++;
		else if (!g.ok) {
			stricter++;
			notes.push(`stricter: ${f.name}: ${g.why}`);
		} else {
			wider++;
			notes.push(`WIDER: ${f.name}: gpt.fcgi accepts ` +
			    `${JSON.stringify(x).slice(0, 200)}, the library rejects`);
		}
	}
	if (!shared.has(lib.uri))
		hj.unregisterSchema(lib.uri);
}

const pct = (n, d) => d === 0 ? "-" : `${(100 * n / d).toFixed(1)}%`;
console.log(`wild: ${forms.length} forms (${forms.filter((f) =>
    f.examples.length).length} with shipped examples, ` +
    `${forms.reduce((n, f) => n + f.examples.length, 0)} examples)`);
console.log(`wild: loaded ${loaded} of ${forms.length} (${pct(loaded,
    forms.length)}); refused by cause:`);
for (const [c, n] of [...causes].sort((a, b) => b[1] - a[1]))
	console.log(`  ${String(n).padStart(5)}  ${c}`);
console.log(`wild: ${judged} examples judged by both: ${agree} agree ` +
    `(${pct(agree, judged)}), ${stricter} rejected by gpt.fcgi only, ` +
    `${wider} accepted by gpt.fcgi only; ${libRefused} loaded forms the ` +
    `library refuses`);
for (const n of notes) console.log(`  ${n}`);
let failed = wider;
if (forms.length < opt.min) {
	console.log(`FAIL: ${forms.length} forms, fewer than ${opt.min}`);
	failed++;
}
console.log(`${failed === 0 ? 1 : 0} passed, ${failed === 0 ? 0 : 1} failed`);
process.exit(failed === 0 ? 0 : 1);
