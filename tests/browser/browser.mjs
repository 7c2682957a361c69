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
    // and neither is the sandbox refusing an answer's script in its preview
    if (m.type() === 'error' && !/^Failed to load resource: the server responded with a status of (412|422|502)\b/.test(m.text()) &&
      !/^Blocked script execution in 'about:srcdoc'/.test(m.text())) {
      page.trouble.push('console: ' + m.text());
    }
  });
  page.on('request', (r) => {
    // data: URLs are the browser's own (the date picker's icons)
    if (!r.url().startsWith(`${arg.base}/${a}`) && !r.url().startsWith('data:') && r.url() !== 'about:srcdoc') page.trouble.push('request elsewhere: ' + r.url());
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
  await page.waitForFunction(() => /^\d{3}:/.test(document.getElementById('status').textContent), {timeout: 30000});
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
  await page.waitForFunction(() => /^\d{3}:/.test(document.getElementById('status').textContent), {timeout: 30000});
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
  const bad = r;
  ok(bad.length === 0, `${label}: axe finds no violation at all`,
    bad.map((v) => `${v.id} (${v.impact}, ${v.n}: ${v.where})`).join('; '));
  axeTotals.push(`${label}: ${r.length} violation(s)${r.length ? ' (' + r.map((v) => v.id + '/' + v.impact).join(', ') + ')' : ''}`);
}

ok(examples.length >= 4, 'the example addresses are served', examples.join(' '));
for (const a of examples.concat(['kinds', 'shapes', 'hostile', 'pydantic', 'zod-union', 'openapi-body', 'styled-recursive'])) {
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
        ok(await page.evaluate(() => document.querySelectorAll('[src], [href], link, img, iframe:not(#preview), object, embed').length === 0 &&
          !document.getElementById('preview').hasAttribute('src') &&
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
  // a changed act (the same one is never resent by a second click)
  await type(page, '/note', 'Hello again.');
  // the form changes while the page is open: the act carries If-Match
  // with the ETag the page was built with, and the 412 says what to do
  const file = path.join(arg.root, 'echo', 'form.json');
  const form = JSON.parse(fs.readFileSync(file, 'utf8'));
  form.p += ' Changed.';
  fs.writeFileSync(file + '.new', JSON.stringify(form));
  fs.renameSync(file + '.new', file);
  // (a process that has not seen the new form yet accepts the act: then
  // the act is changed, since the same one is never sent twice)
  let status = '';
  let note = 'Hello again.';
  for (let i = 0; i < 40 && !status.startsWith('412'); i++) {
    await new Promise((r) => setTimeout(r, 250));
    if (status.startsWith('200')) {
      note = note === 'Hello again.' ? 'Hello again!' : 'Hello again.';
      await type(page, '/note', note);
    }
    await page.click('#act button[type=submit]');
    await page.waitForFunction(() => /^\d{3}:/.test(document.getElementById('status').textContent), {timeout: 30000});
    status = await page.$eval('#status', (e) => e.textContent);
  }
  eq(status, '412: the form changed', 'echo: a changed form is shown as a 412');
  await page.waitForFunction(() => /kept what you typed/.test(document.getElementById('meaning').textContent), {timeout: 10000});
  eq(await page.evaluate(() => [document.querySelector('[data-ptr="/note"]').value, JSON.parse(document.getElementById('body').value).tags]),
    [note, ['hello', 'second']], 'echo: after a 412 the page reloads the form and keeps what was typed');
  fs.rmSync(path.join(arg.root, 'echo', 'received'), {force: true});
  await page.$eval('#status', (e) => { e.textContent = ''; });
  await page.click('#act button[type=submit]');
  eq((await answer(page))[0], '200: accepted', 'echo: the act sent again after the reload is accepted (the new ETag)');
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
  ok(flagged[0].includes('cents: Enter 1 or more.') && !flagged[0].includes('/cents'), 'ledger: the page names the member and the rule in words, no pointer', flagged[0]);
  ok((await page.$eval('#body-error', (e) => e.textContent)).includes('/cents minimum'), 'ledger: the JSON editor keeps the pointer and the keyword');
  ok(flagged[1] === 'true' && flagged[2] === '/cents', 'ledger: the control is marked invalid and focused', flagged.join(' | '));
  ok(flagged[3].includes('Enter 1 or more.'), 'ledger: the error is in the control\'s description (read by screen readers)', flagged[3]);
  ok(page.posts === before && received('ledger') === null, 'ledger: nothing is sent while the page sees a problem');
  // the person insists: the address is the judge, 204
  await page.click('#anyway');
  await page.waitForFunction(() => /^204/.test(document.getElementById('status').textContent), {timeout: 30000});
  const shown = await page.evaluate(() => [document.getElementById('status').textContent,
    document.getElementById('meaning').textContent]);
  eq(shown[0], '204: rejected by the address', 'ledger: a 204 is shown as a rejection');
  ok(shown[1].includes('cents: Enter 1 or more.'), 'ledger: with the page\'s own best guess why', shown[1]);
  ok(await page.$eval('#response', (e) => e.hidden && getComputedStyle(e).display === 'none'), 'ledger: no empty bar under a 204');
  // a whole number where the form asks for one, in words
  await type(page, '/cents', '12.5');
  await page.click('#act button[type=submit]');
  await page.waitForSelector('#problems li', {timeout: 3000});
  ok((await page.$eval('#problems', (e) => e.textContent)).includes('cents: Enter a whole number of cents, such as 1250.'),
    'ledger: "Enter a whole number of cents, such as 1250"', await page.$eval('#problems', (e) => e.textContent));
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
  ok(said[0] && said[1].includes('name: Enter at least 1 character.') && said[1].includes('message: Enter at least 1 character.'),
    'guestbook: the problems are announced in the alert region', said[1]);
  ok(said[2] === 'polite' && said[3].includes('Enter at least 1 character.') && said[4],
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
  await page.waitForFunction(() => /^\d{3}:/.test(document.getElementById('status').textContent), {timeout: 30000});
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
  eq(await page.$eval(`select${at('/nodes/1')}`, (e) => [...e.options].map((o) => o.textContent)), ['Text', 'Span'],
    'styled-text: alternatives named from the form, not "string / object"');
  await choose(page, '/nodes/1', 'alternatives', 'Span');
  await choose(page, '/nodes/1/style', 'select', 'link');
  await press(page, '/nodes/1/href', 'add');
  await type(page, '/nodes/1/href', 'https://example.org/draft');
  await press(page, '/nodes/1/children', 'add-item');
  await choose(page, '/nodes/1/children/0', 'alternatives', 'Span');
  await choose(page, '/nodes/1/children/0/style', 'select', 'bold');
  await press(page, '/nodes/1/children/0/children', 'add-item');
  await type(page, '/nodes/1/children/0/children/0', 'draft');
  await press(page, '/nodes', 'add-item');
  await type(page, '/nodes/2', '.');
  const v = await submit(page, 'styled-text', 'styled-text');
  eq(v, {nodes: ['Read the ', {style: 'link', children: [{style: 'bold', children: ['draft']}],
    href: 'https://example.org/draft'}, '.'], title: 'A note'}, 'styled-text: the act is the tree that was built');
  // items named once, by the form's name for them
  const names = await page.evaluate(() => [...document.querySelectorAll('#controls legend, #controls label')].map((e) => e.textContent));
  ok(names.filter((t) => t === 'Node 2').length === 1 && !names.some((t) => /^Item \d/.test(t)), 'styled-text: items are "Node 2", once, never "Item 1"', names.join(' | '));
  const help = await page.$eval(`fieldset${at('/nodes')}`, (e) => e.querySelector(':scope > .help').textContent);
  eq(help, 'Up to 100,000 items.', 'styled-text: help in words');
  ok(await page.$eval(`fieldset${at('/nodes')}`, (e) => e.textContent.includes('Up to 10,000 characters.') && !e.querySelector('details.pattern[open]') &&
    e.querySelector('details.pattern code').textContent === '^https?://[!-~]+$'), 'styled-text: the pattern only behind its disclosure');
  // a bad href: the error on the href, in words, not on the whole item
  await type(page, '/nodes/1/href', 'ftp://example.org');
  await page.click('#act button[type=submit]');
  await page.waitForSelector('#problems li', {timeout: 3000});
  const where = await page.evaluate(() => [document.getElementById('problems').textContent,
    document.querySelector('[data-ptr="/nodes/1/href"]').getAttribute('aria-invalid'),
    document.getElementById(document.querySelector('[data-ptr="/nodes/1/href"]').id + '-e').textContent,
    document.querySelector('select[data-ptr="/nodes/1"]').getAttribute('aria-invalid')]);
  ok(where[0].includes('Node 2 \u203a href: Enter it in the form the field\'s pattern gives.') && !where[0].includes('/nodes'),
    'styled-text: the problem names the member in words', where[0]);
  ok(where[1] === 'true' && where[2].includes('pattern gives') && where[3] === null, 'styled-text: marked on the href, not on the item', where.join(' | '));
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
  // a day of the right shape that no calendar has: the page cannot tell
  await paste(page, '{"text": "fine", "count": 3, "day": "2026-02-30"}');
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
  ok((await page.$eval('#problems', (e) => e.textContent)).includes('Nest it less deep: the address reads acts nested at most 128 levels'),
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
  await page.waitForFunction(() => /^\d{3}:/.test(document.getElementById('status').textContent), {timeout: 30000});
  const shown = await page.evaluate(() => [document.getElementById('status').textContent,
    document.getElementById('meaning').textContent]);
  eq(shown[0], '502: the address failed', 'failing: a 502 is shown as the address failing');
  ok(shown[1].includes('could not answer') && shown[1].includes('may have been stored'), 'failing: a 502 says the act may have been stored', shown[1]);
  // the address keeps keys (its store can be made): the retry is safe,
  // and it is the same act, under the same Idempotency-Key
  ok(shown[1].includes('same Idempotency-Key') && await page.$eval('#retry', (e) => !e.hidden),
    'failing: after a 502 the page offers a safe retry, under the same key', shown[1]);
  const keys = [];
  page.on('request', (r) => { if (r.method() === 'POST') keys.push(r.headers()['idempotency-key']); });
  await page.evaluate(() => { document.getElementById('status').textContent = ''; });
  await page.click('#retry');
  await page.waitForFunction(() => /^\d{3}:/.test(document.getElementById('status').textContent), {timeout: 30000});
  await page.evaluate(() => { document.getElementById('status').textContent = ''; });
  await page.click('#act button[type=submit]');
  await page.waitForFunction(() => /^\d{3}:/.test(document.getElementById('status').textContent), {timeout: 30000});
  ok(keys.length === 2 && /^[0-9a-f]{32}$/.test(keys[0]) && keys[0] === keys[1],
    'failing: the retry and a second Submit of the same act resend it with the same Idempotency-Key', JSON.stringify(keys));
  // a changed act is another act: a new key
  await type(page, '/n', '6');
  await page.click('#act button[type=submit]');
  await page.waitForFunction((n) => document.getElementById('status').textContent.startsWith('502'), {timeout: 10000});
  await new Promise((r) => setTimeout(r, 200));
  ok(keys.length === 3 && keys[2] !== keys[0] && /^[0-9a-f]{32}$/.test(keys[2]), 'failing: a changed act gets a new key', JSON.stringify(keys));
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
  ok((await page.$eval(at('/uuid'), (e) => e.getAttribute('aria-describedby').split(' ').map((id) => document.getElementById(id).textContent).join(' '))).includes('Enter a UUID'),
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
  ok(p.includes('Short text: Enter at least 2 characters (now 1).') && p.includes('count: Enter 10 or less.'), 'kinds: the page flags each broken rule, in words', p);
  eq(await page.$eval(at('/text'), (e) => e.getAttribute('aria-invalid')), 'true', 'kinds: the control is marked invalid');
  // each kind of rule a browser can check, flagged where it breaks
  await paste(page, '{"code": "abc", "color": "pink", "ok": "yes", "price": 0.015, "list": [], "mail": "nobody"}');
  await page.click('#act button[type=submit]');
  await page.waitForSelector('#problems li', {timeout: 3000});
  const rules = await page.$eval('#problems', (e) => e.textContent);
  for (const want of ['Short text: Fill this in: it is required.', 'count: Fill this in: it is required.',
    'code: Enter it in the form the field\'s pattern gives.', 'color: Choose one of \u201cred\u201d, \u201cgreen\u201d, \u201cblue\u201d.',
    'ok: Enter yes or no.', 'price: Enter at most 2 digits after the decimal point.', 'list: Add at least 1 item.', 'mail: Enter an email address.']) {
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
  eq(await page.$eval(`select${at('/nullable')}`, (e) => [...e.options].map((o) => o.textContent)), ['Whole number', 'Nothing (null)'],
    'shapes: anyOf with null offers null as an alternative');
  await choose(page, '/nullable', 'alternatives', 'Nothing (null)');
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
  await page.click(`input${at('/row/2')}`);
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

// --- real-world forms, the answer, layout at depth -------------------------

// The answer lost on its way: the act reaches the address, its hook runs
// and its 200 is kept under the key, but the browser gets a 502 in its
// place (the DevTools protocol answers for the network at the response
// stage, after the server's real answer).  The safe retry resends the same
// bytes with the same key: the address answers the first answer again,
// and the hook ran once.
await test('keyed: a retry after a lost answer stores once', async () => {
  const page = await open('keyed');
  const runs = () => { const f = path.join(arg.root, 'keyed', 'runs'); return fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').length - 1 : 0; };
  const before = runs();
  const cdp = await page.target().createCDPSession();
  const keys = [];
  let lose = 1;
  cdp.on('Fetch.requestPaused', async (e) => {
    if (e.request.method === 'POST') keys.push(e.request.headers['Idempotency-Key']);
    if (e.request.method === 'POST' && lose > 0) {
      lose--;
      await cdp.send('Fetch.fulfillRequest', {requestId: e.requestId, responseCode: 502,
        responseHeaders: [{name: 'Content-Type', value: 'text/plain'}], body: Buffer.from('Bad Gateway\n').toString('base64')});
    } else {
      await cdp.send('Fetch.continueRequest', {requestId: e.requestId});
    }
  });
  await cdp.send('Fetch.enable', {patterns: [{urlPattern: `${arg.base}/keyed*`, requestStage: 'Response'}]});
  await type(page, '/note', 'Buy milk.');
  await page.click('#act button[type=submit]');
  let shown = await answer(page);
  eq(shown[0], '502: the address failed', 'keyed: the lost answer is a 502 to the page');
  ok(shown[1].includes('may have been stored') && shown[1].includes('safe'), 'keyed: the 502 says the act may have been stored, and that a retry is safe', shown[1]);
  eq(runs() - before, 1, 'keyed: the hook did run (the answer was lost after it)');
  await page.evaluate(() => { document.getElementById('status').textContent = ''; });
  await page.click('#retry');
  shown = await answer(page);
  eq(shown[0], '200: accepted before', 'keyed: the retry gets the first answer again');
  ok(shown[1].includes('did not run it again'), 'keyed: the page says the act was not run again', shown[1]);
  eq(JSON.parse(shown[2]), {runs: before + 1}, 'keyed: the answer is the first one, replayed');
  eq(runs() - before, 1, 'keyed: a retry with the same key stores once');
  ok(keys.length === 2 && keys[0] === keys[1] && /^[0-9a-f]{32}$/.test(keys[0] || ''), 'keyed: the retry carried the same Idempotency-Key', JSON.stringify(keys));
  // "Send another", the same text again: a new act, a new key, run again
  await page.click('#again');
  await type(page, '/note', 'Buy milk.');
  await page.click('#act button[type=submit]');
  shown = await answer(page);
  eq(shown[0], '200: accepted', 'keyed: the same text composed anew is a new act');
  eq(runs() - before, 2, 'keyed: ... and it runs');
  ok(keys.length === 3 && keys[2] !== keys[0], 'keyed: ... under a new key', JSON.stringify(keys));
  await cdp.send('Fetch.disable');
  await close(page, 'keyed act');
});

// A task (act = task): 202 with a Location; the page polls it at its
// pollInterval, shows the hook's progress lines and its result, and
// cancels a task with a DELETE.
async function taskOf(page) {
  return new Promise((resolve) => page.on('response', (r) => {
    if (r.status() === 202 && r.request().method() === 'POST') resolve(new URL(r.headers().location, arg.base).href);
  }));
}
await test('task: progress, the result, and cancel', async () => {
  const page = await open('task');
  const url = taskOf(page);
  await type(page, '/steps', '4');
  await page.click('#act button[type=submit]');
  await page.waitForFunction(() => document.getElementById('status').textContent === '202: working' &&
    /step \d of 4/.test(document.getElementById('meaning').textContent), {timeout: 15000});
  const during = await page.evaluate(() => {
    const p = document.getElementById('progress');
    return {shown: !p.hidden, value: p.value, text: p.getAttribute('aria-valuetext'), cancel: !document.getElementById('cancel').hidden,
      meaning: document.getElementById('meaning').textContent};
  });
  ok(during.shown && during.value > 0 && during.value <= 1 && during.cancel, 'task: while it works, the page shows its progress and offers Cancel', JSON.stringify(during));
  ok(/^\d+%: step \d of 4$/.test(during.text || ''), 'task: the progress bar says its value and message in words', during.text);
  await axe(page, 'task, working');
  await page.waitForFunction(() => document.getElementById('status').textContent === 'Completed', {timeout: 20000});
  const done = await page.evaluate(() => [document.getElementById('meaning').textContent, document.getElementById('response').textContent,
    document.getElementById('progress').hidden, document.getElementById('cancel').hidden, !document.getElementById('again').hidden]);
  ok(done[0].includes('completed'), 'task: the page says the task completed', done[0]);
  eq(JSON.parse(done[1]), {steps: 4, done: true}, 'task: the result is the hook\'s answer');
  eq(done.slice(2), [true, true, true], 'task: once it completed, no progress bar, no Cancel, "Send another" offered');
  const doc = await (await fetch(await url, {headers: {Accept: 'application/json'}})).json();
  eq([doc.status, doc.result], ['completed', {steps: 4, done: true}], 'task: the page showed what the task resource holds');
  await page.screenshot({path: path.join(arg.out, 'task-completed.png'), fullPage: true});
  await close(page, 'task act');

  const slow = await open('task', {width: 390});
  const url2 = taskOf(slow);
  const deletes = [];
  slow.on('request', (r) => { if (r.method() === 'DELETE') deletes.push(r.url()); });
  await type(slow, '/steps', '60');
  await slow.click('#act button[type=submit]');
  await slow.waitForFunction(() => document.getElementById('status').textContent === '202: working', {timeout: 15000});
  await slow.screenshot({path: path.join(arg.out, 'task-working-390.png'), fullPage: true});
  await slow.click('#cancel');
  await slow.waitForFunction(() => document.getElementById('status').textContent === 'Cancelled', {timeout: 15000});
  const t = await url2;
  eq(deletes, [t], 'task: Cancel sends one DELETE to the task');
  const doc2 = await (await fetch(t, {headers: {Accept: 'application/json'}})).json();
  eq(doc2.status, 'cancelled', 'task: the task resource says cancelled');
  ok(await slow.$eval('#cancel', (e) => e.hidden) && await slow.$eval('#progress', (e) => e.hidden), 'task: once cancelled, no Cancel and no progress bar');
  await close(slow, 'task cancelled');
});

await test('task-either: act = either, the page asks for a task', async () => {
  const page = await open('task-either');
  const prefer = [];
  page.on('request', (r) => { if (r.method() === 'POST') prefer.push(r.headers().prefer); });
  const url = taskOf(page);
  await type(page, '/steps', '1');
  await page.click('#act button[type=submit]');
  await page.waitForFunction(() => document.getElementById('status').textContent === 'Completed', {timeout: 20000});
  eq(prefer, ['respond-async'], 'task-either: the act says Prefer: respond-async');
  eq(JSON.parse(await page.$eval('#response', (e) => e.textContent)), {steps: 1, done: true}, 'task-either: the task\'s result is shown');
  const doc = await (await fetch(await url, {headers: {Accept: 'application/json'}})).json();
  eq(doc.status, 'completed', 'task-either: the act was a task (202, a task resource)');
  await close(page, 'task-either act');
});

await test('next: the addresses an answer names, where its form types them, are offered as links', async () => {
  const page = await open('next');
  eq(await page.$eval('#next', (e) => e.hidden), true, 'next: no next steps before an answer');
  await type(page, '/title', 'Printer jams');
  await page.click('#act button[type=submit]');
  const [status] = await answer(page);
  eq(status, '200: accepted', 'next: the act is accepted (the answer fits its form)');
  const steps = await page.$$eval('#next li', (ls) => ls.map((l) => {
    const a = l.querySelector('a');
    return {text: l.textContent, href: a ? a.href : null};
  }));
  const base = new URL(page.url());
  eq(steps, [
    {text: 'Comment on it: ticket-7', href: new URL('ticket-7', base).href},
    {text: 'close: ../close?t=7', href: new URL('../close?t=7', base).href},
    {text: 'elsewhere: javascript:alert(1)', href: null},
  ], 'next: the typed members, resolved against the address; a javascript: one as text; an untyped string not offered');
  eq(await page.$eval('#next', (e) => e.hidden), false, 'next: the next steps are shown');
  await axe(page, 'next answered');
  await page.click('#again');
  eq(await page.$eval('#next', (e) => e.hidden), true, 'next: Send another clears them');
  await close(page, 'next act');
});

await test('pydantic: a model as Pydantic writes it; numbers as typed; prose; send another', async () => {
  const page = await open('pydantic');
  eq(await page.$eval('h1', (e) => e.textContent), 'Member', 'pydantic: the heading is the model\'s title');
  await type(page, '/name', 'Ada Lovelace');
  await type(page, '/age', '36');
  await press(page, '/balance', 'add');
  await type(page, '/balance', '12.50');
  ok((await page.$eval('#body', (e) => e.value)).includes('"balance": 12.50'), 'pydantic: 12.50 stays 12.50 in the act');
  await press(page, '/address', 'add');
  eq(await page.$eval(`select${at('/address')}`, (e) => [...e.options].map((o) => o.textContent)), ['Address', 'Nothing (null)'],
    'pydantic: Optional[Address] offers the model by its title, and null');
  await choose(page, '/address', 'alternatives', 'Address');
  await type(page, '/address/street', '12 St James\'s Square');
  await type(page, '/address/city', 'London');
  await press(page, '/bio', 'add');
  const prose = await page.$eval(at('/bio'), (e) => [e.tagName, e.spellcheck, getComputedStyle(e).fontFamily === getComputedStyle(document.body).fontFamily]);
  eq(prose, ['TEXTAREA', true, true], 'pydantic: prose is a text area in the body font, spelling checked');
  await type(page, '/bio', 'Wrote the first program.');
  const v = await submit(page, 'pydantic', 'pydantic');
  eq(v, {name: 'Ada Lovelace', age: 36, balance: 12.5, address: {street: '12 St James\'s Square', city: 'London'},
    bio: 'Wrote the first program.'}, 'pydantic: the act is what was typed and chosen');
  ok(received('pydantic').toString().includes('"balance": 12.50'), 'pydantic: the address received 12.50 as typed');
  // the same act again is not resent by a second click
  const posts = page.posts;
  await page.click('#act button[type=submit]');
  await page.waitForFunction(() => document.getElementById('status').textContent === 'Not sent', {timeout: 5000});
  ok(page.posts === posts && (await page.$eval('#meaning', (e) => e.textContent)).includes('already accepted'),
    'pydantic: a second click on an accepted act sends nothing');
  ok(await page.$eval('#again', (e) => !e.hidden), 'pydantic: after a 200, "Send another" is offered');
  await page.click('#again');
  eq(JSON.parse(await page.$eval('#body', (e) => e.value)), {name: ''}, 'pydantic: "Send another" gives a clear form');
  await axe(page, 'pydantic, filled in');
  await close(page, 'pydantic act');
});

await test('zod-union: a discriminated union, named by its discriminator', async () => {
  const page = await open('zod-union');
  eq(await page.$eval('h1', (e) => e.textContent), 'zod-union', 'zod-union: without a title, the heading is the address\'s name');
  eq(await page.$eval(`select${at('/shape')}`, (e) => [...e.options].map((o) => o.textContent)), ['Circle', 'Square', 'Polygon'],
    'zod-union: the branches are named by their kind, not "object / object / object"');
  await choose(page, '/shape', 'alternatives', 'Polygon');
  eq(await page.$$eval(`fieldset[data-ptr="/shape/points"] > ol > li`, (es) => es.length), 3, 'zod-union: a polygon starts with its 3 points (minItems)');
  const pts = [['0', '0'], ['4', '0'], ['0', '3.0']];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 2; j++) await type(page, `/shape/points/${i}/${j}`, pts[i][j]);
  const v = await submit(page, 'zod-union', 'zod-union');
  eq(v, {shape: {kind: 'polygon', points: [[0, 0], [4, 0], [0, 3]]}}, 'zod-union: the act is the polygon');
  ok(received('zod-union').toString().includes('3.0'), 'zod-union: 3.0 stays 3.0');
  await choose(page, '/shape', 'alternatives', 'Circle');
  await type(page, '/shape/radius', '0');
  await page.click('#act button[type=submit]');
  await page.waitForSelector('#problems li', {timeout: 3000});
  ok((await page.$eval('#problems', (e) => e.textContent)).includes('radius: Enter more than 0.'), 'zod-union: the error is on the radius, in words');
  await close(page, 'zod-union act');
});

await test('openapi-body: an OpenAPI request body with its components', async () => {
  const page = await open('openapi-body');
  await type(page, '/name', 'Rex');
  await choose(page, '/species', 'select', 'dog');
  await press(page, '/chip', 'add');
  await type(page, '/chip', '276098106543210');
  await press(page, '/owner', 'add');
  await type(page, '/owner/email', 'ada@example.org');
  await press(page, '/vaccinated', 'add');
  await page.click(at('/vaccinated'));
  const v = await submit(page, 'openapi-body', 'openapi-body');
  eq(v, {name: 'Rex', species: 'dog', chip: 276098106543210, owner: {email: 'ada@example.org'}, vaccinated: true}, 'openapi-body: the act');
  await type(page, '/chip', '1e16');
  await page.click('#act button[type=submit]');
  await page.waitForSelector('#problems li', {timeout: 3000});
  ok((await page.$eval('#problems', (e) => e.textContent)).includes('chip: Enter 999,999,999,999,999 or less.'), 'openapi-body: an int64 bound, exact, in words');
  await close(page, 'openapi-body act');
});

await test('styled-recursive: the full depth, its layout, and an HTML answer previewed', async () => {
  const shots = [];
  for (const width of [360, 390, 1280]) {
    const page = await open('styled-recursive', {width, height: 900});
    // three spans deep, then text: the deepest control of the example
    let p = '/nodes/0';
    await press(page, '/nodes', 'add-item');
    for (let d = 0; d < 4; d++) {
      await choose(page, p, 'alternatives', 'Span');
      await press(page, p + '/children', 'add-item');
      p += '/children/0';
    }
    await type(page, p, 'deep');
    const m = await page.evaluate((ptr) => {
      const input = document.querySelector(`:is(input, textarea)[data-ptr="${ptr}"]`);
      const pads = [];
      for (let e = input.parentElement; e; e = e.parentElement) {
        if (e.tagName === 'FIELDSET' || (e.tagName === 'LI' && e.parentElement.classList.contains('items'))) pads.push(parseFloat(getComputedStyle(e).paddingLeft));
      }
      return {w: input.getBoundingClientRect().width, pads, scroll: document.documentElement.scrollWidth, inner: window.innerWidth};
    }, p);
    ok(m.pads.length >= 10 && m.pads.every((x) => x >= 6), `styled-recursive: every level keeps its padding at ${width} px`, JSON.stringify(m.pads));
    ok(m.w >= 160 && m.scroll <= m.inner, `styled-recursive: the deepest input stays usable at ${width} px`, `${m.w} px wide, scrollWidth ${m.scroll}`);
    const file = path.join(arg.out, `styled-recursive-depth-${width}.png`);
    await page.screenshot({path: file, fullPage: true});
    shots.push(file);
    if (width === 1280) {
      fs.rmSync(path.join(arg.root, 'styled-recursive', 'received'), {force: true});
      await page.click('#act button[type=submit]');
      eq((await answer(page))[0], '200: accepted', 'styled-recursive: the deep act is accepted');
      await page.waitForSelector('#preview:not([hidden])', {timeout: 5000});
      const frame = page.frames().find((f) => f !== page.mainFrame());
      const inside = frame ? await frame.evaluate(() => [document.querySelectorAll('b').length]).catch((e) => ['error ' + e.message]) : ['no frame'];
      eq(await page.$eval('#preview', (e) => [e.getAttribute('sandbox'), e.hidden]), ['', false], 'styled-recursive: an {"html"} answer is previewed in a sandboxed frame');
      ok(inside[0] === 1, 'styled-recursive: the preview shows the answer\'s markup', JSON.stringify(inside));
      ok(await page.evaluate(() => window.pwned === undefined), 'styled-recursive: the answer\'s script did not run');
      await axe(page, 'styled-recursive, at full depth with its answer');
    }
    await close(page, `styled-recursive at ${width} px`);
  }
  notes.push('screenshots at depth: ' + shots.map((f) => path.basename(f)).join(', '));
});

await browser.close();
for (const line of axeTotals) console.log('axe: ' + line);
for (const n of notes) console.log(n);
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
