// unroll.js: the property --unroll promises, checked with the real
// validator.  For recursive forms of several shapes (a tree, a linked
// list, mutual recursion, a recursive root, the styled-text shape with
// anyOf, a draft-07 form with definitions) and N = 1..3: every value of
// depth <= N is judged the same by the original form and the unrolled
// one (valid values and values with one mistake planted at a random
// depth); every valid value of depth N + 1 is accepted by the original
// and rejected by the unrolled form.
//
//   node unroll.js GPT_FCGI TMPDIR [SEED]
//
// Prints one line per form and N, "FAIL: ..." lines for each
// disagreement; exit 0 when there are none.
"use strict";
const fs = require("fs");
const path = require("path");
const {spawnSync} = require("child_process");

const [bin, tmp, seedArg] = process.argv.slice(2);
let seed = Number(seedArg || 20261201) >>> 0;
// mulberry32: small, seeded, the same sequence everywhere
function rnd() {
	seed = (seed + 0x6d2b79f5) >>> 0;
	let t = seed;
	t = Math.imul(t ^ (t >>> 15), t | 1);
	t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
	return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (n) => Math.floor(rnd() * n);
const word = () => ["a", "bb", "ccc", "", "x y"][pick(5)];

// Each shape: the form, and gen(d) giving a valid value of recursion
// depth exactly d (d >= 1), as the unrolled form counts levels.
const shapes = {
	tree: {
		form: {$defs: {node: {type: "object", required: ["v"],
		    properties: {v: {type: "integer"}, kids: {type: "array",
		        items: {$ref: "#/$defs/node"}}},
		    additionalProperties: false}}, $ref: "#/$defs/node"},
		gen(d) {
			const n = {v: pick(100)};
			if (d > 1) {
				n.kids = [];
				const k = 1 + pick(3), deep = pick(k);
				for (let i = 0; i < k; i++)
					n.kids.push(this.gen(i === deep ? d - 1 :
					    1 + pick(d - 1)));
			} else if (rnd() < 0.5) {
				n.kids = [];
			}
			return n;
		},
	},
	list: {
		form: {$defs: {cell: {type: "object", required: ["head", "tail"],
		    properties: {head: {type: "string"}, tail: {anyOf: [
		        {type: "null"}, {$ref: "#/$defs/cell"}]}},
		    additionalProperties: false}}, $ref: "#/$defs/cell"},
		gen(d) {
			return {head: word(), tail: d > 1 ? this.gen(d - 1) : null};
		},
	},
	mutual: {
		form: {$defs: {a: {type: "array", maxItems: 3,
		    items: {$ref: "#/$defs/b"}}, b: {type: "object",
		    properties: {x: {$ref: "#/$defs/a"}, y: {type: "boolean"}},
		    additionalProperties: false}}, $ref: "#/$defs/a"},
		gen(d) {
			const k = d > 1 ? 1 + pick(3) : pick(4), deep = pick(k);
			const a = [];
			for (let i = 0; i < k; i++) {
				const b = rnd() < 0.5 ? {y: true} : {};
				if (d > 1 && (i === deep || rnd() < 0.3))
					b.x = this.gen(i === deep ? d - 1 :
					    1 + pick(d - 1));
				a.push(b);
			}
			return a;
		},
	},
	root: {
		form: {type: "object", required: ["name"], properties: {
		    name: {type: "string", maxLength: 5}, sub: {$ref: "#"}},
		    additionalProperties: false},
		gen(d) {
			const n = {name: word()};
			if (d > 1)
				n.sub = this.gen(d - 1);
			return n;
		},
	},
	styled: {
		form: {type: "object", required: ["nodes"],
		    additionalProperties: false,
		    properties: {nodes: {type: "array",
		        items: {$ref: "#/$defs/node"}}},
		    $defs: {text: {type: "string", maxLength: 10},
		        node: {anyOf: [{$ref: "#/$defs/text"},
		            {$ref: "#/$defs/span"}]},
		        span: {type: "object", required: ["style", "children"],
		            additionalProperties: false, properties: {
		                style: {enum: ["bold", "code"]},
		                children: {type: "array",
		                    items: {$ref: "#/$defs/node"}}}}}},
		node(d) {
			if (d === 1 && rnd() < 0.6)
				return word();
			const s = {style: rnd() < 0.5 ? "bold" : "code",
			    children: []};
			if (d > 1) {
				const k = 1 + pick(3), deep = pick(k);
				for (let i = 0; i < k; i++)
					s.children.push(this.node(i === deep ?
					    d - 1 : 1 + pick(d - 1)));
			}
			return s;
		},
		// the top-level nodes array is outside the recursion
		gen(d) {
			const k = 1 + pick(2);
			const nodes = [this.node(d)];
			for (let i = 1; i < k; i++)
				nodes.push(this.node(1 + pick(d)));
			return {nodes};
		},
	},
	draft07: {
		form: {$schema: "http://json-schema.org/draft-07/schema#",
		    definitions: {node: {type: "object", properties: {
		        kids: {type: "array",
		            items: {$ref: "#/definitions/node"}}}}},
		    $ref: "#/definitions/node"},
		gen(d) {
			return d > 1 ? {kids: [this.gen(d - 1)]} :
			    (rnd() < 0.5 ? {} : {kids: []});
		},
	},
};

// One mistake at a random place of v: a leaf of the wrong type, or an
// extra member; the mutated copy, which may or may not still be valid.
function mutate(v) {
	const c = JSON.parse(JSON.stringify(v));
	const spots = [];
	(function walk(x, parent, key) {
		spots.push([parent, key, x]);
		if (Array.isArray(x))
			x.forEach((e, i) => walk(e, x, i));
		else if (x && typeof x === "object")
			for (const k of Object.keys(x))
				walk(x[k], x, k);
	})(c, null, null);
	const [parent, key, x] = spots[pick(spots.length)];
	const bad = [17, "s", null, true, [], {}][pick(6)];
	if (x && typeof x === "object" && !Array.isArray(x) && rnd() < 0.5) {
		x.extra = bad;
		return c;
	}
	if (parent === null)
		return bad;
	parent[key] = bad;
	return c;
}

function accepts(schemaFile, value, n) {
	const f = path.join(tmp, `value-${n}.json`);
	fs.writeFileSync(f, JSON.stringify(value));
	const r = spawnSync(bin, ["--validate", schemaFile, f],
	    {encoding: "utf8"});
	if (r.status !== 0 && r.status !== 1)
		throw new Error(`--validate ${schemaFile}: exit ${r.status}: ` +
		    r.stderr);
	return r.status === 0;
}

let failures = 0, count = 0;
const PER_DEPTH = 12;
for (const [name, shape] of Object.entries(shapes)) {
	const orig = path.join(tmp, `${name}.json`);
	fs.writeFileSync(orig, JSON.stringify(shape.form));
	for (let n = 1; n <= 3; n++) {
		const r = spawnSync(bin, ["--unroll", String(n), orig],
		    {encoding: "utf8"});
		if (r.status !== 0) {
			console.log(`FAIL: ${name}: --unroll ${n} exit ` +
			    `${r.status}: ${r.stderr}`);
			failures++;
			continue;
		}
		const unrolled = path.join(tmp, `${name}-${n}.json`);
		fs.writeFileSync(unrolled, r.stdout);
		let same = 0, cut = 0, rejected = 0;
		for (let d = 1; d <= n + 1; d++) {
			for (let i = 0; i < PER_DEPTH; i++) {
				const valid = shape.gen(d);
				const values = [valid, mutate(valid)];
				for (const v of values) {
					const a = accepts(orig, v, count++);
					const b = accepts(unrolled, v, count++);
					const txt = JSON.stringify(v);
					if (v === valid && !a) {
						console.log(`FAIL: ${name}: the ` +
						    `generator's depth-${d} value ` +
						    `is rejected by the original: ${txt}`);
						failures++;
					} else if (d <= n && a !== b) {
						console.log(`FAIL: ${name} N=${n}: ` +
						    `depth ${d}: original ${a}, ` +
						    `unrolled ${b}: ${txt}`);
						failures++;
					} else if (d === n + 1 && v === valid && b) {
						console.log(`FAIL: ${name} N=${n}: ` +
						    `depth ${d} accepted by the ` +
						    `unrolled form: ${txt}`);
						failures++;
					} else if (d <= n) {
						same++;
						rejected += a ? 0 : 1;
					} else if (v === valid) {
						cut++;
					}
				}
			}
		}
		console.log(`${name} N=${n}: ${same} values of depth <= ${n} ` +
		    `judged alike ` +
		    `(${rejected} rejected by both), ${cut} of depth ${n + 1} cut`);
	}
}
process.exit(failures === 0 ? 0 : 1);
