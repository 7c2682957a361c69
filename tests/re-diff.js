// re-diff.js: the pattern layer against ECMA-262, differentially.
//
// A seeded generator writes patterns over the whole u-mode grammar
// (literals, escapes, classes and ranges, dot, anchors, quantifiers lazy
// and greedy, groups, named groups, back-references, lookarounds, \p{...})
// with some syntax errors mixed in, and strings for each: random ones from
// a pool of code points, and ones built from the pattern (a sample of what
// it matches, then mutated).  tests/re_batch judges them with gpt.fcgi's
// pattern layer, node's RegExp with the "u" flag judges them too, and the
// two must agree:
//   - a pattern node rejects must be refused;
//   - a pattern refused as "unsupported" (valid ECMA-262 that PCRE2 cannot
//     match exactly: fail closed) is counted and listed by reason;
//   - every string of an accepted pattern gets the same answer, except a
//     match limit (fail closed, counted).
// Strings use code points assigned before Unicode 14.0.0 (the version of
// PCRE2 10.42's tables; see the README), so \p{...} is compared where the
// two versions agree.
//
// usage: node re-diff.js RE_BATCH [count [seed]]
// Exit status: 0 when they agree, 1 on a disagreement, 2 on a broken run.
'use strict';
const { spawnSync } = require('child_process');

const tool = process.argv[2];
const COUNT = Number(process.argv[3] || 4000);
const SEED = Number(process.argv[4] || 20240614);
const STRINGS = 14; // per pattern

// mulberry32: small, seeded, reproducible
let state = SEED >>> 0;
function rnd() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (n) => Math.floor(rnd() * n);
const pick = (a) => a[int(a.length)];
const chance = (p) => rnd() < p;

// Code points for strings: ASCII and its neighbours, the spaces and line
// terminators ECMA-262 names, and ranges of scripts, symbols and emoji
// that were assigned long before Unicode 14.
const SPECIAL = [0x0, 0x8, 0x9, 0xa, 0xb, 0xc, 0xd, 0x20, 0x2d, 0x2f, 0x5c,
  0x5f, 0x85, 0xa0, 0x1680, 0x180e, 0x2000, 0x2005, 0x200a, 0x200b, 0x2028,
  0x2029, 0x202f, 0x205f, 0x3000, 0xfeff, 0x663, 0xe9, 0xc9, 0x3b1, 0x391,
  0x430, 0x5d0, 0x627, 0x915, 0x301, 0x4e00, 0xac00, 0x1f600, 0x1f44d,
  0x1d400, 0x10348, 0xe000, 0xfffd, 0x10ffff, 0x2160, 0x24b6, 0x1e9e];
const RANGES = [[0x20, 0x7e], [0x20, 0x7e], [0x0, 0x1f], [0xa0, 0x2ff],
  [0x370, 0x3ff], [0x400, 0x4ff], [0x590, 0x6ff], [0x900, 0x97f],
  [0x1e00, 0x1fff], [0x2000, 0x206f], [0x2100, 0x23ff], [0x3000, 0x30ff],
  [0x4e00, 0x9fa5], [0xac00, 0xd7a3], [0xfe30, 0xfe4f], [0x1d400, 0x1d4ff],
  [0x1f300, 0x1f5ff], [0x10000, 0x1007f]];
function randomCp() {
  if (chance(0.35)) return pick(SPECIAL);
  const [lo, hi] = pick(RANGES);
  return lo + int(hi - lo + 1);
}

// --- the pattern generator ---------------------------------------------
// Each generator returns [source, sampler]; the sampler returns a string
// the node probably matches (a guess: the engines decide).
const LITERALS = ['a', 'b', 'c', 'x', 'Z', '0', '7', ' ', '-', '_', '/',
  ',', '=', '@', '#', '%', '&', '~', '"', "'", '<', '>', '!', ':', 'é',
  'α', 'Ж', '中', '😀', '\u2028', '\n', '\t', '\u00a0'];
