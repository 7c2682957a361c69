// unit.mjs: the page script's core in node: its JSON reader and writer,
// its exact decimals, its check (the words it says, where, and whether
// it is sure) and its shapes (the names of alternatives and items, the
// help sentences).  Each form is a real address: gpt.fcgi serves its page
// (CGI), and the script and the description are taken from those bytes,
// as a browser gets them.
//
//   node unit.mjs --gpt=PATH --tmp=DIR --srcdir=DIR
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

const opt = {};
for (const a of process.argv.slice(2)) {
  const m = /^--([a-z]+)=(.*)$/.exec(a);
  if (m) opt[m[1]] = m[2];
}
let passed = 0;
let failed = 0;
function ok(cond, label, detail) {
  if (cond) passed++;
  else {
    failed++;
    console.log(`FAIL: ${label}${detail === undefined ? '' : ': ' + detail}`);
  }
}
function eq(got, want, label) {
  const g = JSON.stringify(got);
  const w = JSON.stringify(want);
  ok(g === w, label, `got ${g}, expected ${w}`);
}

let n = 0;
// The page of a form (a schema, or a whole document), its core and its
// checker and shapes.
function pageOf(s, conf) {
  const dir = path.join(opt.tmp, `unit-${n++}`);
  fs.mkdirSync(dir, {recursive: true});
  const doc = s.p !== undefined ? s : {p: 'A test form.', m: [], s};
  fs.writeFileSync(path.join(dir, 'form.json'), JSON.stringify(doc));
  if (conf) fs.writeFileSync(path.join(dir, 'address.conf'), conf);
  const r = spawnSync(opt.gpt, [], {env: {REQUEST_METHOD: 'GET', HTTP_ACCEPT: 'text/html', GPT_ADDRESS: dir}});
  const html = r.stdout.toString('utf8');
  const js = /<script>([\s\S]*?)<\/script>/.exec(html);
  const desc = /<script type="application\/json" id="gpt-form">([\s\S]*?)<\/script>/.exec(html);
  if (!js || !desc) throw new Error('no page for ' + JSON.stringify(s) + ': ' + r.stderr);
  const ctx = vm.createContext({});
  vm.runInContext(js[1], ctx);
  const P = ctx.gptPage;
  const D = P.readDescription(desc[1]);
  return {P, D, c: new P.Checker(D), shapes: new P.Shapes(D), dir};
}
const example = (name) => JSON.parse(fs.readFileSync(path.join(opt.srcdir, name, 'form.json'), 'utf8'));
function judge(pg, text) {
  const j = pg.c.judge(text);
  return [j.verdict, j.problems.map((e) => `${e.ptr} ${e.keyword}: ${e.words}`)];
}

// --- the reader and the writer ----------------------------------------------
{
  const {P} = pageOf({type: 'object'});
  const v = P.parse('{"a": 12.50, "b": 9007199254740993, "__proto__": [1e2, -0], "c": "\\u00e9\\ud83d\\ude00"}');
  eq(P.stringify(v, 0), '{"a":12.50,"b":9007199254740993,"__proto__":[1e2,-0],"c":"\u00e9\ud83d\ude00"}',
    'parse and stringify keep number texts, "__proto__" as a member');
  eq(P.stringify(P.parse('{"a":[1,{"b":null}]}'), 2), '{\n  "a": [\n    1,\n    {\n      "b": null\n    }\n  ]\n}', 'stringify pretty, as JSON.stringify');
  for (const [bad, why] of [['{"a":1,"a":2}', 'given twice'], ['"\\ud800"', 'lone surrogate'], ['[1,]', 'unexpected'],
    ['01', 'after the value'], ['{"a":1} x', 'after the value'], ['1.', 'after the value'], ['"a\tb"', 'control character'],
    ['[' .repeat(129) + ']'.repeat(129), 'deeper than 128']]) {
    let msg = '';
    try { P.parse(bad, 128); } catch (e) { msg = e.message; }
    ok(msg.includes(why), `parse refuses ${bad.slice(0, 20)} (${why})`, msg);
  }
  let msg = '';
  try { P.parse('{\n  "a": tru\n}'); } catch (e) { msg = e.message; }
  ok(/line 2, column 8/.test(msg), 'a parse error says the line and the column', msg);
  ok(P.parse('['.repeat(128) + ']'.repeat(128), 128) !== null, 'parse reads 128 levels');
}

