// browser.mjs: the human page in headless Chromium (tests/browser.sh starts
// the server and calls this).  Debian's chromium, driven through the
// DevTools protocol by puppeteer-core (pinned in package.json, installed
// into the build tree; never a downloaded browser); axe-core (pinned too)
// runs in the page.  Every act is composed as a person would: typing,
// clicking, choosing, adding and moving items, switching alternatives; the
// body the address's hook received must be byte for byte the text the JSON
// editor showed.  Prints one line per failure and closes with
// "browser: N passed, N failed".
//
//   node browser.mjs --base=URL --root=DIR --modules=DIR --out=DIR
//       --chromium=PATH --addresses="echo guestbook ... kinds ..."
//       --examples="echo guestbook ..." (those of examples/)
import {createHash} from 'node:crypto';
import fs from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';

const arg = {};
for (const a of process.argv.slice(2)) {
  const m = /^--([a-z]+)=(.*)$/s.exec(a);
  if (m) arg[m[1]] = m[2];
}
const require = createRequire(path.join(arg.modules, 'noop.js'));
const puppeteer = require('puppeteer-core');
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const examples = arg.examples.trim().split(/\s+/).filter((a) => fs.existsSync(
  path.join(arg.root, a, 'form.json')));

let passed = 0;
let failed = 0;
const notes = [];
function ok(cond, label, detail) {
  if (cond) {
    passed++;
  } else {
    failed++;
    console.log(`FAIL: ${label}${detail === undefined ? '' : ': ' + detail}`);
  }
  return cond;
}
function eq(got, want, label) {
  const g = JSON.stringify(got);
  const w = JSON.stringify(want);
  return ok(g === w, label, `got ${g}, expected ${w}`);
}

const browser = await puppeteer.launch({
  executablePath: arg.chromium,
  headless: true,
  // root in a container has no user namespaces for the sandbox
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--lang=en-US'],
  env: {...process.env, TZ: 'UTC', LANG: 'en_US.UTF-8'},
});

// A page at address a; its problems (script errors, CSP violations,
// requests that leave the address) are collected in page.trouble.
async function open(a, {js = true, width = 1280, height = 900, dark = false} = {}) {
  const page = await browser.newPage();
  page.trouble = [];
  page.posts = 0;
  page.on('pageerror', (e) => page.trouble.push('script error: ' + e.message));
  page.on('console', (m) => {
    // the browser's own line for an answer of 4xx or 5xx is not a fault
    if (m.type() === 'error' && !/^Failed to load resource: the server responded with a status of (412|422|502)\b/.test(m.text())) {
      page.trouble.push('console: ' + m.text());
    }
  });
  page.on('request', (r) => {
    // data: URLs are the browser's own (the date picker's icons)
    if (!r.url().startsWith(`${arg.base}/${a}`) && !r.url().startsWith('data:')) page.trouble.push('request elsewhere: ' + r.url());
    if (r.method() === 'POST') page.posts++;
  });
  await page.setJavaScriptEnabled(js);
  await page.setViewport({width, height});
  await page.emulateMediaFeatures([{name: 'prefers-color-scheme', value: dark ? 'dark' : 'light'}]);
  await page.evaluateOnNewDocument(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
  });
  await page.goto(`${arg.base}/${a}`, {waitUntil: 'load', timeout: 20000});
  if (js) await page.waitForSelector('#act:not([hidden]) #controls fieldset, #act:not([hidden]) #controls textarea', {timeout: 10000});
  return page;
}
async function close(page, label) {
  const csp = await page.evaluate(() => window.__csp || []);
  ok(page.trouble.length === 0 && csp.length === 0, `${label}: no script error, no CSP violation, nothing fetched elsewhere`,
    page.trouble.concat(csp).join('; '));
  await page.close();
}