const SYNTAX = '^$\\.*+?()[]{}|/';
const ESCAPES = [
  ['\\d', () => String(int(10))], ['\\D', () => 'a'],
  ['\\w', () => pick(['a', 'Z', '_', '5'])], ['\\W', () => pick([' ', 'é', '-'])],
  ['\\s', () => pick([' ', '\t', '\n', '\v', '\f', '\u00a0', '\u2028', '\ufeff', '\u3000'])],
  ['\\S', () => pick(['a', '\u200b', '\u0085', '\u180e'])],
  ['\\t', () => '\t'], ['\\n', () => '\n'], ['\\v', () => '\v'],
  ['\\f', () => '\f'], ['\\r', () => '\r'], ['\\0', () => '\0'],
  ['\\cJ', () => '\n'], ['\\ca', () => '\x01'], ['\\x41', () => 'A'],
  ['\\x7f', () => '\x7f'], ['\\u0041', () => 'A'], ['\\u00e9', () => 'é'],
  ['\\u{1F600}', () => '😀'], ['\\u{61}', () => 'a'], ['\\u{0000000062}', () => 'b'],
  ['\\uD83D\\uDE00', () => '😀'], ['\\uD800', () => ''], ['\\u{DC00}', () => ''],
  ['\\uDE00', () => ''], ['\\/', () => '/'], ['\\\\', () => '\\'],
  ['\\.', () => '.'], ['\\*', () => '*'], ['\\(', () => '('], ['\\[', () => '['],
  ['\\]', () => ']'], ['\\{', () => '{'], ['\\}', () => '}'], ['\\|', () => '|'],
  ['\\^', () => '^'], ['\\$', () => '$'], ['\\?', () => '?'], ['\\+', () => '+'],
];
const PROPS = ['L', 'Lu', 'Ll', 'Letter', 'Uppercase_Letter', 'LC', 'N', 'Nd',
  'digit', 'P', 'punct', 'S', 'Sm', 'Z', 'Zs', 'Cc', 'cntrl', 'Cf', 'Cn',
  'Co', 'Cs', 'M', 'Mn', 'Combining_Mark', 'gc=Lu', 'General_Category=Nd',
  'sc=Greek', 'Script=Latin', 'sc=Grek', 'scx=Arab', 'Script_Extensions=Cyrillic',
  'sc=Han', 'scx=Hira', 'sc=Zyyy', 'Script=Inherited', 'sc=Zinh',
  'ASCII', 'Any', 'Assigned', 'Alphabetic', 'Alpha', 'White_Space', 'space',
  'Emoji', 'Emoji_Presentation', 'Extended_Pictographic', 'ID_Start', 'IDC',
  'Uppercase', 'Lower', 'Hex_Digit', 'AHex', 'Math', 'Dash', 'Ideographic',
  'Diacritic', 'Cased', 'CI', 'Pattern_White_Space', 'Noncharacter_Code_Point',
  'Default_Ignorable_Code_Point', 'Regional_Indicator', 'Changes_When_Lowercased'];
// Syntax errors (in u-mode) and PCRE2-only syntax: all must be refused.
const BAD = ['{', '}', ']', 'a**', '*', '(?i)', '(?>a)', 'a*+', '\\Q',
  '\\E', '\\a', '\\e', '\\z', '\\A', '\\Z', '\\h', '\\R', '\\X', '\\K',
  '\\N', '\\-', '\\8', '\\01', '\\c1', '\\c', '\\x4', '\\u12', '\\u{110000}',
  '\\u{}', '[z-a]', '[\\d-z]', '[a-\\w]', '[\\1]', '[\\B]', '[\\c_]',
  '(?<1a>x)', '(?<a>x)(?<a>y)', '\\k<zz>', '\\k', '\\p{Greek}',
  '\\p{sc=Nope}', '\\p{L&}', '\\p{letter}', '\\p{Digit}', '\\pL', '\\p{L',
  '(?=a)*', '(?<=a)+', '^*', '\\b?', 'a{,3}', 'a{2,1}', '(a', 'a)', '[a',
  '(?P<n>a)', '(?#c)', '(?|a)', '\\g1', '(*ACCEPT)', '[[:alpha:]]', 'x{1}{2}',
  '\\p{Block=Basic_Latin}', '(?<a>x)\\k<b>', '\\p{gc=Greek}', '\\p{sc=L}'];