// --- exact decimals ----------------------------------------------------------
{
  const {P} = pageOf({type: 'number'});
  const cmp = (a, b) => P.decCmp(new P.Num(a), new P.Num(b));
  eq([cmp('1.0', '1'), cmp('1e2', '100'), cmp('9007199254740993', '9007199254740992'), cmp('-0', '0'), cmp('1e400', '9e399'),
    cmp('-2', '-10'), cmp('0.1', '0.10000000000000001')], [0, 0, 1, 0, 1, 1, -1], 'decimals compare as the values written');
  const mul = (a, b) => P.decMultiple(new P.Num(a), new P.Num(b));
  eq([mul('12.34', '0.01'), mul('0.015', '0.01'), mul('1e400', '0.01'), mul('0.3', '0.1'), mul('7', '2'), mul('4.5e-7', '1.5e-7'),
    mul('1e-400', '0.01')], [true, false, true, true, false, true, false], 'multipleOf is exact');
  eq(['1.0', '1e2', '1.5e1', '1.5', '1e-2'].map((t) => P.typeOf(new P.Num(t))), ['integer', 'integer', 'integer', 'number', 'number'],
    '1.0 is an integer, as the address counts');
}

// --- the check: words, where, and sure ----------------------------------------
{
  const ledger = pageOf(example('examples/ledger'));
  eq(judge(ledger, '{"who": "", "what": "x", "cents": 12.5}'), ['reject', ['/who minLength: Enter at least 1 character.',
    '/cents type: Enter a whole number of cents, such as 1250.']], 'ledger: errors in words, each on its member');
  eq(judge(ledger, '{"who": "Ada", "what": "tea", "cents": 0, "x": 1}')[1], ['/cents minimum: Enter 1 or more.',
    '/x additionalProperties: Remove "x": the form has no such member.'], 'ledger: a bound and a member the form does not have');
  eq(judge(ledger, '{"what": "tea", "cents": 1}')[1], ['/who required: Fill this in: it is required.'], 'a required member is named where it goes');
  eq(judge(ledger, '{"who": "Ada", "what": "tea", "cents": 100000000}')[0], 'accept', 'ledger: the largest amount is accepted');
  eq(judge(ledger, '{"who":"Ada","who":"Bo","what":"t","cents":1}')[0], 'reject', 'a duplicate member is rejected, as the address does');

  const styled = pageOf(example('examples/styled-text'));
  eq(judge(styled, '{"nodes": ["a", {"style": "link", "href": "ftp://example.org", "children": []}]}'),
    ['reject', ['/nodes/1/href pattern: Enter it in the form the field\'s pattern gives.']],
    'styled-text: a failed alternative names the member of the closest branch (the bad href)');
  eq(judge(styled, '{"nodes": [{"style": "shout", "children": []}]}')[1], ['/nodes/0/style enum: Choose one of \u201cplain\u201d, \u201cbold\u201d, ' +
    '\u201citalic\u201d, \u201cunderline\u201d, \u201cstrike\u201d, \u201ccode\u201d, \u201clink\u201d, \u201cquote\u201d, \u201cheading\u201d.'],
  'styled-text: the closest branch of a span with a bad style is the span');
  eq(judge(styled, '{"nodes": [' + '"a",'.repeat(5) + '"b"]}')[0], 'accept', 'styled-text: a list of strings is accepted');

  const money = pageOf({type: 'object', properties: {p: {type: 'number', multipleOf: 0.01, exclusiveMinimum: 0},
    n: {type: 'integer', format: 'int32'}, f: {type: 'number', format: 'float'}, u: {type: 'string', format: 'uuid'},
    d: {type: 'string', format: 'date'}}});
  eq(judge(money, '{"p": 12.50, "n": 2147483647, "f": 3.4028235e38, "u": "2b7c1f4e-5a43-4d1e-9e0b-1c2d3e4f5a6b"}')[0], 'accept',
    'number formats and uuid are judged exactly: in range');
  eq(judge(money, '{"p": 0.015}')[1], ['/p multipleOf: Enter at most 2 digits after the decimal point.'], 'multipleOf 0.01 in words');
  eq(judge(money, '{"n": 2147483648}')[1], ['/n format: Enter a whole number from -2,147,483,648 to 2,147,483,647.'], 'int32 is exact');
  eq(judge(money, '{"f": 3.4028236e38}')[0], 'reject', 'float is exact at its limit');
  eq(judge(money, '{"d": "2026-02-30"}')[0], 'unsure', 'a date of the right shape: the page cannot tell (the address checks the calendar)');
  eq(judge(money, '{"d": "30.2.2026"}'), ['unsure', ['/d format: Enter a date as YYYY-MM-DD.']],
    'a date off the shape: a problem said, but not a sure one');

  const names = pageOf({type: 'object', propertyNames: {pattern: '^[a-z]+$', maxLength: 4}, additionalProperties: {type: 'integer'}});
  eq(judge(names, '{"ab": 1, "Toolong": 2}')[1], ['/Toolong propertyNames: Rename "Toolong": enter at most 4 characters (now 7).',
    '/Toolong propertyNames: Rename "Toolong": enter it in the form the field\'s pattern gives.'], 'propertyNames is checked, on the member');
  const content = pageOf({type: 'string', contentEncoding: 'base64', contentMediaType: 'application/json', contentSchema: {type: 'object'}});
  eq(judge(content, '"e30="')[0], 'unsure', 'content: the address decodes it, the page says it cannot tell');
  eq(judge(content, '"not base64!"')[1], ['/ contentEncoding: Enter base64 text (letters, digits, + / or - _, and =).'].map((s) => s.replace('/ ', ' ')),
    'content: text off the alphabet is named');

  const logic = pageOf({type: 'object', if: {required: ['a']}, then: {required: ['b']}, else: {maxProperties: 0},
    dependentRequired: {c: ['d']}, properties: {l: {type: 'array', contains: {const: 1}, minContains: 2, maxContains: 2}}});
  eq(judge(logic, '{"a": 1, "b": 2}')[0], 'accept', 'if/then: the condition holds, then holds');
  eq(judge(logic, '{"a": 1}')[1], ['/b required: Fill this in: it is required.'], 'if/then: then fails on the member');
  eq(judge(logic, '{"a": 1, "b": 2, "c": 3}')[1], ['/d dependentRequired: Fill this in: it is required with "c".'], 'dependentRequired');
  eq(judge(logic, '{"a": 1, "b": 2, "l": [1, 1]}')[0], 'accept', 'contains with counts: two');
  eq(judge(logic, '{"a": 1, "b": 2, "l": [1, 1, 1]}')[0], 'reject', 'contains with counts: three is too many');

  const opaque = pageOf({type: 'object', properties: {a: true}, unevaluatedProperties: false});
  eq(opaque.D.nodes[0]['x-opaque'], ['unevaluatedProperties'], 'what the page cannot judge is marked by its keyword');
  eq(judge(opaque, '{"a": 1}')[0], 'unsure', 'an opaque part: the page says it cannot tell');
  const redos = pageOf({type: 'string', pattern: '^(a+)+$'});
  const t0 = Date.now();
  eq(judge(redos, JSON.stringify('a'.repeat(40) + '!'))[0], 'unsure', 'a pattern that could run for years is not run');
  ok(Date.now() - t0 < 1000, 'and the check returns at once');
  const limit = pageOf({type: 'string'}, 'max_body = 10\n');
  eq(judge(limit, '"0123456789"')[1], [' maxBody: Make the act shorter: the address takes at most 10 bytes.'], 'the address\'s max_body is known');
}