function css(s) { return s.replace(/["\\]/g, (c) => '\\' + c); }
const at = (ptr, extra = '') => `[data-ptr="${css(ptr)}"]${extra}`;
async function type(page, ptr, text, extra = '') {
  const s = `:is(input, textarea)${at(ptr, extra)}`;
  await page.waitForSelector(s, {timeout: 3000});
  await page.click(s);
  // clear what the control holds, as a person would: select it, delete
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text);
}
async function press(page, ptr, action) {
  const s = `button${at(ptr)}[data-action="${action}"]`;
  await page.waitForSelector(s, {timeout: 3000});
  await page.click(s);
}
async function choose(page, ptr, kind, label) {
  const s = `select${at(ptr)}[data-kind="${kind}"]`;
  await page.waitForSelector(s, {timeout: 3000});
  const value = await page.$eval(s, (e, l) => {
    for (const o of e.options) if (o.textContent === l) return o.value;
    return null;
  }, label);
  if (value === null) throw new Error(`no option ${label} at ${ptr}`);
  await page.select(s, value);
}
async function radio(page, ptr, label) {
  const id = await page.$eval(`fieldset${at(ptr)}[data-kind="radio"]`, (e, l) => {
    for (const lab of e.querySelectorAll('label')) if (lab.textContent === l) return lab.htmlFor;
    return null;
  }, label);
  if (id === null) throw new Error(`no choice ${label} at ${ptr}`);
  await page.click(`label[for="${id}"]`);
}
// The nth item's button of an array at ptr (Move up, Remove, ...).
async function itemButton(page, ptr, n, action) {
  await page.click(`li${at(ptr + '/' + n)} > .tools > button[data-action="${action}"]`);
}

// Paste text into the JSON editor, as a person pasting would (one input).
async function paste(page, text) {
  await page.$eval('#body', (e, t) => {
    e.focus();
    e.value = t;
    e.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertFromPaste'}));
  }, text);
}
async function answer(page) {
  await page.waitForFunction(() => /^\d{3}:/.test(document.getElementById('status').textContent), {timeout: 10000});
  return page.evaluate(() => [document.getElementById('status').textContent,
    document.getElementById('meaning').textContent, document.getElementById('response').textContent]);
}
// The focused element and its focus ring, as the page draws it.
function focusNow(page) {
  return page.evaluate(() => {
    const e = document.activeElement;
    const st = getComputedStyle(e);
    return {at: (e.getAttribute('data-ptr') || '') + ':' + (e.getAttribute('data-action') || e.type || e.tagName),
      kind: e.tagName.toLowerCase() + (e.type ? '/' + e.type : ''), ring: st.outlineStyle + ' ' + st.outlineWidth};
  });
}
// Tab through every control of the page once: each shows the page's ring.
async function ringsAll(page, label) {
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  const seen = new Map();
  const bad = [];
  let first = null;
  for (let i = 0; i < 600; i++) {
    await page.keyboard.press('Tab');
    const f = await focusNow(page);
    if (f.kind === 'body') continue;
    // Tab walks a date's fields one by one: the same control again
    if (f.at + f.kind === first) break;
    first = first || f.at + f.kind;
    if (seen.has(f.at + f.kind)) continue;
    seen.set(f.at + f.kind, f);
    if (f.ring !== 'solid 3px') bad.push(`${f.at} (${f.kind}): ${f.ring}`);
  }
  const kinds = [...new Set([...seen.values()].map((f) => f.kind))].sort();
  ok(seen.size > 3 && bad.length === 0, `${label}: every control reached by Tab shows the focus ring (${kinds.join(', ')})`, bad.join('; '));
  return kinds;
}

function received(a) {
  const f = path.join(arg.root, a, 'received');
  return fs.existsSync(f) ? fs.readFileSync(f) : null;
}
// Submit; the body the hook received must be the editor's text, byte for byte.
async function submit(page, a, label) {
  fs.rmSync(path.join(arg.root, a, 'received'), {force: true});
  const shown = await page.$eval('#body', (e) => e.value);
  await page.click('#act button[type=submit]');
  await page.waitForFunction(() => /^\d{3}:/.test(document.getElementById('status').textContent), {timeout: 10000});
  const status = await page.$eval('#status', (e) => e.textContent);
  const got = received(a);
  ok(status === '200: accepted', `${label}: accepted`, `${status} (${await page.$eval('#meaning', (e) => e.textContent)})`);
  ok(got !== null && got.equals(Buffer.from(shown, 'utf8')), `${label}: the body received is the editor's text, byte for byte`,
    got === null ? 'nothing received' : `received ${JSON.stringify(got.toString())}, shown ${JSON.stringify(shown)}`);
  const answer = await page.$eval('#response', (e) => e.textContent);
  eq(answer, JSON.stringify({received: Buffer.byteLength(shown), note: 'kept as sent'}, null, 2),
    `${label}: the page shows the hook's answer, pretty-printed`);
  return JSON.parse(shown);
}

async function test(name, fn) {
  try {
    await fn();
  } catch (e) {
    ok(false, name, e.stack);
  }
}

// --- each example address ------------------------------------------------

const axeTotals = [];
async function axe(page, label) {
  await page.evaluate(axeSource);
  const r = await page.evaluate(async () => {
    const res = await window.axe.run(document, {resultTypes: ['violations']});
    return res.violations.map((v) => ({id: v.id, impact: v.impact, n: v.nodes.length,
      where: v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}));
  });
  const bad = r.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  ok(bad.length === 0, `${label}: axe finds no serious or critical violation`,
    bad.map((v) => `${v.id} (${v.impact}, ${v.n}: ${v.where})`).join('; '));
  axeTotals.push(`${label}: ${r.length} violation(s)${r.length ? ' (' + r.map((v) => v.id + '/' + v.impact).join(', ') + ')' : ''}`);
}

ok(examples.length >= 4, 'the example addresses are served', examples.join(' '));
for (const a of examples.concat(['kinds', 'shapes', 'hostile'])) {
  await test(`${a}: page, axe, screenshots`, async () => {
    for (const dark of [false, true]) {
      const page = await open(a, {dark});
      const scheme = dark ? 'dark' : 'light';
      if (a !== 'hostile' || !dark) await axe(page, `${a} (${scheme})`);
      const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      ok(dark ? bg !== 'rgb(255, 255, 255)' : bg === 'rgb(255, 255, 255)', `${a}: ${scheme} by the user's preference`, bg);
      if (!dark) {
        // the policy allows exactly the inline script and style, by hash
        const res = await fetch(`${arg.base}/${a}`, {headers: {Accept: 'text/html'}});
        const csp = res.headers.get('content-security-policy');
        const html = await res.text();
        const hash = (re) => {
          const m = re.exec(html);
          return m ? createHash('sha256').update(m[1], 'utf8').digest('base64') : '-';
        };
        const js = hash(/<script>([\s\S]*?)<\/script>/);
        const style = hash(/<style>([\s\S]*?)<\/style>/);
        ok(csp === `default-src 'none'; script-src 'sha256-${js}'; style-src 'sha256-${style}'; ` +
          `connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
        `${a}: the CSP names the script's and the style's hashes and nothing else`, csp);
        ok(!(await page.evaluate(() => document.body.innerText)).includes('composing and sending an act from it does'),
          `${a}: with JavaScript, no note that acting needs it`);
        ok(await page.evaluate(() => document.querySelectorAll('[src], [href], link, img, iframe, object, embed').length === 0 &&
          document.querySelectorAll('script').length === 2 && document.querySelectorAll('style').length === 1),
        `${a}: the page refers to no external resource`);
        await page.screenshot({path: path.join(arg.out, `${a}-desktop.png`), fullPage: true});
      }
      await close(page, `${a} (${scheme})`);
    }
    for (const width of [360, 390, 1600]) {
      const page = await open(a, {width, height: 844});
      const w = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth,
        document.querySelector('main').getBoundingClientRect().width]);
      ok(w[0] <= w[1], `${a}: no sideways scrolling at ${width} px`, `scrollWidth ${w[0]} > ${w[1]}`);
      if (width === 1600) ok(w[2] <= 1000, `${a}: lines stay readable at 1600 px`, `main is ${w[2]} px wide`);
      if (width === 390) await page.screenshot({path: path.join(arg.out, `${a}-390.png`), fullPage: true});
      await close(page, `${a} at ${width} px`);
    }
  });
  await test(`${a}: without JavaScript`, async () => {
    const page = await open(a, {js: false});
    const doc = JSON.parse(fs.readFileSync(path.join(arg.root, a, 'form.json'), 'utf8'));
    const text = await page.evaluate(() => document.body.innerText);
    const hidden = await page.$eval('#act', (e) => e.hidden && getComputedStyle(e).display === 'none');
    ok(text.includes(doc.p.slice(0, 40).replace(/\u2028|\u2029/g, '')) || a === 'hostile', `${a}: p reads without JavaScript`);
    ok(doc.m.every((m) => text.includes(m.content.slice(0, 30))), `${a}: m reads without JavaScript`);
    ok(text.includes('composing and sending an act from it does'), `${a}: the page says acting needs JavaScript`);
    const pre = await page.$eval('pre.s', (e) => e.textContent);
    eq(JSON.parse(pre), doc.s, `${a}: the form reads without JavaScript`);
    ok(hidden, `${a}: no dead controls without JavaScript`);
    await page.close();
  });
}

// --- acts, composed with the controls --------------------------------------

// Only the required members, for every example address: the page starts
// with them and nothing else (an optional member waits behind its Add
// button, never "" by default), and the act of just those is accepted.
const REQUIRED_ONLY = {
  echo: [['/note', 'Only the note.']],
  guestbook: [['/name', 'Ada'], ['/message', 'Only what is required.']],
  ledger: [['/who', 'Ada'], ['/what', 'tea'], ['/cents', '300']],
  'styled-text': [],
};
for (const a of examples) {
  await test(`${a}: only the required members`, async () => {
    const s = JSON.parse(fs.readFileSync(path.join(arg.root, a, 'form.json'), 'utf8')).s;
    const req = s.required || [];
    const optional = Object.keys(s.properties || {}).filter((k) => !req.includes(k));
    const page = await open(a);
    const first = JSON.parse(await page.$eval('#body', (e) => e.value));
    ok(Object.keys(first).every((k) => req.includes(k)), `${a}: the act starts with no optional member`, JSON.stringify(first));
    for (const k of optional) {
      ok(await page.$(`button${at('/' + k)}[data-action="add"]`) !== null && await page.$(`:is(input, select, textarea)${at('/' + k)}`) === null,
        `${a}: optional ${k} waits behind its Add button`);
    }
    if (!ok(Object.hasOwn(REQUIRED_ONLY, a), `${a}: the test knows which values to give its required members`)) return;
    for (const [p, t] of REQUIRED_ONLY[a]) await type(page, p, t);
    const v = await submit(page, a, `${a} (required only)`);
    eq(Object.keys(v).sort(), [...req].sort(), `${a}: the act carries the required members and nothing else`);
    await close(page, `${a} required only`);
  });
}

await test('echo: type a note, add two tags, submit', async () => {
  const page = await open('echo');
  await type(page, '/note', 'Hello from a person.');
  await press(page, '/tags', 'add');
  await press(page, '/tags', 'add-item');
  await type(page, '/tags/0', 'hello');
  await press(page, '/tags', 'add-item');
  await type(page, '/tags/1', 'second');
  const v = await submit(page, 'echo', 'echo');
  eq(v, {note: 'Hello from a person.', tags: ['hello', 'second']}, 'echo: the act is what was typed');
  // the form changes while the page is open: the act carries If-Match
  // with the ETag the page was built with, and the 412 says what to do
  const file = path.join(arg.root, 'echo', 'form.json');
  const form = JSON.parse(fs.readFileSync(file, 'utf8'));
  form.p += ' Changed.';
  fs.writeFileSync(file + '.new', JSON.stringify(form));
  fs.renameSync(file + '.new', file);
  let status = '';
  for (let i = 0; i < 40 && !status.startsWith('412'); i++) {
    await new Promise((r) => setTimeout(r, 250));
    await page.click('#act button[type=submit]');
    await page.waitForFunction(() => /^\d{3}:/.test(document.getElementById('status').textContent), {timeout: 10000});
    status = await page.$eval('#status', (e) => e.textContent);
  }
  eq(status, '412: the form changed', 'echo: a changed form is shown as a 412');
  ok((await page.$eval('#meaning', (e) => e.textContent)).includes('Reload the page'), 'echo: the 412 says to reload');
  await close(page, 'echo act');
});

await test('ledger: an act, an invalid amount flagged, a 204', async () => {
  const page = await open('ledger');
  await type(page, '/who', 'Ada');
  await type(page, '/what', 'conference lunch');
  await type(page, '/cents', '1250');
  const v = await submit(page, 'ledger', 'ledger');
  eq(v, {who: 'Ada', what: 'conference lunch', cents: 1250}, 'ledger: the act is what was typed');
  // 0 cents: the page says where the act breaks the form, and sends nothing
  await type(page, '/cents', '0');
  const before = page.posts;
  fs.rmSync(path.join(arg.root, 'ledger', 'received'), {force: true});
  await page.click('#act button[type=submit]');
  await page.waitForSelector('#problems li', {timeout: 3000});
  const flagged = await page.evaluate(() => [document.getElementById('problems').textContent,
    document.querySelector('[data-ptr="/cents"]').getAttribute('aria-invalid'),
    document.activeElement.getAttribute('data-ptr'),
    document.querySelector('[data-ptr="/cents"]').getAttribute('aria-describedby').split(' ')
      .map((id) => document.getElementById(id).textContent).join(' ')]);
  ok(flagged[0].includes('/cents: must be at least 1'), 'ledger: the page names the pointer and the rule', flagged[0]);
  ok(flagged[1] === 'true' && flagged[2] === '/cents', 'ledger: the control is marked invalid and focused', flagged.join(' | '));
  ok(flagged[3].includes('must be at least 1'), 'ledger: the error is in the control\'s description (read by screen readers)', flagged[3]);
  ok(page.posts === before && received('ledger') === null, 'ledger: nothing is sent while the page sees a problem');
  // the person insists: the address is the judge, 204
  await page.click('#anyway');
  await page.waitForFunction(() => /^204/.test(document.getElementById('status').textContent), {timeout: 10000});
  const shown = await page.evaluate(() => [document.getElementById('status').textContent,
    document.getElementById('meaning').textContent]);
  eq(shown[0], '204: rejected by the address', 'ledger: a 204 is shown as a rejection');
  ok(shown[1].includes('/cents must be at least 1'), 'ledger: with the page\'s own best guess why', shown[1]);
  ok(received('ledger') === null, 'ledger: the hook did not run for the rejected act');
  await close(page, 'ledger act');
});

await test('guestbook: one act with the keyboard only', async () => {
  const page = await open('guestbook');
  const focused = () => page.evaluate(() => {
    const e = document.activeElement;
    return (e.getAttribute('data-ptr') || '') + ':' + (e.getAttribute('data-action') || e.type || e.tagName);
  });
  // every control the Tab key reaches shows the page's focus ring
  const rings = new Set();
  async function tabTo(want, limit = 30) {
    for (let i = 0; i < limit; i++) {
      await page.keyboard.press('Tab');
      const f = await focusNow(page);
      rings.add(`${f.kind} ${f.ring}`);
      if (f.at === want) return;
    }
    throw new Error(`Tab never reached ${want} (at ${await focused()})`);
  }
  // submitting at once: the page says what is missing, where, and aloud
  const live = await page.evaluate(() => {
    const p = document.getElementById('problems');
    p.__before = true; // the same region before and after: announced
    return [p.getAttribute('role'), document.getElementById('status').getAttribute('role')];
  });
  eq(live, ['alert', 'status'], 'guestbook: the problems are an alert region and the status a status region');
  await tabTo(':submit');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#problems li', {timeout: 3000});
  const said = await page.evaluate(() => {
    const p = document.getElementById('problems');
    const name = document.querySelector('[data-ptr="/name"]');
    const err = document.getElementById(name.id + '-e');
    return [p.__before === true && getComputedStyle(p).display !== 'none', p.textContent,
      err.getAttribute('aria-live'), err.textContent, name.getAttribute('aria-describedby').split(' ').includes(err.id),
      document.activeElement === name];
  });
  ok(said[0] && said[1].includes('/name: must be at least 1 characters') && said[1].includes('/message: must be at least 1 characters'),
    'guestbook: the problems are announced in the alert region', said[1]);
  ok(said[2] === 'polite' && said[3].includes('must be at least 1 characters') && said[4],
    'guestbook: each control\'s own error is a live region it is described by', said.join(' | '));
  ok(said[5] && page.posts === 0, 'guestbook: the focus goes to the first problem; nothing was sent');
  await page.keyboard.type('Grace');
  await tabTo('/message:textarea');
  await page.keyboard.type('Typed without a mouse.');
  await tabTo('/mood:add');
  await page.keyboard.press('Enter');
  // the new member's first choice takes the focus; arrows choose
  ok((await focused()).endsWith(':radio'), 'guestbook: adding a member moves the focus into it', await focused());
  const f = await focusNow(page);
  rings.add(`${f.kind} ${f.ring}`);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  fs.rmSync(path.join(arg.root, 'guestbook', 'received'), {force: true});
  const shown = await page.$eval('#body', (e) => e.value);
  await tabTo(':submit');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /^\d{3}:/.test(document.getElementById('status').textContent), {timeout: 10000});
  eq(await page.$eval('#status', (e) => e.textContent), '200: accepted', 'guestbook: the keyboard act is accepted');
  const got = received('guestbook');
  ok(got !== null && got.equals(Buffer.from(shown)), 'guestbook: the body received is the editor\'s text, byte for byte');
  eq(JSON.parse(shown), {name: 'Grace', message: 'Typed without a mouse.', mood: 'grateful'}, 'guestbook: the act is what was typed and chosen');
  const outline = await page.evaluate(() => {
    const b = document.querySelector('#act button[type=submit]');
    b.focus();
    return getComputedStyle(b).outlineStyle;
  });
  ok(outline !== 'none', 'guestbook: the focus is visible', outline);
  eq([...rings].sort(), ['button/button solid 3px', 'button/submit solid 3px', 'input/radio solid 3px', 'input/text solid 3px',
    'textarea/textarea solid 3px'], 'guestbook: each control the keyboard reached showed the focus ring');
  eq(await page.$eval('#status', (e) => [e.getAttribute('aria-live'), e.textContent]), ['polite', '200: accepted'],
    'guestbook: the answer is announced in the status region');
  await close(page, 'guestbook keyboard act');
});

await test('styled-text: a tree of spans, switching alternatives', async () => {
  const page = await open('styled-text');
  const form = JSON.parse(fs.readFileSync(path.join(arg.root, 'styled-text', 'form.json'), 'utf8')).s;
  eq(await page.$eval(`fieldset${at('')}`, (e) => [e.querySelector('legend').textContent, e.querySelector(':scope > p.help').textContent]),
    [form.title, form.description], 'styled-text: the act is a fieldset with the form\'s title as legend and its description as help');
  await press(page, '/title', 'add');
  await type(page, '/title', 'A note');
  await press(page, '/nodes', 'add-item');
  await type(page, '/nodes/0', 'Read the ');
  await press(page, '/nodes', 'add-item');
  await choose(page, '/nodes/1', 'alternatives', 'object');
  await choose(page, '/nodes/1/style', 'select', 'link');
  await press(page, '/nodes/1/href', 'add');
  await type(page, '/nodes/1/href', 'https://example.org/draft');
  await press(page, '/nodes/1/children', 'add-item');
  await choose(page, '/nodes/1/children/0', 'alternatives', 'object');
  await choose(page, '/nodes/1/children/0/style', 'select', 'bold');
  await press(page, '/nodes/1/children/0/children', 'add-item');
  await type(page, '/nodes/1/children/0/children/0', 'draft');
  await press(page, '/nodes', 'add-item');
  await type(page, '/nodes/2', '.');
  const v = await submit(page, 'styled-text', 'styled-text');
  eq(v, {nodes: ['Read the ', {style: 'link', children: [{style: 'bold', children: ['draft']}],
    href: 'https://example.org/draft'}, '.'], title: 'A note'}, 'styled-text: the act is the tree that was built');
  await close(page, 'styled-text act');
});

await test('explaining: a 422 shows the address\'s reason', async () => {
  const page = await open('explaining');
  // a rule the page does not check (the address checks ipv4 fully)
  await type(page, '/ip', '999.1.1.1');
  await type(page, '/n', '2');
  fs.rmSync(path.join(arg.root, 'explaining', 'received'), {force: true});
  const shown = await page.$eval('#body', (e) => e.value);
  await page.click('#act button[type=submit]');
  const [status, meaning, response] = await answer(page);
  eq(status, '422: rejected, with the reason', 'explaining: a 422 is shown as a rejection with its reason');
  ok(meaning.includes('explains its rejections'), 'explaining: with what it means', meaning);
  // the reason is the address's own answer to those bytes, pretty-printed
  const direct = await fetch(`${arg.base}/explaining`, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: shown});
  const raw = await direct.text();
  eq(direct.status, 422, 'explaining: the address answers those bytes 422');
  eq(response, JSON.stringify(JSON.parse(raw), null, 2), 'explaining: the page shows the address\'s reason, pretty-printed');
  ok(/"pointer": "\/ip"/.test(response) && /"keyword": "format"/.test(response), 'explaining: the reason names the pointer and the keyword', response);
  ok(received('explaining') === null, 'explaining: the hook did not run for the rejected act');
  // flagged by the page, sent anyway: the reason is still the address's
  await type(page, '/ip', '10.0.0.1');
  await type(page, '/n', '0');
  await page.click('#act button[type=submit]');
  await page.waitForSelector('#anyway:not([hidden])', {timeout: 3000});
  await page.$eval('#status', (e) => { e.textContent = ''; });
  await page.click('#anyway');
  const [status2, , response2] = await answer(page);
  eq(status2, '422: rejected, with the reason', 'explaining: sent anyway, the 422 is shown');
  ok(/"pointer": "\/n"/.test(response2) && /"keyword": "minimum"/.test(response2), 'explaining: with the address\'s pointer and keyword', response2);
  await close(page, 'explaining act');
});

await test('kinds: a 204 the page did not foresee says so', async () => {
  const page = await open('kinds');
  await type(page, '/text', 'fine');
  await press(page, '/uuid', 'add');
  await type(page, '/uuid', 'not-a-uuid');
  await page.click('#act button[type=submit]');
  const [status, meaning] = await answer(page);
  eq(status, '204: rejected by the address', 'kinds: the 204 is shown as a rejection');
  ok(meaning.includes('The page found nothing wrong'), 'kinds: the page says it saw nothing wrong, and what the address may check', meaning);
  await close(page, 'kinds 204');
});

await test('recursive: steps nested through the controls, as deep as the address reads', async () => {
  const page = await open('recursive');
  const want = {};
  let cur = want;
  let p = '';
  for (let i = 0; i < 6; i++) {
    await type(page, p + '/step', `step ${i + 1}`);
    cur.step = `step ${i + 1}`;
    if (i === 5) break;
    await press(page, p + '/then', 'add');
    cur = cur.then = {};
    p += '/then';
  }
  eq(await submit(page, 'recursive', 'recursive'), want, 'recursive: six levels added one by one through the controls');
  // the address reads acts nested 128 deep: all of them are controls
  const deep = (n) => (n === 1 ? {step: 'last'} : {step: `level ${129 - n}`, then: deep(n - 1)});
  await paste(page, JSON.stringify(deep(128), null, 2));
  const last = '/then'.repeat(127);
  ok(await page.$(`input${at(last + '/step')}`) !== null, 'recursive: the 128th level is a control, not a JSON editor');
  await type(page, last + '/step', 'the very last');
  // one more would nest deeper than the address reads: the page says so
  await press(page, last + '/then', 'add');
  await type(page, last + '/then', '{"step": "too deep"}');
  const help = await page.$eval(`textarea${at(last + '/then')}[data-kind="json"]`, (e) =>
    e.getAttribute('aria-describedby').split(' ').map((id) => document.getElementById(id).textContent).join(' '));
  ok(help.includes('nested at most 128 deep'), 'recursive: past the bound, a JSON editor that names it', help);
  await page.click('#act button[type=submit]');
  await page.waitForSelector('#problems li', {timeout: 3000});
  ok((await page.$eval('#problems', (e) => e.textContent)).includes(last + '/then: nests deeper than the address reads (at most 128 levels)'),
    'recursive: the page flags an act nested too deep before sending');
  await press(page, last + '/then', 'remove');
  const v = await submit(page, 'recursive', 'recursive, 128 deep');
  const d = deep(128);
  let x = d;
  for (let i = 0; i < 127; i++) x = x.then;
  x.step = 'the very last';
  eq(v, d, 'recursive: the act of 128 levels is what the controls hold');
  await close(page, 'recursive act');
});

await test('endless: required members that recurse are filled in on demand', async () => {
  // two required kids, each with two required kids, ...: the page fills
  // in a few levels, then offers to fill in the next ones
  const t0 = Date.now();
  const page = await open('endless');
  const count = () => page.evaluate(() => [document.querySelectorAll('#controls [data-ptr]').length,
    document.querySelectorAll('button[data-action="fill"]').length]);
  const [n, fills] = await count();
  ok(n < 2000 && fills > 0, 'endless: a bounded number of controls, then buttons to fill in more', `${n} controls, ${fills} buttons`);
  const ptr = await page.$eval('button[data-action="fill"]', (e) => e.getAttribute('data-ptr'));
  await page.click('button[data-action="fill"]');
  ok(await page.$(`fieldset${at(ptr)}[data-kind="object"]`) !== null && (await count())[0] > n,
    'endless: a button fills in the next levels', ptr);
  ok(await page.evaluate((p) => document.activeElement.closest('fieldset').getAttribute('data-ptr').startsWith(p), ptr),
    'endless: the focus goes to what was filled in');
  const body = JSON.parse(await page.$eval('#body', (e) => e.value));
  let x = body;
  for (const k of ptr.split('/').slice(1)) x = x[k];
  ok(x !== undefined && Array.isArray(x.kids), 'endless: the editor holds what was filled in', JSON.stringify(x));
  notes.push(`endless: opened in ${Date.now() - t0} ms with ${n} controls`);
  await close(page, 'endless');
});

await test('failing: a 5xx is the address failing', async () => {
  const page = await open('failing');
  await type(page, '/n', '5');
  await page.click('#act button[type=submit]');
  await page.waitForFunction(() => /^\d{3}:/.test(document.getElementById('status').textContent), {timeout: 10000});
  const shown = await page.evaluate(() => [document.getElementById('status').textContent,
    document.getElementById('meaning').textContent]);
  eq(shown[0], '502: the address failed', 'failing: a 502 is shown as the address failing');
  ok(shown[1].includes('could not answer'), 'failing: with what it means', shown[1]);
  await close(page, 'failing act');
});

// --- every control kind -----------------------------------------------------

await test('kinds: every control, both ways with the editor', async () => {
  const page = await open('kinds');
  const kinds = await page.$$eval('[data-kind]', (es) => [...new Set(es.map((e) => e.getAttribute('data-kind')))].sort());
  // optional members wait to be added: never "" by default
  eq(JSON.parse(await page.$eval('#body', (e) => e.value)), {text: '', count: 3}, 'kinds: only the required members, count from its default');
  eq(await page.$eval(at('/text'), (e) => [e.placeholder, e.minLength, e.maxLength]), ['e.g. hello', 2, 20], 'kinds: a string input with its lengths and example');
  eq(await page.$eval(at('/text'), (e) => e.labels[0].textContent), 'Short text (required)', 'kinds: a required member says so in its label');
  await type(page, '/text', 'hi there');
  await press(page, '/essay', 'add');
  ok(await page.$eval(at('/essay'), (e) => e.tagName === 'TEXTAREA'), 'kinds: a long string is a text area');
  await type(page, '/essay', 'Line one.');
  await press(page, '/code', 'add');
  ok((await page.$eval(at('/code'), (e) => e.pattern)).includes('^[A-Z]{3}-[0-9]+$'), 'kinds: a pattern is the input\'s pattern');
  await type(page, '/code', 'ABC-12');
  for (const [p, t] of [['/when', 'datetime-local'], ['/day', 'date'], ['/at', 'time'], ['/mail', 'email'], ['/site', 'url'], ['/uuid', 'text']]) {
    await press(page, p, 'add');
    eq(await page.$eval(at(p), (e) => e.type), t, `kinds: format ${p.slice(1)} is input type ${t}`);
  }
  await type(page, '/day', '12012026');
  await type(page, '/at', '103005AM');
  await type(page, '/when', '12012026');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.type('103005AM');
  await type(page, '/mail', 'ada@example.org');
  await type(page, '/site', 'https://example.org/');
  await type(page, '/uuid', '2b7c1f4e-5a43-4d1e-9e0b-1c2d3e4f5a6b');
  ok((await page.$eval(at('/uuid'), (e) => e.getAttribute('aria-describedby').split(' ').map((id) => document.getElementById(id).textContent).join(' '))).includes('Format: uuid'),
    'kinds: a format without an input type is text with its rule as help');
  await press(page, '/price', 'add');
  eq(await page.$eval(at('/price'), (e) => [e.type, e.step, e.min]), ['number', '0.01', '0'], 'kinds: multipleOf 0.01 is step 0.01');
  await type(page, '/price', '12.34');
  eq(await page.$eval(at('/count'), (e) => [e.value, e.step, e.min, e.max]), ['3', '1', '1', '10'], 'kinds: an integer input with its bounds and default');
  await type(page, '/count', '4');
  await press(page, '/ok', 'add');
  await page.click(at('/ok'));
  await press(page, '/color', 'add');
  await radio(page, '/color', 'green');
  await press(page, '/size', 'add');
  await choose(page, '/size', 'select', 'l');
  await press(page, '/version', 'add');
  eq(await page.$eval(at('/version'), (e) => [e.previousSibling.textContent, e.textContent]), ['version', '1'], 'kinds: a const is shown, fixed, under its name');
  await press(page, '/maybe', 'add');
  await choose(page, '/maybe', 'types', 'string');
  await type(page, '/maybe', 'abc');
  await press(page, '/pick', 'add');
  await type(page, '/pick/name', 'first');
  await choose(page, '/pick', 'alternatives', 'By number');
  await type(page, '/pick', '7');
  await press(page, '/labels', 'add');
  await type(page, '/labels', 'team', '[data-action="member-name"]');
  await press(page, '/labels', 'add-member');
  await type(page, '/labels/team', 'blue');
  await press(page, '/headers', 'add');
  await type(page, '/headers', 'X-Trace', '[data-action="member-name"]');
  await press(page, '/headers', 'add-member');
  await type(page, '/headers/X-Trace', 'on');
  await press(page, '/point', 'add');
  eq(await page.$$eval(`li${at('/point/0')}, li${at('/point/1')}`, (es) => es.length), 2, 'kinds: prefixItems are fixed slots');
  ok(await page.$eval(`button${at('/point')}[data-action="add-item"]`, (e) => e.disabled), 'kinds: items: false allows no more items');
  await type(page, '/point/0', '1.5');
  await type(page, '/point/1', '-2');
  await press(page, '/list', 'add');
  await type(page, '/list/0', 'a');
  await press(page, '/list', 'add-item');
  await type(page, '/list/1', 'b');
  await press(page, '/list', 'add-item');
  await type(page, '/list/2', 'c');
  ok(await page.$eval(`button${at('/list')}[data-action="add-item"]`, (e) => e.disabled), 'kinds: maxItems stops adding');
  await itemButton(page, '/list', 2, 'up');
  await itemButton(page, '/list', 0, 'remove');
  eq(JSON.parse(await page.$eval('#body', (e) => e.value)).list, ['c', 'b'], 'kinds: items move and go');
  ok(await page.$eval(`li${at('/list/0')} > .tools > button[data-action="remove"]`, (e) => !e.disabled), 'kinds: removing stops at minItems only');
  await press(page, '/tree', 'add');
  await type(page, '/tree/name', 'root');
  await press(page, '/tree/kids', 'add');
  await press(page, '/tree/kids', 'add-item');
  await type(page, '/tree/kids/0/name', 'kid');
  await press(page, '/tree/kids/0/kids', 'add');
  await press(page, '/tree/kids/0/kids', 'add-item');
  await type(page, '/tree/kids/0/kids/0/name', 'grandkid');
  await press(page, '/raw', 'add');
  await type(page, '/raw', '{"a": 1, "b": 2}');
  const v = await submit(page, 'kinds', 'kinds');
  eq(v, {text: 'hi there', count: 4, essay: 'Line one.', code: 'ABC-12', when: '2026-12-01T10:30:05Z', day: '2026-12-01',
    at: '10:30:05Z', mail: 'ada@example.org', site: 'https://example.org/', uuid: '2b7c1f4e-5a43-4d1e-9e0b-1c2d3e4f5a6b',
    price: 12.34, ok: true, color: 'green', size: 'l', version: 1, maybe: 'abc', pick: 7, labels: {team: 'blue'},
    headers: {'X-Trace': 'on'}, point: [1.5, -2], list: ['c', 'b'],
    tree: {name: 'root', kids: [{name: 'kid', kids: [{name: 'grandkid'}]}]}, raw: {a: 1, b: 2}},
  'kinds: the act is what was typed and chosen');
  const all = ['alternatives', 'array', 'boolean', 'fixed', 'integer', 'json', 'number', 'object', 'radio', 'select', 'string', 'types'];
  const now = await page.$$eval('[data-kind]', (es) => [...new Set(es.map((e) => e.getAttribute('data-kind')))].sort());
  eq(now, all, 'kinds: every control kind was shown');
  await axe(page, 'kinds, every member added');
  await ringsAll(page, 'kinds');
  ok(kinds.length > 0, 'kinds: controls before adding members');
  // and back: what is typed in the editor becomes the controls
  await page.click('#body');
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.type('{"text": "from the editor", "count": 11, "maybe": null, "color": "blue"}');
  eq(await page.evaluate(() => [document.querySelector('[data-ptr="/text"]').value, document.querySelector('[data-ptr="/count"]').value,
    document.querySelector('select[data-ptr="/maybe"]').selectedOptions[0].textContent,
    [...document.querySelectorAll('[data-ptr="/color"] input')].findIndex((r) => r.checked)]),
  ['from the editor', '11', 'null', 2], 'kinds: the controls follow the editor');
  // invalid values are flagged where they are, before sending
  await type(page, '/text', 'x');
  await page.click('#act button[type=submit]');
  await page.waitForSelector('#problems li', {timeout: 3000});
  const p = await page.$eval('#problems', (e) => e.textContent);
  ok(p.includes('/text: must be at least 2 characters') && p.includes('/count: must be at most 10'), 'kinds: the page flags each broken rule', p);
  eq(await page.$eval(at('/text'), (e) => e.getAttribute('aria-invalid')), 'true', 'kinds: the control is marked invalid');
  // each kind of rule a browser can check, flagged where it breaks
  await paste(page, '{"code": "abc", "color": "pink", "ok": "yes", "price": 0.015, "list": [], "mail": "nobody"}');
  await page.click('#act button[type=submit]');
  await page.waitForSelector('#problems li', {timeout: 3000});
  const rules = await page.$eval('#problems', (e) => e.textContent);
  for (const want of ['/text: is required', '/count: is required', '/code: must match the pattern ^[A-Z]{3}-[0-9]+$',
    '/color: must be one of "red", "green", "blue"', '/ok: must be boolean, not string', '/price: must be a multiple of 0.01',
    '/list: needs at least 1 items', '/mail: must be an email address']) {
    ok(rules.includes(want), `kinds: the page flags ${want}`, rules);
  }
  ok(page.posts === 1, 'kinds: nothing more was sent', `${page.posts} POSTs`);
  await close(page, 'kinds act');
});

await test('shapes: unions and null, maps, fixed slots, bounded lists, defaults and examples', async () => {
  const page = await open('shapes');
  const body = async () => JSON.parse(await page.$eval('#body', (e) => e.value));
  const disabled = (ptr, n, action) => page.$eval(`li${at(ptr + '/' + n)} > .tools > button[data-action="${action}"]`,
    (e) => (e.hidden ? 'hidden' : e.disabled ? 'disabled' : 'enabled'));
  // required members: a default is the value, an example only a placeholder
  eq(await body(), {nick: 'anon', note: '', either: ''}, 'shapes: a default prefills, an example does not');
  eq(await page.$eval(at('/note'), (e) => [e.value, e.placeholder]), ['', 'e.g. a few words'], 'shapes: an example is the placeholder');
  await type(page, '/note', 'a note');
  // a type union is a chooser of types, null among them
  eq(await page.$eval(`select${at('/either')}`, (e) => [...e.options].map((o) => o.textContent)), ['string', 'integer', 'null'],
    'shapes: a type union offers its types');
  await choose(page, '/either', 'types', 'integer');
  await type(page, '/either', '5');
  eq((await body()).either, 5, 'shapes: the chosen type gives its control');
  await choose(page, '/either', 'types', 'null');
  eq((await body()).either, null, 'shapes: null chosen is null');
  await press(page, '/nullable', 'add');
  eq(await page.$eval(`select${at('/nullable')}`, (e) => [...e.options].map((o) => o.textContent)), ['integer', 'null'],
    'shapes: anyOf with null offers null as an alternative');
  await choose(page, '/nullable', 'alternatives', 'null');
  // defaults prefill an optional member when it is added
  for (const k of ['greeting', 'loud', 'tone', 'origin', 'words', 'level']) await press(page, '/' + k, 'add');
  eq(await page.evaluate(() => [document.querySelector('[data-ptr="/greeting"]').value,
    document.querySelector('[data-ptr="/loud"]').checked,
    [...document.querySelectorAll('[data-ptr="/tone"] input')].findIndex((r) => r.checked),
    document.querySelector('[data-ptr="/origin/x"]').value, document.querySelector('[data-ptr="/origin/y"]').value,
    document.querySelector('input[data-ptr="/words/1"]').value, document.querySelector('[data-ptr="/level"]').placeholder]),
  ['hello', true, 1, '1', '2', 'two', 'e.g. 42'], 'shapes: defaults prefill added members, examples are placeholders');
  await type(page, '/level', '7');
  await page.click(at('/loud'));
  // an open map: a row for each key, added by name, removed by name
  await press(page, '/scores', 'add');
  for (const [k, n] of [['ada', '3'], ['bob', '5']]) {
    await type(page, '/scores', k, '[data-action="member-name"]');
    await press(page, '/scores', 'add-member');
    await type(page, '/scores/' + k, n);
  }
  await type(page, '/scores', 'bob', '[data-action="member-name"]');
  await press(page, '/scores', 'add-member');
  ok((await page.$eval(`fieldset${at('/scores')} > .error`, (e) => [e.textContent, e.getAttribute('aria-live')].join(' '))).includes('"bob" is already a member polite'),
    'shapes: a key given twice is refused, and the refusal is announced');
  await press(page, '/scores/ada', 'remove');
  await press(page, '/env', 'add');
  await type(page, '/env', 'nope', '[data-action="member-name"]');
  await press(page, '/env', 'add-member');
  ok((await page.$eval(`fieldset${at('/env')} > .error`, (e) => e.textContent)).includes('"nope" is not a member this form allows'),
    'shapes: a key no pattern admits is refused');
  await type(page, '/env', 'X_DEBUG', '[data-action="member-name"]');
  await press(page, '/env', 'add-member');
  eq(await page.$eval(at('/env/X_DEBUG'), (e) => e.type), 'checkbox', 'shapes: a key matching a pattern gets its schema\'s control');
  await page.click(at('/env/X_DEBUG'));
  await press(page, '/env/HOME', 'add');
  await type(page, '/env/HOME', '/home/ada');
  // prefixItems: fixed slots, each with its own control; they do not move
  await press(page, '/row', 'add');
  for (let i = 0; i < 5; i++) await press(page, '/row', 'add-item');
  eq(await page.$$eval(`li[data-ptr^="/row/"] > .field > :is(input, textarea), li[data-ptr^="/row/"] > .field > label > input`,
    (es) => es.map((e) => e.type)), ['text', 'number', 'checkbox', 'text', 'text'], 'shapes: each slot has its schema\'s control');
  eq([await disabled('/row', 0, 'up'), await disabled('/row', 1, 'down'), await disabled('/row', 1, 'remove'),
    await disabled('/row', 3, 'up'), await disabled('/row', 3, 'down'), await disabled('/row', 4, 'down')],
  ['hidden', 'hidden', 'disabled', 'disabled', 'enabled', 'disabled'],
  'shapes: fixed slots neither move nor leave a gap; later items move among themselves only');
  await type(page, '/row/0', 'Ada');
  await type(page, '/row/1', '36');
  await page.click(at('/row/2'));
  await type(page, '/row/3', 'x');
  await type(page, '/row/4', 'y');
  await itemButton(page, '/row', 4, 'up');
  // a list within minItems 2 and maxItems 3: the buttons say where the bounds are
  await press(page, '/trio', 'add');
  eq([await disabled('/trio', 0, 'up'), await disabled('/trio', 0, 'remove'), await disabled('/trio', 1, 'down'),
    await disabled('/trio', 1, 'remove')], ['disabled', 'disabled', 'disabled', 'disabled'], 'shapes: at minItems nothing can be removed');
  await type(page, '/trio/0', 'a');
  await type(page, '/trio/1', 'b');
  await press(page, '/trio', 'add-item');
  await type(page, '/trio/2', 'c');
  ok(await page.$eval(`button${at('/trio')}[data-action="add-item"]`, (e) => e.disabled), 'shapes: at maxItems nothing can be added');
  eq([await disabled('/trio', 0, 'remove'), await disabled('/trio', 1, 'up'), await disabled('/trio', 1, 'down')],
    ['enabled', 'enabled', 'enabled'], 'shapes: inside the bounds every item moves and goes');
  await itemButton(page, '/trio', 2, 'up');
  await itemButton(page, '/trio', 0, 'remove');
  eq(await disabled('/trio', 0, 'remove'), 'disabled', 'shapes: back at minItems, removing stops');
  const v = await submit(page, 'shapes', 'shapes');
  eq(v, {nick: 'anon', note: 'a note', either: null, nullable: null, greeting: 'hello', loud: false, tone: 'bright',
    origin: {x: 1, y: 2}, words: ['one', 'two'], level: 7, scores: {bob: 5}, env: {X_DEBUG: true, HOME: '/home/ada'},
    row: ['Ada', 36, true, 'y', 'x'], trio: ['c', 'b']}, 'shapes: the act is what was chosen, typed and prefilled');
  await axe(page, 'shapes, every member added');
  await ringsAll(page, 'shapes');
  await close(page, 'shapes act');
});

await test('hostile: strings of the form never break out of the page', async () => {
  const page = await open('hostile');
  const doc = JSON.parse(fs.readFileSync(path.join(arg.root, 'hostile', 'form.json'), 'utf8'));
  const key = '</script><script>window.pwned = 4</script>';
  const seen = await page.evaluate(() => [window.pwned === undefined, document.scripts.length, document.title,
    document.querySelector('h1').textContent, document.querySelector('.p').textContent,
    document.querySelectorAll('img').length, document.querySelector('[data-ptr="/quote\\"d"]') === null]);
  ok(seen[0], 'hostile: no script of the form ran');
  eq(seen[1], 2, 'hostile: the page has its two script elements, no more');
  eq(seen[2], doc.s.title.slice(0, 80), 'hostile: the title is the form\'s, as text');
  eq(seen[3], doc.s.title, 'hostile: the heading is the form\'s title, as text');
  eq(seen[4], doc.p, 'hostile: p is shown as text');
  eq(seen[5], 0, 'hostile: no element of the form\'s making');
  const labels = await page.$eval(at('/' + key.replace(/~/g, '~0').replace(/\//g, '~1')), (e) => [...e.querySelectorAll('label')].map((l) => l.textContent));
  eq(labels, ['</script>', '<!--', '"\\u2028"', '\'"'], 'hostile: enum values are shown as text');
  await press(page, '/quote"d', 'add');
  eq(await page.$eval(at('/quote"d'), (e) => e.value), '</textarea><script>window.pwned = 6</script>', 'hostile: a default is a value, not markup');
  await radio(page, '/' + key.replace(/\//g, '~1'), '"\\u2028"');
  const v = await submit(page, 'hostile', 'hostile');
  eq(v, {[key]: '\u2028', ['__proto__']: 'a member like any other', 'quote"d': '</textarea><script>window.pwned = 6</script>'},
    'hostile: the act carries the strings exactly, "__proto__" as a member');
  await close(page, 'hostile act');
});

await browser.close();
for (const line of axeTotals) console.log('axe: ' + line);
for (const n of notes) console.log(n);
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