let groups = 0; // capturing groups opened so far in this pattern
let names = [];

function genLiteral() {
  const c = pick(LITERALS);
  return [c, () => c];
}

function genClassAtom() {
  const r = int(10);
  if (r < 4) {
    const c = pick(LITERALS.concat(['[', '^', '{', '(', '.', '*', '|', '$']));
    return [c === '^' ? '\\^' : c, () => c];
  }
  if (r < 7) { const e = pick(ESCAPES); return e; }
  if (r < 8) return ['\\b', () => '\b'];
  if (r < 9) return ['\\-', () => '-'];
  const p = pick(PROPS);
  return [(chance(0.7) ? '\\p{' : '\\P{') + p + '}', () => 'a'];
}

function genClass() {
  const neg = chance(0.3);
  const n = chance(0.08) ? 0 : 1 + int(4);
  let src = neg ? '[^' : '[';
  const samples = [];
  for (let i = 0; i < n; i++) {
    if (chance(0.35)) {
      // a range of two code points (surrogate escapes included)
      const ends = [['a', 'z'], ['0', '9'], ['A', 'F'], ['\\u00e0', '\\u00ff'],
        ['\\x00', '\\x1f'], ['α', 'ω'], ['\\uD83D\\uDE00', '\\uD83D\\uDE4F'],
        ['\\u{1F300}', '\\u{1F5FF}'], ['\\uD800', '\\uDFFF'], ['\\u{D7FF}', '\\u{E000}'],
        [' ', '~'], ['-', '/'], ['\\-', '\\/'], ['\\cA', '\\cZ'], ['!', '-']];
      const [lo, hi] = pick(ends);
      src += lo + '-' + hi;
      samples.push(() => pick(['a', 'm', '5', 'é', 'β', '😀', '🌀', '\x05', '-', '.']));
    } else {
      const [s, f] = genClassAtom();
      src += s;
      samples.push(f);
    }
  }
  if (chance(0.1)) src += '-';
  src += ']';
  return [src, () => (samples.length && !neg ? pick(samples)() : String.fromCodePoint(randomCp()))];
}

function genAtom(depth) {
  const r = int(100);
  if (r < 25) return genLiteral();
  if (r < 40) return pick(ESCAPES);
  if (r < 52) return genClass();
  if (r < 57) return ['.', () => String.fromCodePoint(randomCp())];
  if (r < 62) {
    const p = pick(PROPS);
    const neg = chance(0.3);
    return [(neg ? '\\P{' : '\\p{') + p + '}',
      () => (neg ? '!' : pick(['a', 'Z', 'α', 'Ж', '1', '中', '😀', ' ', '_']))];
  }
  if (r < 70 && groups > 0) {
    // a back-reference, perhaps to a group after it or to none
    const n = 1 + int(groups + 1);
    if (names.length && chance(0.3)) return ['\\k<' + pick(names) + '>', () => ''];
    return ['\\' + n, () => ''];
  }
  if (depth <= 0) return genLiteral();
  const kind = int(10);
  const [inner, s] = genDisjunction(depth - 1);
  if (kind < 3) { groups++; return ['(' + inner + ')', s]; }
  if (kind < 5) return ['(?:' + inner + ')', s];
  if (kind < 6) {
    groups++;
    const name = pick(['a', 'b', 'n1', '_x', '$d', 'Name']) + (names.length ? names.length : '');
    names.push(name);
    return ['(?<' + name + '>' + inner + ')', s];
  }
  if (kind < 7) return ['(?=' + inner + ')', () => ''];
  if (kind < 8) return ['(?!' + inner + ')', () => ''];
  if (kind < 9) return ['(?<=' + inner + ')', () => ''];
  return ['(?<!' + inner + ')', () => ''];
}

