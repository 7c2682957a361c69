// diff.mjs: the page's check against the address, value by value.  For
// each form, the page gpt.fcgi serves (CGI, Accept: text/html) gives the
// script and the description exactly as a browser gets them; the
// script runs here in a bare context (no DOM: its core is the result);
// `gpt.fcgi --sample` gives values the form accepts, and each is mutated
// into near misses of one mistake each (a member dropped or added, a
// type swapped, a string or a list one too long, a number nudged past a
// bound, ...).  Every text is judged by the page (accept, reject, or
// unsure) and by `gpt.fcgi --validate` on the address.  Wherever the page
// says accept or reject it must agree with the address: one disagreement
// fails the run, with the form and the text.
//
//   node diff.mjs --gpt=PATH --tmp=DIR [--count=K] [--seed=S]
//                 [--script=FILE] FORM...
//
// --script runs that file instead of the page's script (to see the run
// fail on a check broken on purpose).
// A FORM is an address directory, or a schema file (wrapped into an
// address of its own); the files of its pass/ and fail/ beside it, when
// there are, are judged too.  Prints per form and in total: texts
// judged, agreements (accepted, rejected), unsure, disagreements.
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

const opt = {count: 30, seed: 1};
const forms = [];
for (const a of process.argv.slice(2)) {
  const m = /^--([a-z]+)=(.*)$/.exec(a);
  if (m) opt[m[1]] = m[2];
  else forms.push(a);
}
opt.count = Number(opt.count);
opt.seed = Number(opt.seed);