// --- shapes: names and help -------------------------------------------------
{
  const styled = pageOf(example('examples/styled-text'));
  const {P, D, shapes} = styled;
  const nodes = D.nodes[D.nodes[0].properties.find((p) => p[0] === 'nodes')[1]];
  const item = shapes.of(nodes.items);
  eq(P.itemName(item), 'Node', 'styled-text: items are named by the form\'s name for them');
  eq(P.altNames(item.anyOf, shapes), ['Text', 'Span'], 'styled-text: alternatives by their names in the form, not "string / object"');
  eq(P.helpSentences(shapes.of(nodes.items === undefined ? 0 : D.nodes[0].properties.find((p) => p[0] === 'nodes')[1])), ['Up to 100,000 items.'],
    'help in words: "Up to 100,000 items"');
  const href = shapes.of(D.nodes.findIndex((x) => x['x-defName'] === 'href'));
  eq(P.helpSentences(href), ['8 to 2,048 characters.'], 'a pattern is no help sentence (the page shows it behind a disclosure)');

  const zod = pageOf({$schema: 'http://json-schema.org/draft-07/schema#', type: 'object', required: ['shape'], properties: {shape: {anyOf: [
    {type: 'object', properties: {kind: {type: 'string', const: 'circle'}, r: {type: 'number'}}, required: ['kind', 'r'], additionalProperties: false},
    {type: 'object', properties: {kind: {type: 'string', const: 'square'}, side: {type: 'number'}}, required: ['kind', 'side'], additionalProperties: false},
    {type: 'object', properties: {kind: {type: 'string', enum: ['triangle_eq']}, a: {type: 'number'}}, required: ['kind', 'a'], additionalProperties: false}]}}});
  const alts = zod.shapes.of(zod.D.nodes[0].properties[0][1]).anyOf;
  eq(zod.P.altNames(alts, zod.shapes), ['Circle', 'Square', 'Triangle eq'], 'a discriminated union: named by the member that tells them apart');
  const titled = pageOf({oneOf: [{title: 'By name', type: 'string'}, {title: 'By number', type: 'integer'}]});
  eq(titled.P.altNames(titled.D.nodes[0].oneOf, titled.shapes), ['By name', 'By number'], 'titles first');
  const plain = pageOf({anyOf: [{type: 'object', properties: {a: {}, b: {}}}, {type: 'object', properties: {c: {}}}, {type: 'null'}]});
  eq(plain.P.altNames(plain.D.nodes[0].anyOf, plain.shapes), ['Group of a, b', 'Group of c', 'Nothing (null)'], 'else a short summary, never "object / object"');
  eq(P.helpSentences({properties: [], required: [], minimum: new P.Num('1'), maximum: new P.Num('100000000'), multipleOf: new P.Num('0.5')}),
    ['From 1 to 100,000,000.', 'A multiple of 0.5.'], 'bounds as sentences');
  eq(P.humanize('styledText_2'), 'Styled text', 'names as words');
}