function genQuantifier() {
  const q = pick(['*', '+', '?', '*', '+', '?', '{2}', '{0}', '{1}', '{1,}',
    '{0,2}', '{2,3}', '{3,}', '{1,1}', '{0,1}']);
  const lazy = chance(0.25) ? '?' : '';
  let lo = 0, hi = 3;
  const m = /^\{(\d+)(,(\d*))?\}$/.exec(q);
  if (q === '+') lo = 1;
  else if (q === '?') hi = 1;
  else if (m) { lo = +m[1]; hi = m[2] ? (m[3] ? +m[3] : lo + 2) : lo; }
  return [q + lazy, lo, hi];
}

function genTerm(depth) {
  const r = int(100);
  if (r < 4) return ['^', () => ''];
  if (r < 8) return ['$', () => ''];
  if (r < 11) return [chance(0.5) ? '\\b' : '\\B', () => ''];
  if (r < 13) return [pick(BAD), () => ''];
  const [a, s] = genAtom(depth);
  if (chance(0.35)) {
    const [q, lo, hi] = genQuantifier();
    return [a + q, () => {
      let out = '';
      const n = lo + int(hi - lo + 1);
      for (let i = 0; i < n; i++) out += s();
      return out;
    }];
  }
  return [a, s];
}

function genAlternative(depth) {
  const n = int(4) + (chance(0.5) ? 1 : 0);
  const terms = [];
  for (let i = 0; i < n; i++) terms.push(genTerm(depth));
  return [terms.map((t) => t[0]).join(''), () => terms.map((t) => t[1]()).join('')];
}

function genDisjunction(depth) {
  const alts = [genAlternative(depth)];
  while (chance(0.25) && alts.length < 4) alts.push(genAlternative(depth));
  return [alts.map((a) => a[0]).join('|'), () => pick(alts)[1]()];
}

function genPattern() {
  groups = 0;
  names = [];
  let [src, sample] = genDisjunction(2 + int(2));
  if (chance(0.3)) src = '^' + src;
  if (chance(0.3)) src = src + '$';
  return [src, sample];
}

// Valid Unicode only (a UTF-8 subject holds no surrogate).
function clean(s) {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (c < 0xd800 || c > 0xdfff) out += ch;
  }
  return [...out].slice(0, 24).join('');
}

function mutate(s) {
  const cps = [...s];
  const r = int(4);
  const at = int(cps.length + 1);
  if (r === 0) cps.splice(at, 0, String.fromCodePoint(randomCp()));
  else if (r === 1 && cps.length) cps.splice(at % cps.length, 1);
  else if (r === 2 && cps.length) cps[at % cps.length] = String.fromCodePoint(randomCp());
  else cps.push(pick(['\n', ' ', 'a', '😀', cps[0] || '']));
  return cps.join('');
}

function strings(src, sample) {
  const out = new Set(['']);
  const lits = [...src].filter((c) => !SYNTAX.includes(c));
  for (let i = 0; i < 4; i++) out.add(clean(sample()));
  for (const s of [...out]) out.add(clean(mutate(s)));
  while (out.size < STRINGS) {
    let s = '';
    const n = int(7);
    for (let i = 0; i < n; i++) {
      s += chance(0.5) && lits.length ? pick(lits) : String.fromCodePoint(randomCp());
    }
    out.add(clean(s));
  }
  return [...out];
}

