// strict.js: --strict-openai's rewrite accepts exactly what the form
// accepts.  For each qualifying form: values from --sample of the form
// and of the rewrite, and each with one mistake planted, are judged by
// `gpt.fcgi --validate` against both; any disagreement fails.
//
//   node strict.js GPT_FCGI TMPDIR
"use strict";
const fs = require("fs");
const path = require("path");
const {spawnSync} = require("child_process");
const [bin, tmp] = process.argv.slice(2);

const forms = {
	disjoint: {type: "object", additionalProperties: false,
	    required: ["kind", "shape", "n"], properties: {
	        kind: {oneOf: [{type: "string", maxLength: 5},
	            {type: "integer", minimum: 0}]},
	        shape: {oneOf: [
	            {type: "object", additionalProperties: false,
	                required: ["t", "r"], properties: {t: {const: "circle"},
	                    r: {type: "number", minimum: 0}}},
	            {type: "object", additionalProperties: false,
	                required: ["t", "w"], properties: {t: {const: "square"},
	                    w: {type: "number", maximum: 10}}}]},
	        n: {allOf: [{$ref: "#/$defs/count"}], description: "how many",
	            default: 3}},
	    $defs: {count: {type: "integer", minimum: 1, maximum: 9,
	        examples: [2]}}},
	draft04: {$schema: "http://json-schema.org/draft-04/schema#",
	    type: "object", additionalProperties: false, required: ["x", "y"],
	    properties: {x: {type: "number", minimum: 0, exclusiveMinimum: true,
	        maximum: 5, exclusiveMaximum: false},
	        y: {type: "array", items: {type: "string",
	            format: "date"}, maxItems: 3}}},
	rootref: {$defs: {o: {type: "object", additionalProperties: false,
	    required: ["a", "b"], properties: {a: {type: "string",
	        pattern: "^[a-c]+$"}, b: {type: ["integer", "null"]}}}},
	    $ref: "#/$defs/o"},
	recursive: {type: "object", additionalProperties: false,
	    required: ["name", "kids"], properties: {name: {type: "string",
	        maxLength: 4}, kids: {type: "array", maxItems: 2,
	        items: {$ref: "#"}}}},
};

let failures = 0, k = 0;
function judge(schema, text) {
	const f = path.join(tmp, `j-${k++}.json`);
	fs.writeFileSync(f, text);
	const r = spawnSync(bin, ["--validate", schema, f], {encoding: "utf8"});
	if (r.status > 1)
		throw new Error(`--validate ${schema}: ${r.stderr}`);
	return r.status === 0;
}
function mutate(v, i) {
	const c = JSON.parse(JSON.stringify(v));
	const spots = [];
	(function walk(x, parent, key) {
		spots.push([parent, key, x]);
		if (x && typeof x === "object")
			for (const key2 of Object.keys(x))
				walk(x[key2], x, Array.isArray(x) ? Number(key2) : key2);
	})(c, null, null);
	const [parent, key, x] = spots[(i * 7919) % spots.length];
	const bad = [17, "abcdefg", null, true, -1.5, {}][i % 6];
	if (x && typeof x === "object" && !Array.isArray(x) && i % 3 === 0) {
		x.extra = 1;
		return c;
	}
	if (parent === null)
		return bad;
	parent[key] = bad;
	return c;
}
for (const [name, s] of Object.entries(forms)) {
	const orig = path.join(tmp, `${name}.json`);
	fs.writeFileSync(orig, JSON.stringify(s));
	const r = spawnSync(bin, ["--strict-openai", orig], {encoding: "utf8"});
	if (r.status !== 0) {
		console.log(`FAIL: ${name}: --strict-openai exit ${r.status}: ` +
		    r.stderr);
		failures++;
		continue;
	}
	const rew = path.join(tmp, `${name}-strict.json`);
	fs.writeFileSync(rew, r.stdout);
	const values = [];
	for (const f of [orig, rew]) {
		const smp = spawnSync(bin, ["--sample", "--count", "30", f],
		    {encoding: "utf8"});
		if (smp.status !== 0) {
			console.log(`FAIL: ${name}: --sample ${f}: ${smp.stderr}`);
			failures++;
			continue;
		}
		for (const line of smp.stdout.split("\n").filter((l) => l))
			values.push(line);
	}
	const all = values.slice();
	values.forEach((v, i) => all.push(JSON.stringify(mutate(JSON.parse(v),
	    i))));
	let accepted = 0;
	for (const v of all) {
		const a = judge(orig, v), b = judge(rew, v);
		if (a !== b) {
			console.log(`FAIL: ${name}: the form says ${a}, the rewrite ` +
			    `${b}: ${v}`);
			failures++;
		}
		accepted += a ? 1 : 0;
	}
	console.log(`${name}: ${all.length} values judged alike by the form ` +
	    `and its rewrite (${accepted} accepted)`);
}
process.exit(failures === 0 ? 0 : 1);
