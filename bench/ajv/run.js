// run.js: the ajv baseline of the validator, formats and dialects
// benchmarks.  JSON.parse + ajv's compiled validator, in the form's own
// dialect: ajv/dist/2020 (JSON Schema 2020-12), or with --draft-07 ajv's
// default class (draft-07).  With --formats, ajv-formats in "full" mode
// (the exact checks, not "fast") asserts `format`, as the formats
// benchmark needs.  Throughput and time are per CPU second of the process
// (the garbage collector's threads included), as the C benchmarks measure
// their own.
//   node run.js [--formats] [--draft-07] SCHEMA BODY...
//       median MB/s of ROUNDS rounds on each body file (the same bytes
//       the C benchmark measures); prints "BODY MB/s" per body
//   node run.js [--formats] [--draft-07] --compile RUNS SCHEMA
//       ajv's compile of the parsed schema, on a new Ajv instance each
//       run (its cache would otherwise answer the second); prints the
//       median ms of RUNS runs
'use strict';
const fs = require('fs');

const ROUNDS = 9;
const ROUND_SECONDS = 0.15;

const args = process.argv.slice(2);
let formats = false;
let draft07 = false;
let compileRuns = 0;
for (;;) {
  if (args[0] === '--formats') {
    formats = true;
    args.shift();
  } else if (args[0] === '--draft-07') {
    draft07 = true;
    args.shift();
  } else if (args[0] === '--compile') {
    compileRuns = Number(args[1]);
    args.splice(0, 2);
  } else {
    break;
  }
}
const Ajv = draft07 ? require('ajv') : require('ajv/dist/2020');
const [schemaPath, ...bodies] = args;
const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));

function newAjv() {
  const ajv = new Ajv({ allErrors: false });
  if (formats) require('ajv-formats')(ajv, { mode: 'full' });
  return ajv;
}

function seconds(fn) {
  const t = process.cpuUsage();
  fn();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1e6;
}

function medianOf(x) {
  x.sort((a, b) => a - b);
  return x[x.length >> 1];
}

if (compileRuns > 0) {
  const ms = [];
  for (let r = 0; r < compileRuns; r++) {
    const ajv = newAjv();
    ms.push(seconds(() => ajv.compile(schema)) * 1e3);
  }
  console.log(medianOf(ms).toFixed(3));
  process.exit(0);
}

const ajv = newAjv();
const validate = ajv.compile(schema);

function run(text, iters) {
  for (let i = 0; i < iters; i++) {
    if (!validate(JSON.parse(text))) {
      throw new Error('ajv rejects the body: ' + ajv.errorsText(validate.errors));
    }
  }
}

for (const path of bodies) {
  // Bytes as the server receives them, decoded as JSON.parse needs.
  const bytes = fs.readFileSync(path);
  const text = bytes.toString('utf8');
  let iters = 1;
  let t;
  for (;;) {
    t = seconds(() => run(text, iters));
    if (t > ROUND_SECONDS / 4 || iters > 1 << 28) break;
    iters *= 2;
  }
  iters = Math.floor(iters * (ROUND_SECONDS / t)) + 1;
  const mb = (bytes.length * iters) / 1e6;
  const rates = [];
  for (let r = 0; r < ROUNDS; r++) rates.push(mb / seconds(() => run(text, iters)));
  console.log(path + ' ' + medianOf(rates).toFixed(1));
}