// --- the run -------------------------------------------------------------
const hardcoded = [
  // the reproducers of the known mismatches, always in the corpus
  ['^\\v$', ['\n', '\v', '\r']], ['^[\\v]$', ['\n', '\v', '\u2028']],
  ['^(?:(a)|b)+\\1$', ['aba', 'ab', 'aa']], ['^\\1+(a)$', ['a', 'aa']],
  ['a[]*', ['a', '']], ['a[^]*b', ['a\nb', 'ab']], ['^\\uD83D\\uDE00$', ['😀']],
  ['^[\\uD83D\\uDE00-\\uD83D\\uDE4F]+$', ['😀🙏', '😀a']], ['^[^\\uD800]$', ['a', '😀']],
  ['^\\uD800?a', ['a']], ['(a)|\\1b', ['b', 'xb']], ['^\\1(a)$', ['a', 'aa']],
  ['^(a\\1)$', ['a', 'aa']], ['^(?<n>.)\\k<n>$', ['aa', 'ab']], ['^[\\S]+$', ['\u00a0', 'a']],
  ['^[^\\S]$', ['\u3000', 'a']], ['^\\s$', ['\ufeff', '\u0085', '\u180e']],
  ['^.$', ['\u2028', '\r', '\u0085']], ['^\\p{Lu}\\P{Lu}$', ['Aa', 'AA']],
  ['^\\p{Script=Greek}+$', ['αβγ', 'abc']], ['^\\p{Any}$', ['😀']],
  ['^\\p{Assigned}$', ['a', '\u0378']], ['^\\b\\w+\\b$', ['abc', 'é']],
  ['(?<=\\$)\\d+', ['$12', '12']], ['(?<!a)b', ['ab', 'cb']], ['^a{2,3}?$', ['aa', 'aaaa']],
  ['^(?=(a+))a*b\\1$', ['aaab', 'aaaba']], ['^(?!(a))\\1b$', ['b', 'ab']],
  ['^\\cj$', ['\n']], ['^\\0$', ['\0']], ['^[\\b]$', ['\b']], ['\\Bx', ['ax', 'x']],
  ['^[\\d-]+$', ['1-2', 'a']], ['^[--/]$', ['.', 'a']], ['^[a-b-c]$', ['-', 'c', 'B']],
];
const corpus = [];
for (const [p, ss] of hardcoded) corpus.push([p, ss.map(clean)]);
for (let i = 0; i < COUNT; i++) {
  const [src, sample] = genPattern();
  corpus.push([src, strings(src, sample)]);
}

// the batch, in re_batch's record format
const parts = [];
for (const [p, ss] of corpus) {
  const pb = Buffer.from(p, 'utf8');
  parts.push(Buffer.from(`P ${pb.length}\n`), pb, Buffer.from(`\nS ${ss.length}\n`));
  for (const s of ss) {
    const sb = Buffer.from(s, 'utf8');
    parts.push(Buffer.from(`${sb.length}\n`), sb, Buffer.from('\n'));
  }
}
const t0 = Date.now();
const run = spawnSync(tool, [], { input: Buffer.concat(parts), maxBuffer: 1 << 28 });
if (run.status !== 0) {
  console.error('re-diff: re_batch failed:', run.status, String(run.stderr));
  process.exit(2);
}
const lines = String(run.stdout).split('\n');
const ms = Date.now() - t0;

// ECMA-262's RegExp.prototype.test: RegExpBuiltinExec tries each start
// index and, with the "u" flag, steps by code point (AdvanceStringIndex),
// so no match starts between the two halves of a surrogate pair.  V8's
// own search does try there ("\\B" matches "B\u{1F40A}B" at index 2),
// so the reference is the spec's loop over a sticky RegExp.
function ecmaTest(rxy, s) {
  for (let i = 0; ; ) {
    rxy.lastIndex = i;
    if (rxy.test(s)) return true;
    if (i >= s.length) return false;
    i += s.codePointAt(i) > 0xffff ? 2 : 1;
  }
}
let v8Differs = 0;