let state = opt.seed >>> 0;
function rand() {
  // mulberry32: one seed, one sequence
  state = (state + 0x6D2B79F5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (xs) => xs[Math.floor(rand() * xs.length)];

// The page of an address, as CGI serves it.
function pageOf(dir) {
  const r = spawnSync(opt.gpt, [], {env: {REQUEST_METHOD: 'GET', HTTP_ACCEPT: 'text/html', GPT_ADDRESS: dir, PATH: '/usr/bin:/bin'},
    maxBuffer: 64 << 20});
  const html = r.stdout.toString('utf8');
  const js = /<script>([\s\S]*?)<\/script>/.exec(html);
  const desc = /<script type="application\/json" id="gpt-form">([\s\S]*?)<\/script>/.exec(html);
  if (!js || !desc) return null;
  return {js: js[1], desc: desc[1]};
}

// The page's core, from the page's own script bytes.
function coreOf(js) {
  const ctx = vm.createContext({});
  vm.runInContext(js, ctx, {timeout: 10000});
  return ctx.gptPage;
}

// One-mistake mutations of a value (the core's values: numbers as Num).
function mutations(P, v, n) {
  const out = [];
  const paths = [];
  (function walk(x, p) {
    paths.push(p);
    if (p.length > 40) return;
    if (Array.isArray(x)) x.forEach((y, k) => walk(y, p.concat([k])));
    else if (x !== null && typeof x === 'object' && !(x instanceof P.Num)) Object.keys(x).forEach((k) => walk(x[k], p.concat([k])));
  })(v, []);
  const clone = (x) => P.parse(P.stringify(x, 0));
  const get = (x, p) => p.reduce((y, k) => y[k], x);
  function set(x, p, y) {
    if (p.length === 0) return y;
    const parent = get(x, p.slice(0, -1));
    Object.defineProperty(parent, p[p.length - 1], {value: y, enumerable: true, writable: true, configurable: true});
    return x;
  }
  const num = (t) => new P.Num(t);
  const swaps = [null, true, false, '', 'x', num('0'), num('-1'), num('1.5'), num('1e400'), num('9007199254740993'),
    P.parse('{}'), [], P.parse('{"zz": 1}'), ['x']];
  for (let k = 0; k < n; k++) {
    const x = clone(v);
    const p = pick(paths);
    const at = get(x, p);
    const t = P.typeOf(at);
    let y;
    const r = rand();
    if (r < 0.25) {
      y = pick(swaps);
    } else if (t === 'string') {
      y = pick([at + 'x', at + 'x'.repeat(300), '', at.slice(1), at + '\u00e9', ' ' + at, at.toUpperCase(), '2026-02-30',
        'not-a-uuid', 'https://example.org/x', 'a@b', '999.1.1.1', 'QUJD', 'QUI=', 'QUJ=']);
    } else if (t === 'number' || t === 'integer') {
      const d = at.text;
      y = num(pick([d + '1', '-' + d.replace(/^-/, ''), d.replace(/^-/, '') + '.5', d + 'e2', d + '.0', '0', '-0', '1', '100',
        d.replace(/^-/, '') + '00', '2147483648', '-2147483649', '3.4028236e38', '0.001', '0.015', '12.50']).replace(/^--/, '-').replace(/^(-?)0+(?=\d)/, '$1'));
    } else if (t === 'array') {
      const c = rand();
      if (c < 0.35 && at.length) at.push(clone(at[at.length - 1]));
      else if (c < 0.6 && at.length) at.pop();
      else if (c < 0.8) at.push(pick(swaps));
      else at.unshift(clone(at.length ? at[0] : null));
      y = at;
    } else if (t === 'object') {
      const keys = Object.keys(at);
      const c = rand();
      if (c < 0.4 && keys.length) delete at[pick(keys)];
      else if (c < 0.7) set(at, ['zz_extra'], pick(swaps));
      else if (c < 0.85 && keys.length) { const k2 = pick(keys); set(at, [k2.toUpperCase() + '_'], at[k2]); }
      else set(at, [pick(['kind', 'type', 'style', 'id', 'name'])], 'other');
      y = at;
    } else {
      y = pick(swaps);
    }
    try {
      out.push(P.stringify(set(x, p, y), rand() < 0.5 ? 0 : 2));
    } catch (e) {
      // a number text made invalid by the mutation: not an act
    }
  }
  return out.filter((t) => { try { P.parse(t); return true; } catch (e) { return false; } });
}

function validate(dir, text, k) {
  const f = path.join(opt.tmp, `act-${k}.json`);
  fs.writeFileSync(f, text);
  const r = spawnSync(opt.gpt, ['--validate', dir, f], {stdio: ['ignore', 'ignore', 'pipe']});
  return r.status === 0 ? 'accept' : r.status === 1 ? 'reject' : 'error ' + r.status + ' ' + r.stderr.toString().trim();
}

const total = {texts: 0, accept: 0, reject: 0, unsure: 0, disagree: 0, forms: 0};
let k = 0;
const shown = [];
for (const f of forms) {
  let dir = f;
  const name = path.basename(f) === 'schema.json' ? path.basename(path.dirname(f)) : path.basename(f);
  if (fs.statSync(f).isFile()) {
    dir = path.join(opt.tmp, 'addr-' + name);
    fs.mkdirSync(dir, {recursive: true});
    fs.writeFileSync(path.join(dir, 'form.json'), JSON.stringify({p: name, m: [], s: JSON.parse(fs.readFileSync(f, 'utf8'))}));
  }
  const check = spawnSync(opt.gpt, ['--check', dir], {stdio: 'ignore'});
  if (check.status !== 0) { console.log(`${name}: the address does not load (skipped)`); continue; }
  const page = pageOf(dir);
  if (!page) { console.log(`FAIL: ${name}: no page`); total.disagree++; continue; }
  const P = coreOf(opt.script ? fs.readFileSync(opt.script, 'utf8') : page.js);
  const checker = new P.Checker(P.readDescription(page.desc));
  const sample = spawnSync(opt.gpt, ['--sample', '--count', String(opt.count), '--seed', String(opt.seed), dir], {maxBuffer: 64 << 20});
  const texts = new Set();
  for (const line of sample.stdout.toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    texts.add(line);
    for (const m of mutations(P, P.parse(line), 6)) texts.add(m);
  }
  const base = fs.statSync(f).isFile() ? path.dirname(f) : f;
  for (const sub of ['pass', 'fail']) {
    const d = path.join(base, sub);
    if (fs.existsSync(d)) for (const g of fs.readdirSync(d).sort()) texts.add(fs.readFileSync(path.join(d, g), 'utf8'));
  }
  const c = {texts: 0, accept: 0, reject: 0, unsure: 0, disagree: 0};
  for (const text of texts) {
    const address = validate(dir, text, k++);
    if (address.startsWith('error')) { console.log(`FAIL: ${name}: --validate: ${address}`); c.disagree++; continue; }
    let page;
    try { page = checker.judge(text); } catch (e) { page = {verdict: 'threw ' + e.message, problems: []}; }
    c.texts++;
    if (page.verdict === 'unsure') c.unsure++;
    else if (page.verdict === address) c[address]++;
    else {
      c.disagree++;
      if (shown.length < 30) shown.push(`FAIL: ${name}: page ${page.verdict}, address ${address}: ${text.length > 300 ? text.slice(0, 300) + '...' : text}` +
        (page.problems.length ? ` (page: ${page.problems.map((e) => e.ptr + ' ' + e.keyword).join(', ')})` : ''));
    }
  }
  console.log(`${name}: ${c.texts} texts, ${c.accept} accepted and ${c.reject} rejected by both, ${c.unsure} unsure, ${c.disagree} disagreements`);
  for (const key of Object.keys(c)) total[key] += c[key];
  total.forms++;
}
for (const s of shown) console.log(s);
console.log(`page-diff: ${total.forms} forms, ${total.texts} texts, ${total.accept + total.reject} judged by the page ` +
  `(${total.accept} accepted, ${total.reject} rejected, as the address did), ${total.unsure} unsure, ${total.disagree} disagreements`);
process.exit(total.disagree === 0 && total.forms > 0 ? 0 : 1);