// --- the answer's next steps ------------------------------------------------
{
  const doc = JSON.parse(fs.readFileSync(path.join(opt.srcdir, 'tests/data/page/next/form.json'), 'utf8'));
  const {P, dir} = pageOf(doc);
  const html = spawnSync(opt.gpt, [], {env: {REQUEST_METHOD: 'GET', HTTP_ACCEPT: 'text/html', GPT_ADDRESS: dir}}).stdout.toString('utf8');
  const block = /<script type="application\/json" id="gpt-answer">([\s\S]*?)<\/script>/.exec(html);
  ok(block !== null, 'a form with a: the page carries the answer form\'s description');
  const AD = P.readDescription(block[1]);
  const steps = (v) => P.answerAddresses(new P.Shapes(AD), AD.root, P.parse(JSON.stringify(v))).map((x) => [x.path.join('/'), x.href]);
  eq(steps({ticket: 't', comment: 'ticket-7', close: '../close', elsewhere: 'x:y', note: 'https://e.invalid/'}),
    [['comment', 'ticket-7'], ['close', '../close'], ['elsewhere', 'x:y']],
    'the members a types as addresses (through $ref too), in the form\'s order; an untyped string is none');
  eq(steps({comment: 7, note: 'ticket-7'}), [], 'a member of another type is no address');
  eq(steps(['ticket-7']), [], 'an answer of another shape names none');
  const none = pageOf({type: 'object'});
  ok(!/id="gpt-answer"/.test(spawnSync(opt.gpt, [], {env: {REQUEST_METHOD: 'GET', HTTP_ACCEPT: 'text/html', GPT_ADDRESS: none.dir}}).stdout.toString('utf8')),
    'a form without a: no answer description');
}

console.log(`page-unit: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