let checked = 0, limits = 0, bothRefused = 0, accepted = 0;
const suspects = [];
const unsupported = new Map();
const bad = [];
corpus.forEach(([p, ss], i) => {
  const line = lines[i] || '';
  let rx = null, rxy = null, nodeErr = null;
  try {
    rx = new RegExp(p, 'u');
    rxy = new RegExp(p, 'uy');
  } catch (e) { nodeErr = e.message; }
  if (line.startsWith('R ')) {
    if (nodeErr !== null) { bothRefused++; return; }
    const why = line.slice(2).replace(/ at offset \d+/, '').trim();
    if (!why.startsWith('unsupported')) {
      bad.push(`valid ECMA-262 refused as invalid: ${JSON.stringify(p)}: ${why}`);
      return;
    }
    unsupported.set(why, (unsupported.get(why) || 0) + 1);
    return;
  }
  if (nodeErr !== null) {
    bad.push(`accepted a pattern ECMA-262 rejects: ${JSON.stringify(p)} (${nodeErr})`);
    return;
  }
  accepted++;
  const got = line.slice(2);
  if (got.length !== ss.length) {
    bad.push(`re_batch answered ${got.length} of ${ss.length} for ${JSON.stringify(p)}`);
    return;
  }
  ss.forEach((s, j) => {
    if (got[j] === 'L') { limits++; return; }
    const want = ecmaTest(rxy, s) ? '1' : '0';
    if (rx.test(s) !== (want === '1')) v8Differs++;
    checked++;
    if (got[j] !== want) suspects.push([p, s, want, got[j]]);
  });
});

// A disagreement on a pattern with \p{...} is the documented difference
// of Unicode versions when, for one of its properties and one code point
// of the string, PCRE2's table and node's differ: ask both.
const probes = [];
for (const [p, s] of suspects) {
  for (const m of p.matchAll(/\\[pP]\{([A-Za-z0-9_=]*)\}/g)) {
    for (const ch of s) probes.push(['^\\p{' + m[1] + '}$', ch]);
  }
}
const probeOut = probes.length === 0 ? [] : String(spawnSync(tool, [], {
  input: Buffer.concat(probes.flatMap(([p, ch]) => {
    const pb = Buffer.from(p), cb = Buffer.from(ch);
    return [Buffer.from(`P ${pb.length}\n`), pb, Buffer.from(`\nS 1\n${cb.length}\n`), cb, Buffer.from('\n')];
  })),
  maxBuffer: 1 << 26,
}).stdout).split('\n');
const tableDiffers = new Set();
probes.forEach(([p, ch], i) => {
  const line = probeOut[i] || '';
  if (line.startsWith('C ') && (line[2] === '1') !== new RegExp(p, 'u').test(ch)) tableDiffers.add(p + ch);
});
let versions = 0;
for (const [p, s, want, got] of suspects) {
  let excused = false;
  for (const m of p.matchAll(/\\[pP]\{([A-Za-z0-9_=]*)\}/g)) {
    for (const ch of s) if (tableDiffers.has('^\\p{' + m[1] + '}$' + ch)) excused = true;
  }
  if (excused) { versions++; continue; }
  bad.push(`${JSON.stringify(p)} on ${JSON.stringify(s)}: ECMA-262 ${want === '1' ? 'matches' : 'does not match'}, gpt.fcgi ${got === '1' ? 'matches' : got === '0' ? 'does not match' : 'errs'}`);
}

console.log(`re-diff: seed ${SEED}: ${corpus.length} patterns (${accepted} compiled, ` +
  `${bothRefused} rejected by both as syntax errors, ` +
  `${[...unsupported.values()].reduce((a, b) => a + b, 0)} refused as unsupported), ` +
  `${checked} strings compared, ${limits} hit a match limit; re_batch ${ms} ms`);
console.log(`  ${versions} answers differ only where Unicode 14.0.0's property tables and node's ` +
  `(Unicode ${process.versions.unicode}) differ (documented); ` +
  `node's own test() strays from ECMA-262 on ${v8Differs} (a match inside a surrogate pair)`);
for (const [why, n] of [...unsupported].sort((a, b) => b[1] - a[1])) {
  console.log(`  refused (fail closed) ${n}x: ${why}`);
}
if (bad.length) {
  console.log(`re-diff: ${bad.length} disagreements:`);
  for (const b of bad.slice(0, 40)) console.log('  ' + b);
  process.exit(1);
}
console.log('re-diff: no disagreement');
