// run.js: the baseline of the validator and formats benchmarks.
// JSON.parse + ajv's compiled JSON Schema 2020-12 validator
// (ajv/dist/2020), median MB/s of ROUNDS rounds on each body file, the
// same bytes the C benchmark measures.  With --formats, ajv-formats in
// "full" mode (the exact checks, not "fast") asserts `format`, as the
// formats benchmark needs.  Throughput is per CPU second.
//   node run.js [--formats] SCHEMA BODY...   prints "BODY MB/s" per body
'use strict';
const fs = require('fs');
const Ajv2020 = require('ajv/dist/2020');

const ROUNDS = 9;
const ROUND_SECONDS = 0.15;

const args = process.argv.slice(2);
const formats = args[0] === '--formats';
if (formats) args.shift();
const [schemaPath, ...bodies] = args;
const ajv = new Ajv2020({ allErrors: false });
if (formats) require('ajv-formats')(ajv, { mode: 'full' });
const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaPath, 'utf8')));

function run(text, iters) {
  for (let i = 0; i < iters; i++) {
    if (!validate(JSON.parse(text))) {
      throw new Error('ajv rejects the body: ' + ajv.errorsText(validate.errors));
    }
  }
}

// CPU time of the process (all its threads, the garbage collector's
// included), as the C benchmark measures its own.
function seconds(fn) {
  const t = process.cpuUsage();
  fn();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1e6;
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
  rates.sort((a, b) => a - b);
  console.log(path + ' ' + rates[ROUNDS >> 1].toFixed(1));
}
