// sample.js: --sample over many forms, every value checked again by
// `gpt.fcgi --validate` in its own process, and the variety --sample
// promises: each optional top-level member present in some values and
// absent in others, each top-level anyOf/oneOf branch and enum value
// reached.
//
//   node sample.js GPT_FCGI TMPDIR COUNT FORM...
//
// A FORM is a schema file or an address directory, optionally as
// DIALECT:PATH, or SUITE:DIALECT:DIR for the JSON-Schema-Test-Suite's
// files in DIR (each test group's schema is a form).  Forms the
// compiler refuses are counted, not failures; a form --sample cannot
// sample (exit 1) must say why on stderr.  Prints the figures; exit 0
// when every value was accepted and every promise held.
"use strict";
const fs = require("fs");
const path = require("path");
const {spawnSync} = require("child_process");

const [bin, tmp, countArg, ...args] = process.argv.slice(2);
const count = Number(countArg);
let forms = [], failures = 0, values = 0, sampled = 0, cannot = 0,
    refused = 0, n = 0;
const fail = (m) => {
	failures++;
	console.log("FAIL: " + m);
};

for (const a of args) {
	const m = /^SUITE:([^:]+):(.*)$/.exec(a);
	if (m) {
		for (const f of fs.readdirSync(m[2]).sort()) {
			if (!f.endsWith(".json"))
				continue;
			for (const g of JSON.parse(fs.readFileSync(
			    path.join(m[2], f)))) {
				const file = path.join(tmp, `suite-${n++}.json`);
				fs.writeFileSync(file, JSON.stringify(g.schema));
				forms.push({dialect: m[1], file,
				    name: `${f}: ${g.description}`});
			}
		}
		continue;
	}
	const d = /^([a-z0-9-]+):(.*)$/.exec(a);
	forms.push(d ? {dialect: d[1], file: d[2], name: d[2]} :
	    {file: a, name: a});
}

function schemaOf(form) {
	const st = fs.statSync(form.file);
	const doc = JSON.parse(fs.readFileSync(st.isDirectory() ?
	    path.join(form.file, "form.json") : form.file));
	return st.isDirectory() ? doc.s : doc;
}

function validate(form, text, k) {
	const f = path.join(tmp, `v-${k}.json`);
	fs.writeFileSync(f, text);
	return spawnSync(bin, ["--validate"].concat(form.dialect ?
	    ["--dialect", form.dialect] : []).concat([form.file, f]),
	    {encoding: "utf8"});
}

for (const form of forms) {
	const opts = form.dialect ? ["--dialect", form.dialect] : [];
	const r = spawnSync(bin, ["--sample", "--count", String(count),
	    "--seed", "42"].concat(opts).concat([form.file]),
	    {encoding: "utf8", maxBuffer: 1 << 28});
	if (r.status === 2) {
		refused++;
		continue;
	}
	if (r.status === 1) {
		cannot++;
		if (!/cannot sample: ./.test(r.stderr))
			fail(`${form.name}: exit 1 without a reason: ${r.stderr}`);
		continue;
	}
	if (r.status !== 0) {
		fail(`${form.name}: --sample exit ${r.status} ${r.stderr}`);
		continue;
	}
	sampled++;
	const lines = r.stdout.split("\n").filter((l) => l !== "");
	if (lines.length !== count)
		fail(`${form.name}: ${lines.length} values, not ${count}`);
	for (const line of lines) {
		const v = validate(form, line, values++);
		if (v.status !== 0)
			fail(`${form.name}: --validate rejects ${line}: ` +
			    v.stderr.trim());
	}
	// the promises, at the top level of object forms
	const s = schemaOf(form);
	const parsed = lines.map((l) => JSON.parse(l));
	if (s && typeof s === "object" && s.properties &&
	    count >= 8 && !s.$ref) {
		const req = new Set(s.required || []);
		for (const [k, sub] of Object.entries(s.properties)) {
			if (req.has(k) || sub === false || (sub && sub.not))
				continue;
			const here = parsed.filter((x) => x && typeof x ===
			    "object" && !Array.isArray(x) && k in x).length;
			if (here === 0 || here === parsed.length)
				fail(`${form.name}: optional member ${k} is in ` +
				    `${here} of ${parsed.length} values`);
		}
	}
	if (s && typeof s === "object" && Array.isArray(s.enum) &&
	    count >= 2 * s.enum.length) {
		const seen = new Set(parsed.map((x) => JSON.stringify(x)));
		for (const e of s.enum)
			if (!seen.has(JSON.stringify(e)))
				fail(`${form.name}: enum value ` +
				    `${JSON.stringify(e)} never sampled`);
	}
	for (const kw of ["anyOf", "oneOf"]) {
		// branches told apart by their const or type, when they have one
		const br = s && typeof s === "object" && Array.isArray(s[kw]) ?
		    s[kw] : null;
		if (!br || count < 4 * br.length || s.type)
			continue;
		br.forEach((b, i) => {
			if (!b || typeof b !== "object" || typeof b.type !==
			    "string" || Object.keys(b).length !== 1)
				return;
			const t = b.type;
			const is = (x) => t === "integer" ? Number.isInteger(x) :
			    t === "null" ? x === null : t === "array" ?
			    Array.isArray(x) : t === "object" ? x !== null &&
			    typeof x === "object" && !Array.isArray(x) :
			    typeof x === t;
			if (!parsed.some(is))
				fail(`${form.name}: ${kw} branch ${i} (${t}) ` +
				    "never reached");
		});
	}
}
console.log(`sample.js: ${forms.length} forms: ${sampled} sampled ` +
    `(${values} values, each accepted by --validate), ${cannot} cannot ` +
    `be sampled, ${refused} refused by the compiler`);
process.exit(failures === 0 ? 0 : 1);
