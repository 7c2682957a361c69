/* page.js: the human page's one script (see src/web/html.h).  Embedded in the
 * page; the Content-Security-Policy allows it by its hash, so it never
 * carries a byte of the form: it reads the form's description from the
 * inert JSON data block (the element "gpt-form"), builds a control per
 * value from it, keeps the JSON editor in sync both ways, checks what a
 * browser can before sending, sends the editor's exact text to this very
 * URL and says what the answer means.
 *
 * The description (built by src/web/html.c from the compiled form, the
 * one the address enforces): {"root": I, "jsonDepth": J, "schemaDepth": S,
 * "maxBody": B?, "type": T?, "keys": true?, "etag": E?, "name": A?,
 * "keywords": {NAME: KIND...}, "nodes": [NODE...]}; keys: the address
 * keeps Idempotency-Keys, so each act carries one.
 * A node is true, false or an object whose keys are the JSON Schema
 * keywords they describe, with subschemas as node numbers: title,
 * description, default, examples; type (a list), const, enum; minimum,
 * maximum, exclusiveMinimum, exclusiveMaximum, multipleOf (the number
 * text as written); minLength, maxLength, pattern, format (a string's
 * or a number's), contentEncoding, contentMediaType, contentSchema;
 * minItems, maxItems, prefixItems, items, contains, minContains,
 * maxContains, uniqueItems; properties ([name, node, {annotations}?]),
 * required, patternProperties ([source, node]), additionalProperties,
 * propertyNames, minProperties, maxProperties, dependentRequired ([name,
 * [names]]), dependentSchemas ([name, node]); $ref, allOf, anyOf,
 * oneOf, not, if, then, else.  Three keys are the page's own: x-defName
 * (the name the form gave the schema under $defs, definitions or
 * components/schemas) and x-opaque (the keywords the page cannot judge,
 * by name: the page's check says "cannot tell" there, and the controls
 * give that part a JSON editor); x-integerText (true: an integer is a
 * number written without a fraction or exponent, as draft-04 has it).
 *
 * The script has three parts.  The core (values with numbers kept as
 * written, exact decimals, the check, shapes, words) touches no DOM: in
 * node it is the whole script's result (the tests load these very
 * bytes).  The widgets are a registry, chosen for each value by the first
 * resolver of a table that fits its shape.  The rest is the page: the
 * editor, sending and the answers. */
(function (G) {
  "use strict";

  /* ==== values ============================================================
   * A value is what JSON.parse gives, except that a number is a Num that
   * keeps its text as written (12.50 stays 12.50, 2^53 + 1 stays exact),
   * and an object has no prototype (so "__proto__" is a member like any). */

  function Num(text) { this.text = text; }
  function has(o, k) { return o !== null && typeof o === "object" && Object.prototype.hasOwnProperty.call(o, k); }
  function map() { return Object.create(null); }
  function put(o, k, v) { Object.defineProperty(o, k, {value: v, enumerable: true, writable: true, configurable: true}); }
  var ESCAPES = {"\"": "\"", "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t"};
  var NUMBER_TEXT = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

  /* Strict JSON text to a value, as the address's parser reads an act:
   * nothing after the value, no duplicate member, no lone surrogate, at
   * most maxDepth nested containers.  Throws a SyntaxError that says where. */
  function parse(text, maxDepth) {
    var i = 0, n = text.length, limit = maxDepth || 1e9;
    function fail(what) {
      var line = 1, col = 1, k;
      for (k = 0; k < i && k < n; k++) { if (text.charCodeAt(k) === 10) { line++; col = 1; } else col++; }
      throw new SyntaxError(what + " at line " + line + ", column " + col);
    }
    function ws() { for (;;) { var c = text.charCodeAt(i); if (c === 32 || c === 9 || c === 10 || c === 13) i++; else return; } }
    function str() {
      var out = "", start;
      i++;
      for (;;) {
        start = i;
        while (i < n) { var c = text.charCodeAt(i); if (c === 34 || c === 92 || c < 32) break; i++; }
        out += text.slice(start, i);
        if (i >= n) fail("a string that does not end");
        var ch = text.charCodeAt(i);
        if (ch === 34) { i++; break; }
        if (ch < 32) fail("a control character in a string");
        i++;
        var e = text.charAt(i++);
        if (e === "u") {
          var hex = text.slice(i, i + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("a bad \\u escape");
          out += String.fromCharCode(parseInt(hex, 16));
          i += 4;
        } else if (has(ESCAPES, e)) out += ESCAPES[e];
        else fail("a bad escape");
      }
      if (lone(out)) fail("a lone surrogate in a string");
      return out;
    }
    function value(depth) {
      ws();
      var c = text.charAt(i), v, m;
      if (c === "{" || c === "[") {
        if (depth >= limit) fail("nesting deeper than " + limit + " levels");
        i++;
        ws();
        if (c === "[") {
          v = [];
          if (text.charAt(i) === "]") { i++; return v; }
          for (;;) {
            v.push(value(depth + 1));
            ws();
            c = text.charAt(i++);
            if (c === "]") return v;
            if (c !== ",") { i--; fail("a ',' or ']' expected"); }
          }
        }
        v = map();
        if (text.charAt(i) === "}") { i++; return v; }
        for (;;) {
          ws();
          if (text.charAt(i) !== "\"") fail("a member name expected");
          var key = str();
          if (has(v, key)) { i--; fail("the member " + JSON.stringify(key) + " given twice"); }
          ws();
          if (text.charAt(i++) !== ":") { i--; fail("a ':' expected"); }
          put(v, key, value(depth + 1));
          ws();
          c = text.charAt(i++);
          if (c === "}") return v;
          if (c !== ",") { i--; fail("a ',' or '}' expected"); }
        }
      }
      if (c === "\"") return str();
      if (text.startsWith("true", i)) { i += 4; return true; }
      if (text.startsWith("false", i)) { i += 5; return false; }
      if (text.startsWith("null", i)) { i += 4; return null; }
      m = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
      m.lastIndex = i;
      var t = m.exec(text);
      if (t && t[0] !== "" && t[0] !== "-") { i += t[0].length; return new Num(t[0]); }
      fail(i >= n ? "the text ends early" : "an unexpected character");
    }
    var v = value(0);
    ws();
    if (i < n) fail("text after the value");
    return v;
  }
  /* a lone surrogate: valid in a JS string, refused in an act */
  function lone(s) { return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s); }

  /* A value as JSON text, pretty with indent spaces (0: compact). */
  function stringify(v, indent) {
    var pad = indent ? "\n" : "", sep = indent ? ": " : ":";
    function go(x, at) {
      if (x instanceof Num) return x.text;
      if (x === null || typeof x !== "object") return JSON.stringify(x);
      var inner = indent ? at + " ".repeat(indent) : "", parts = [];
      if (Array.isArray(x)) {
        if (x.length === 0) return "[]";
        x.forEach(function (y) { parts.push(inner + go(y === undefined ? null : y, inner)); });
        return "[" + pad + parts.join("," + pad) + pad + at + "]";
      }
      Object.keys(x).forEach(function (k) { if (x[k] !== undefined) parts.push(inner + JSON.stringify(k) + sep + go(x[k], inner)); });
      if (parts.length === 0) return "{}";
      return "{" + pad + parts.join("," + pad) + pad + at + "}";
    }
    return go(v, "");
  }

  function typeOf(v) {
    if (v === null) return "null";
    if (Array.isArray(v)) return "array";
    if (v instanceof Num) return isInteger(v) ? "integer" : "number";
    return typeof v;
  }

  /* ==== exact decimals ====================================================
   * A number's text as sign, coefficient (a BigInt without trailing zeros)
   * and exponent: the value is (-1)^neg * c * 10^e.  Comparisons never
   * build a power of ten longer than the texts compared. */

  var decCache = map();
  function dec(text) {
    if (text instanceof Num) text = text.text;
    if (decCache[text]) return decCache[text];
    var m = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(String(text));
    var digits = (m[2] + (m[3] || "")).replace(/^0+/, ""), e = (m[4] ? Number(m[4]) : 0) - (m[3] ? m[3].length : 0);
    var zeros = /0*$/.exec(digits)[0].length;
    digits = digits.slice(0, digits.length - zeros);
    e += zeros;
    var d = digits === "" ? {neg: false, c: BigInt(0), e: 0, len: 0} : {neg: m[1] === "-", c: BigInt(digits), e: e, len: digits.length};
    decCache[text] = d;
    return d;
  }
  function isInteger(v) { var d = dec(v); return d.len === 0 || d.e >= 0; }
  /* |a| against |b|: -1, 0, 1 */
  function magCmp(a, b) {
    if (a.len === 0 || b.len === 0) return a.len === b.len ? 0 : a.len === 0 ? -1 : 1;
    var oa = a.len + a.e, ob = b.len + b.e;
    if (oa !== ob) return oa < ob ? -1 : 1;
    /* the same order of magnitude: the exponents differ by less than the digits */
    var ca = a.c, cb = b.c, ten = BigInt(10);
    if (a.e > b.e) ca *= ten ** BigInt(a.e - b.e); else if (b.e > a.e) cb *= ten ** BigInt(b.e - a.e);
    return ca === cb ? 0 : ca < cb ? -1 : 1;
  }
  function decCmp(x, y) {
    var a = dec(x), b = dec(y);
    if (a.neg !== b.neg) return a.neg ? -1 : 1;
    var m = magCmp(a, b);
    return a.neg ? -m : m;
  }
  /* Is v a multiple of m (m > 0)?  v / m = (cv / cm) * 10^(ev - em). */
  function decMultiple(v, m) {
    var a = dec(v), b = dec(m), ten = BigInt(10);
    if (a.len === 0) return true;
    if (a.e >= b.e) return a.c * modPow(ten, a.e - b.e, b.c) % b.c === BigInt(0);
    /* a needs to hold b's coefficient times 10^(b.e - a.e): more digits than it has, never */
    if (b.e - a.e > a.len) return false;
    return a.c % (b.c * ten ** BigInt(b.e - a.e)) === BigInt(0);
  }
  function modPow(base, exp, mod) {
    var r = BigInt(1) % mod, b = base % mod, k = exp;
    while (k > 0) { if (k % 2 === 1) r = r * b % mod; b = b * b % mod; k = Math.floor(k / 2); }
    return r;
  }

  /* JSON equality: 1 == 1.0, members in any order */
  function same(a, b) {
    if (a instanceof Num || b instanceof Num) return a instanceof Num && b instanceof Num && decCmp(a, b) === 0;
    var ta = typeOf(a), k;
    if (ta !== typeOf(b)) return false;
    if (ta === "array") {
      if (a.length !== b.length) return false;
      for (k = 0; k < a.length; k++) if (!same(a[k], b[k])) return false;
      return true;
    }
    if (ta === "object") {
      var ka = Object.keys(a);
      if (ka.length !== Object.keys(b).length) return false;
      for (k = 0; k < ka.length; k++) if (!has(b, ka[k]) || !same(a[ka[k]], b[ka[k]])) return false;
      return true;
    }
    return a === b;
  }
  function codepoints(s) { var n = 0, i; for (i = 0; i < s.length; i++) { n++; var c = s.charCodeAt(i); if (c >= 0xD800 && c < 0xDC00) i++; } return n; }
  function utf8Length(s) { var n = 0, i, c; for (i = 0; i < s.length; i++) { c = s.charCodeAt(i); n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xD800 && c < 0xDC00 ? (i++, 4) : 3; } return n; }

  /* JavaScript's patterns have no step limit: a quantified group that
   * itself repeats or alternates, (a+)+ or (a|aa)*, can take years on a
   * line of text.  The page does not run those (the address's engine is
   * bounded): null, as for a pattern it cannot read. */
  var NESTED = /\((?:[^()\\]|\\.)*(?:[+*}|])(?:[^()\\]|\\.)*\)(?:[+*?]|\{\d)/;
  var reCache = map();
  function regex(src) {
    if (!has(reCache, src)) {
      try { reCache[src] = NESTED.test(src) ? null : new RegExp(src, "u"); } catch (e) { reCache[src] = null; }
    }
    return reCache[src];
  }

  /* ==== the description ================================================= */

  /* The keywords a description may carry, by the names the address's
   * keyword registry gives them (the description lists them: K.minLength
   * is "minLength"), and the form of each one's value: "node" (a node
   * number), "nodes" (a list of them), "pairs" ([name, node, ...]),
   * "count", "number" (the text as written) or "value". */
  var K = map(), KINDS = map(), ANNOTATIONS = map(), SCALAR = [];
  function learn(keywords) {
    Object.keys(keywords).forEach(function (k) { put(K, k, k); put(KINDS, k, keywords[k]); });
    [K.title, K.description, K.default, K.examples, "x-defName"].forEach(function (k) { put(ANNOTATIONS, k, 1); });
    /* the keywords a shape takes whole from the nodes it folds; it merges
     * the others, or they make it opaque */
    var merged = [K.type, K.prefixItems, K.properties, K.required, K.patternProperties, K.dependentRequired,
      K.dependentSchemas, K.$ref, K.allOf, K.not, K.if, K.then, K.else, K.minContains, K.maxContains];
    SCALAR = Object.keys(K).filter(function (k) { return merged.indexOf(k) < 0; }).concat(["x-defName"]);
  }
  /* The description's text (the data block) as the core reads it: node
   * numbers and counts as numbers, bounds and values exact. */
  function readDescription(text) {
    var d = parse(text);
    learn(d.keywords || map());
    function num(x) { return x instanceof Num ? Number(x.text) : x; }
    d.root = num(d.root);
    d.jsonDepth = num(d.jsonDepth) || 128;
    d.schemaDepth = num(d.schemaDepth) || 512;
    if (has(d, "maxBody")) d.maxBody = num(d.maxBody);
    d.nodes = d.nodes.map(function (n) {
      if (n === true || n === false) return n;
      Object.keys(n).forEach(function (k) {
        var kind = KINDS[k];
        if (kind === "node" || kind === "count") n[k] = num(n[k]);
        else if (kind === "nodes") n[k] = n[k].map(num);
        else if (kind === "pairs") n[k].forEach(function (p) { p[1] = num(p[1]); });
      });
      return n;
    });
    return d;
  }

  /* ==== formats ===========================================================
   * exact: the page decides the format as the address does; shape: a
   * value off the shape is surely wrong, one on it may still be (a 30
   * February), so the page cannot tell. */
  var FLOAT_LIMIT = "340282356779733661637539395458142568448";
  var DOUBLE_LIMIT = "17976931348623158079372897140530341507993413271003782693617377898044" +
    "49682927647509466490179775872070963302864166928879109465555478519404" +
    "02630657488671505820681908902000708383676273854845817711531764475730" +
    "27006985557136695962284291481986083493647529271907416844436551070434" +
    "2711559699508093042880177904174497792";
  function within(v, lo, hi) { return isInteger(v) && decCmp(v, lo) >= 0 && decCmp(v, hi) <= 0; }
  function below(v, limit) { var d = dec(v); return magCmp(d, dec(limit)) < 0; }
  var FORMATS = {
    "int32": {on: "number", exact: function (v) { return within(v, "-2147483648", "2147483647"); }, words: "a whole number from -2,147,483,648 to 2,147,483,647"},
    "int64": {on: "number", exact: function (v) { return within(v, "-9223372036854775808", "9223372036854775807"); }, words: "a whole number that fits in 64 bits"},
    "float": {on: "number", exact: function (v) { return below(v, FLOAT_LIMIT); }, words: "a number that fits a 32-bit float"},
    "double": {on: "number", exact: function (v) { return below(v, DOUBLE_LIMIT); }, words: "a number that fits a 64-bit float"},
    "uuid": {on: "string", exact: function (s) { return /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(s); },
      words: "a UUID such as 2b7c1f4e-5a43-4d1e-9e0b-1c2d3e4f5a6b"},
    "byte": {on: "string", exact: base64, words: "base64 text"},
    "binary": {on: "string", exact: function () { return true; }},
    "password": {on: "string", exact: function () { return true; }},
    "date": {on: "string", shape: /^\d{4}-\d\d-\d\d$/, words: "a date as YYYY-MM-DD"},
    "time": {on: "string", shape: /^\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:\d\d)$/, words: "a time as HH:MM:SS with its zone, such as 10:30:00Z"},
    "date-time": {on: "string", shape: /^\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:\d\d)$/, words: "a date and time such as 2026-12-01T10:30:00Z"},
    "email": {on: "string", shape: /^[^@\s]+@[^@\s]+$/, words: "an email address"},
    "idn-email": {on: "string", shape: /^[^@\s]+@[^@\s]+$/, words: "an email address"},
    "uri": {on: "string", shape: /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/, words: "a full address with its scheme (https: and the rest)"},
    "iri": {on: "string", shape: /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/, words: "a full address with its scheme (https: and the rest)"},
    "ipv4": {on: "string", shape: /^\d{1,3}(\.\d{1,3}){3}$/, words: "an IPv4 address such as 192.0.2.1"},
    "hostname": {on: "string", shape: /^[^\s/@:]+$/, words: "a host name such as example.org"}
  };
  /* the input types that carry a format's shape themselves */
  var INPUT_FOR_FORMAT = {"date": "date", "time": "time", "date-time": "datetime-local", "email": "email", "idn-email": "email", "uri": "url", "iri": "url"};
  function base64(s) {
    if (s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(s)) return false;
    var pad = /=*$/.exec(s)[0].length;
    if (pad === 0) return true;
    var last = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".indexOf(s.charAt(s.length - pad - 1));
    return (last & (pad === 2 ? 0xF : 0x3)) === 0;
  }

  /* ==== the check =========================================================
   * check(value) judges a value as the address would, as far as the page
   * can: {verdict: "accept" | "reject" | "unsure", problems: [{ptr,
   * keyword, words, sure}]}.  "reject" only on a problem that is sure;
   * "accept" only when every keyword met was decided exactly; "unsure"
   * where the page met what it cannot judge (x-opaque, a format it knows
   * only the shape of, a pattern JavaScript cannot read, its own budget).
   * The differential test holds the page to the address wherever it is
   * not unsure. */

  function Checker(desc) {
    this.N = desc.nodes;
    this.desc = desc;
  }
  /* a round's state: its problems, whether it is unsure, its budget */
  function Round(budget) { this.problems = []; this.unsure = []; this.budget = budget; }
  Round.prototype.bad = function (ptr, keyword, words, sure) {
    this.problems.push({ptr: ptr, keyword: keyword, words: words, sure: sure !== false});
  };
  Round.prototype.maybe = function (ptr, why) { if (this.unsure.length < 20) this.unsure.push(ptr + ": " + why); };
  Round.prototype.verdict = function () {
    for (var k = 0; k < this.problems.length; k++) if (this.problems[k].sure) return "no";
    return this.unsure.length || this.problems.length ? "maybe" : "yes";
  };
  Checker.prototype.sub = function (i, v, ptr, r, depth) {
    var s = new Round(r.budget);
    this.node(i, v, ptr, s, depth + 1);
    r.budget = s.budget;
    return s;
  };
  function esc(s) { return s.replace(/~/g, "~0").replace(/\//g, "~1"); }
  function plural(n, one, many) { return n + " " + (Number(n) === 1 ? one : many || one + "s"); }

  /* Keyword checks by instance type, in the order the problems read. */
  var CHECKS = {
    string: function (c, n, v, ptr, r) {
      var len = codepoints(v);
      if (lone(v)) r.bad(ptr, K.type, "Use only whole characters (this text holds half of one).");
      if (has(n, K.minLength) && len < n.minLength)
        r.bad(ptr, K.minLength, len === 0 && n.minLength === 1 ? "Enter at least 1 character." : "Enter at least " + plural(n.minLength, "character") + " (now " + len + ").");
      if (has(n, K.maxLength) && len > n.maxLength) r.bad(ptr, K.maxLength, "Enter at most " + plural(count(n.maxLength), "character") + " (now " + count(len) + ").");
      if (has(n, K.pattern)) {
        var re = regex(n.pattern);
        if (!re) r.maybe(ptr, "a pattern this browser cannot read");
        else if (!re.test(v)) r.bad(ptr, K.pattern, patternWords(n));
      }
      if (has(n, K.format)) formatCheck(n, v, ptr, r, "string");
      if (has(n, K.contentEncoding) || has(n, K.contentMediaType) || has(n, K.contentSchema)) {
        if (n.contentEncoding && !/^[A-Za-z0-9+/_=-]*$/.test(v)) r.bad(ptr, K.contentEncoding, "Enter " + n.contentEncoding + " text (letters, digits, + / or - _, and =).", false);
        r.maybe(ptr, "the address decodes the content");
      }
    },
    number: function (c, n, v, ptr, r) {
      if (has(n, K.minimum) && decCmp(v, n.minimum) < 0) r.bad(ptr, K.minimum, "Enter " + count(n.minimum) + " or more.");
      if (has(n, K.maximum) && decCmp(v, n.maximum) > 0) r.bad(ptr, K.maximum, "Enter " + count(n.maximum) + " or less.");
      if (has(n, K.exclusiveMinimum) && decCmp(v, n.exclusiveMinimum) <= 0) r.bad(ptr, K.exclusiveMinimum, "Enter more than " + count(n.exclusiveMinimum) + ".");
      if (has(n, K.exclusiveMaximum) && decCmp(v, n.exclusiveMaximum) >= 0) r.bad(ptr, K.exclusiveMaximum, "Enter less than " + count(n.exclusiveMaximum) + ".");
      if (has(n, K.multipleOf) && !decMultiple(v, n.multipleOf)) r.bad(ptr, K.multipleOf, multipleWords(n.multipleOf));
      if (has(n, K.format)) formatCheck(n, v, ptr, r, "number");
    },
    array: function (c, n, v, ptr, r, depth) {
      var k, j;
      if (has(n, K.minItems) && v.length < n.minItems) r.bad(ptr, K.minItems, "Add at least " + plural(count(n.minItems), "item") + ".");
      if (has(n, K.maxItems) && v.length > n.maxItems) r.bad(ptr, K.maxItems, "Keep at most " + plural(count(n.maxItems), "item") + " (now " + count(v.length) + ").");
      if (n.uniqueItems) {
        outer: for (k = 1; k < v.length; k++) for (j = 0; j < k; j++)
          if (same(v[k], v[j])) { r.bad(ptr + "/" + k, K.uniqueItems, "Change this item: it repeats item " + (j + 1) + ", and items must differ."); break outer; }
      }
      var np = n.prefixItems ? n.prefixItems.length : 0;
      for (k = 0; k < v.length; k++) {
        if (k < np) c.node(n.prefixItems[k], v[k], ptr + "/" + k, r, depth + 1);
        else if (has(n, K.items)) c.node(n.items, v[k], ptr + "/" + k, r, depth + 1);
      }
      if (has(n, K.contains)) {
        var yes = 0, maybe = 0, lo = has(n, K.minContains) ? n.minContains : 1, hi = has(n, K.maxContains) ? n.maxContains : Infinity;
        v.forEach(function (x, q) { var s = c.sub(n.contains, x, ptr + "/" + q, r, depth).verdict(); if (s === "yes") yes++; else if (s === "maybe") maybe++; });
        if (yes + maybe < lo) r.bad(ptr, K.contains, lo === 1 ? "Add an item of the kind the form asks for." : "Add items: at least " + lo + " of the kind the form asks for.");
        else if (yes > hi) r.bad(ptr, K.maxContains, "Keep at most " + hi + " items of that kind.");
        else if (yes < lo || yes + maybe > hi) r.maybe(ptr, K.contains);
      }
    },
    object: function (c, n, v, ptr, r, depth) {
      var keys = Object.keys(v), props = map();
      (n.properties || []).forEach(function (p) { props[p[0]] = p[1]; });
      (n.required || []).forEach(function (name) {
        if (!has(v, name)) r.bad(ptr + "/" + esc(name), K.required, "Fill this in: it is required.");
      });
      if (has(n, K.minProperties) && keys.length < n.minProperties) r.bad(ptr, K.minProperties, "Give at least " + plural(n.minProperties, "member") + ".");
      if (has(n, K.maxProperties) && keys.length > n.maxProperties) r.bad(ptr, K.maxProperties, "Give at most " + plural(n.maxProperties, "member") + " (now " + keys.length + ").");
      (n.dependentRequired || []).forEach(function (d) {
        if (has(v, d[0])) d[1].forEach(function (need) {
          if (!has(v, need)) r.bad(ptr + "/" + esc(need), K.dependentRequired, "Fill this in: it is required with " + JSON.stringify(d[0]) + ".");
        });
      });
      (n.dependentSchemas || []).forEach(function (d) { if (has(v, d[0])) c.node(d[1], v, ptr, r, depth + 1); });
      keys.forEach(function (key) {
        var p = ptr + "/" + esc(key), matched = false;
        if (has(n, K.propertyNames)) {
          var s = c.sub(n.propertyNames, key, p, r, depth);
          s.problems.forEach(function (e) { r.bad(p, K.propertyNames, "Rename " + JSON.stringify(key) + ": " + lower(e.words), e.sure); });
          s.unsure.forEach(function (u) { r.maybe(p, u); });
        }
        if (has(props, key)) { matched = true; c.node(props[key], v[key], p, r, depth + 1); }
        (n.patternProperties || []).forEach(function (pp) {
          var re = regex(pp[0]);
          if (!re) { matched = true; r.maybe(p, "a pattern this browser cannot read"); }
          else if (re.test(key)) { matched = true; c.node(pp[1], v[key], p, r, depth + 1); }
        });
        if (!matched && has(n, K.additionalProperties)) {
          if (c.N[n.additionalProperties] === false) r.bad(p, K.additionalProperties, "Remove " + JSON.stringify(key) + ": the form has no such member.");
          else c.node(n.additionalProperties, v[key], p, r, depth + 1);
        }
      });
    }
  };
  CHECKS.integer = CHECKS.number;
  function lower(s) { return s.charAt(0).toLowerCase() + s.slice(1); }
  function formatCheck(n, v, ptr, r, on) {
    var f = FORMATS[n.format];
    /* a format the page does not know, or a known one on the other type
     * (the registry's int64 also reads a string of digits): the address
     * decides */
    if (!f || f.on !== on) { r.maybe(ptr, "format " + n.format); return; }
    if (f.exact) { if (!f.exact(v)) r.bad(ptr, K.format, "Enter " + f.words + "."); return; }
    if (!f.shape.test(v)) r.bad(ptr, K.format, "Enter " + f.words + ".", false);
    else r.maybe(ptr, "format " + n.format);
  }

  /* Judge v against node i; problems go to the round r. */
  Checker.prototype.node = function (i, v, ptr, r, depth) {
    var n = this.N[i], c = this, t, k;
    if (--r.budget < 0) { r.maybe(ptr, "the page's budget"); return; }
    if (depth > this.desc.schemaDepth) { r.maybe(ptr, "deeper than the page checks"); return; }
    if (n === true) return;
    if (n === false) { r.bad(ptr, "false", "Remove this: no value is allowed here."); return; }
    if (n["x-opaque"]) { r.maybe(ptr, n["x-opaque"].join(", ")); return; }
    t = typeOf(v);
    /* draft-04: 1.0 and 1e2 are numbers, not integers */
    if (t === "integer" && n["x-integerText"] && /[.eE]/.test(v.text)) t = "number";
    if (n.type && !(n.type.indexOf(t) >= 0 || (t === "integer" && n.type.indexOf("number") >= 0))) {
      r.bad(ptr, K.type, typeWords(n));
      return;
    }
    if (has(n, K.const) && !same(n[K.const], v)) r.bad(ptr, K.const, "Use the value " + show(n[K.const]) + ".");
    if (n[K.enum] && !n[K.enum].some(function (e) { return same(e, v); }))
      r.bad(ptr, K.enum, n[K.enum].length === 1 ? "Use the value " + show(n[K.enum][0]) + "." : "Choose one of " + n[K.enum].map(show).join(", ") + ".");
    if (has(CHECKS, t)) CHECKS[t](this, n, v, ptr, r, depth);
    if (has(n, K.$ref)) this.node(n.$ref, v, ptr, r, depth + 1);
    (n.allOf || []).forEach(function (a) { c.node(a, v, ptr, r, depth + 1); });
    if (n.anyOf) this.alternatives(n.anyOf, v, ptr, r, depth, false);
    if (n.oneOf) this.alternatives(n.oneOf, v, ptr, r, depth, true);
    if (has(n, K.not)) {
      k = this.sub(n.not, v, ptr, r, depth).verdict();
      if (k === "yes") r.bad(ptr, K.not, "Change this: the form rules this value out.");
      else if (k === "maybe") r.maybe(ptr, K.not);
    }
    if (has(n, K.if)) {
      var cond = this.sub(n[K.if], v, ptr, r, depth).verdict();
      var yes = has(n, K.then) ? this.sub(n.then, v, ptr, r, depth) : null, no = has(n, K.else) ? this.sub(n[K.else], v, ptr, r, depth) : null;
      var pick = cond === "yes" ? [yes] : cond === "no" ? [no] : [yes, no];
      var verdicts = pick.map(function (s) { return s ? s.verdict() : "yes"; });
      if (cond !== "maybe" && pick[0]) pick[0].problems.forEach(function (e) { r.problems.push(e); });
      if (cond !== "maybe" && pick[0]) pick[0].unsure.forEach(function (u) { r.unsure.push(u); });
      if (cond === "maybe" && !(verdicts[0] === "yes" && verdicts[1] === "yes")) r.maybe(ptr, K.if);
    }
  };
  /* anyOf (one false) and oneOf (one true): when none fits, the problems of
   * the closest alternative, so the person sees the member that failed */
  Checker.prototype.alternatives = function (alts, v, ptr, r, depth, one) {
    var c = this, rounds = alts.map(function (a) { return c.sub(a, v, ptr, r, depth); });
    var yes = 0, maybe = 0;
    rounds.forEach(function (s) { var x = s.verdict(); if (x === "yes") yes++; else if (x === "maybe") maybe++; });
    var keyword = one ? K.oneOf : K.anyOf;
    if (one && yes > 1) { r.bad(ptr, keyword, "Change this: it fits " + yes + " of the form's alternatives, and must fit exactly one."); return; }
    if (yes === 1 || (!one && yes > 0)) { if (one && maybe > 0) r.maybe(ptr, keyword); return; }
    if (maybe > 0) { r.maybe(ptr, keyword); return; }
    var best = closest(rounds, ptr);
    if (best) best.problems.forEach(function (e) { r.problems.push(e); });
    else r.bad(ptr, keyword, "Change this: it fits none of the form's alternatives.");
  };
  /* the alternative whose type fits and whose problems lie deepest, fewest */
  function closest(rounds, ptr) {
    var best = null, score = -Infinity;
    rounds.forEach(function (s) {
      var typed = !s.problems.some(function (e) { return e.ptr === ptr && /^(type|const|enum|false)$/.test(e.keyword); });
      var deep = s.problems.reduce(function (m, e) { return Math.max(m, e.ptr.split("/").length); }, 0);
      var sc = (typed ? 1000 : 0) + deep * 10 - s.problems.length;
      if (s.problems.length && sc > score) { score = sc; best = s; }
    });
    return best;
  }

  /* Judge a whole act's text: the parse as the address does it, then the
   * form. */
  Checker.prototype.judge = function (text) {
    var r = new Round(200000), v;
    if (has(this.desc, "maxBody") && utf8Length(text) > this.desc.maxBody) {
      r.bad("", "maxBody", "Make the act shorter: the address takes at most " + count(this.desc.maxBody) + " bytes.");
      return {verdict: "reject", problems: r.problems, unsure: r.unsure};
    }
    try { v = parse(text, this.desc.jsonDepth); } catch (e) {
      r.bad("", "json", /^nesting deeper/.test(e.message)
        ? "Nest it less deep: the address reads acts nested at most " + this.desc.jsonDepth + " levels (" + e.message + ")."
        : "The act is not JSON yet: " + e.message + ".");
      return {verdict: "reject", problems: r.problems, unsure: r.unsure};
    }
    return this.value(v);
  };
  Checker.prototype.value = function (v) {
    var r = new Round(200000);
    this.node(this.desc.root, v, "", r, 0);
    var x = r.verdict();
    return {verdict: x === "yes" ? "accept" : x === "no" ? "reject" : "unsure", problems: r.problems, unsure: r.unsure};
  };

  /* ==== words ============================================================ */

  function show(v) {
    if (typeof v === "string") return "\u201c" + v + "\u201d";
    return stringify(v, 0);
  }
  /* 100000 -> 100,000: counts and bounds as people read them */
  function count(x) {
    var t = x instanceof Num ? x.text : String(x);
    var m = /^(-?)([0-9]+)$/.exec(t);
    return m ? m[1] + m[2].replace(/\B(?=([0-9]{3})+$)/g, ",") : t;
  }
  var TYPE_WORDS = {string: "text", integer: "a whole number", number: "a number", boolean: "yes or no", object: "a group of fields", array: "a list", "null": "nothing (null)"};
  function typeWords(n) {
    var what = n.type.map(function (t) { return TYPE_WORDS[t]; }).join(" or ");
    var unit = has(n, K.description) ? /\bin ([a-z]+)\.?$/i.exec(n.description) : null;
    var ex = example(n);
    return "Enter " + what + (unit && n.type.length === 1 && /integer|number/.test(n.type[0]) ? " of " + unit[1] : "") +
      (ex !== undefined ? ", such as " + stringify(ex, 0) : "") + ".";
  }
  function example(n) {
    if (n.examples && n.examples.length && typeof n.examples[0] !== "object") return n.examples[0];
    if (n.examples && n.examples[0] instanceof Num) return n.examples[0];
    return undefined;
  }
  function multipleWords(m) {
    var d = dec(m);
    if (d.len === 1 && d.c === BigInt(1) && d.e < 0) return "Enter at most " + plural(-d.e, "digit", "digits") + " after the decimal point.";
    if (d.len === 1 && d.c === BigInt(1) && d.e === 0) return "Enter a whole number.";
    return "Enter a multiple of " + count(m) + ".";
  }
  function patternWords(n) {
    var ex = example(n);
    return (has(n, K.description) ? "Enter it as the description says" : "Enter it in the form the field's pattern gives") +
      (ex !== undefined ? ", such as " + (ex instanceof Num ? ex.text : ex) : "") + ".";
  }
  /* Help for a value: sentences in words; a pattern only where the form
   * gives no description (then the page shows it behind a disclosure). */
  function helpSentences(s) {
    var out = [], b = [];
    if (has(s, K.description)) out.push(sentence(s.description));
    var lo = has(s, K.minLength) ? s.minLength : 0, hi = has(s, K.maxLength) ? s.maxLength : null;
    if (lo > 0 && hi !== null) out.push(lo === hi ? "Exactly " + plural(count(lo), "character") + "." : count(lo) + " to " + count(hi) + " characters.");
    else if (lo > 1) out.push("At least " + count(lo) + " characters.");
    else if (hi !== null) out.push("Up to " + plural(count(hi), "character") + ".");
    if (has(s, K.format) && FORMATS[s.format] && FORMATS[s.format].words && !INPUT_FOR_FORMAT[s.format]) out.push(sentence("Enter " + FORMATS[s.format].words));
    else if (has(s, K.format) && !FORMATS[s.format]) out.push("Format: " + s.format + ".");
    if (has(s, K.minimum) && has(s, K.maximum)) out.push("From " + count(s.minimum) + " to " + count(s.maximum) + ".");
    else {
      if (has(s, K.minimum)) b.push(count(s.minimum) + " or more");
      if (has(s, K.maximum)) b.push(count(s.maximum) + " or less");
    }
    if (has(s, K.exclusiveMinimum)) b.push("more than " + count(s.exclusiveMinimum));
    if (has(s, K.exclusiveMaximum)) b.push("less than " + count(s.exclusiveMaximum));
    if (b.length) out.push(sentence(b.join(" and ")));
    if (has(s, K.multipleOf)) out.push(multipleWords(s.multipleOf).replace(/^Enter a/, "A").replace(/^Enter at most/, "At most"));
    if (has(s, K.minItems) && has(s, K.maxItems)) out.push(s.minItems === s.maxItems ? "Exactly " + plural(count(s.minItems), "item") + "." : count(s.minItems) + " to " + count(s.maxItems) + " items.");
    else if (has(s, K.minItems)) out.push("At least " + plural(count(s.minItems), "item") + ".");
    else if (has(s, K.maxItems)) out.push("Up to " + plural(count(s.maxItems), "item") + ".");
    if (s.uniqueItems) out.push("No two items may be the same.");
    if (has(s, K.contentEncoding)) out.push(sentence((s.contentMediaType === "application/json" ? "JSON, " : "") + s.contentEncoding + "-encoded; the address decodes and checks it"));
    else if (s.contentMediaType === "application/json") out.push("JSON as text; the address checks it.");
    if (has(s, K.propertyNames)) out.push("Member names follow the form's rule for names.");
    return out;
  }
  function sentence(t) { t = String(t).trim(); return /[.!?:]$/.test(t) ? t : t + "."; }
  /* "styled_text", "styledText", "span1" -> "Styled text", "Span" */
  function humanize(name) {
    var t = String(name).replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").replace(/\s*[0-9]+$/, "").trim();
    if (t === "") t = String(name);
    return t.charAt(0).toUpperCase() + t.slice(1).toLowerCase();
  }

  /* ==== shapes: a node with its $ref and allOf folded in, for controls == */

  /* the controls' view of node i: opaque when its parts cannot be shown as
   * one set of controls (the check still judges them) */
  function Shapes(desc) { this.N = desc.nodes; this.cache = []; }
  Shapes.prototype.of = function (i) {
    if (this.cache[i]) return this.cache[i];
    var N = this.N, s = {properties: [], required: [], patternProperties: [], prefixItems: null, type: null, opaque: false, nothing: false};
    var folds = 0;
    function fold(j, d, outer) {
      var n = N[j], x;
      if (d > 16 || ++folds > 2000) { s.opaque = true; return; }
      if (n === false) { s.nothing = true; return; }
      if (n === true) return;
      if (n["x-opaque"] || has(n, K.if) || has(n, K.not) || n.dependentRequired || n.dependentSchemas) { s.opaque = true; return; }
      SCALAR.forEach(function (key) {
        if (!has(n, key)) return;
        if (has(ANNOTATIONS, key)) { if (outer || !has(s, key)) s[key] = n[key]; return; }
        if (has(s, key) && !same(s[key], n[key])) { s.opaque = true; return; }
        s[key] = n[key];
      });
      if (n.type) s.type = s.type ? s.type.filter(function (y) { return n.type.indexOf(y) >= 0 || (y === "integer" && n.type.indexOf("number") >= 0); }) : n.type.slice();
      if (n.prefixItems) { if (s.prefixItems) s.opaque = true; else s.prefixItems = n.prefixItems; }
      (n.properties || []).forEach(function (p) {
        for (x = 0; x < s.properties.length; x++) if (s.properties[x][0] === p[0]) { if (s.properties[x][1] !== p[1]) s.opaque = true; return; }
        s.properties.push(p);
      });
      (n.required || []).forEach(function (q) { if (s.required.indexOf(q) < 0) s.required.push(q); });
      (n.patternProperties || []).forEach(function (p) { s.patternProperties.push(p); });
      if (has(n, K.$ref)) fold(n.$ref, d + 1, false);
      (n.allOf || []).forEach(function (a) { fold(a, d + 1, false); });
    }
    fold(i, 0, true);
    this.cache[i] = s;
    return s;
  };
  /* The members of an accepted answer that the answer's form (the
   * address's a, described as the form is) types as an address: format
   * uri-reference, uri, iri or iri-reference, on a string.  Each is
   * {path: [names], href, title}, in the answer's order of the form's
   * properties; at most 16, and 16 levels deep.  Only what the form types
   * is offered: a string that merely looks like an address is not. */
  var ADDRESS_FORMATS = ["uri-reference", "uri", "iri", "iri-reference"];
  function answerAddresses(shapesOfA, root, value) {
    var out = [];
    function walk(i, v, path) {
      if (path.length > 16 || out.length >= 16) return;
      var s = shapesOfA.of(i);
      if (s.opaque || s.nothing) return;
      if (typeof v === "string") {
        if (has(s, K.format) && ADDRESS_FORMATS.indexOf(s.format) >= 0)
          out.push({path: path, href: v, title: typeof s.title === "string" ? s.title : typeof s.description === "string" ? s.description : ""});
        return;
      }
      if (typeOf(v) === "object")
        s.properties.forEach(function (p) { if (has(v, p[0])) walk(p[1], v[p[0]], path.concat([p[0]])); });
    }
    walk(root, value, []);
    return out;
  }
  /* what a person means to give: the types, or the keywords' types */
  function kindsOf(s) {
    if (s.type) return s.type.filter(function (y) { return !(y === "integer" && s.type.indexOf("number") >= 0); });
    if (s.properties.length || s.required.length || s.patternProperties.length || has(s, K.additionalProperties) || has(s, K.minProperties) || has(s, K.propertyNames)) return ["object"];
    if (s.prefixItems || has(s, K.items) || has(s, K.minItems) || has(s, K.maxItems) || has(s, K.contains)) return ["array"];
    if (has(s, K.minLength) || has(s, K.maxLength) || has(s, K.pattern) || (has(s, K.format) && FORMATS[s.format] && FORMATS[s.format].on === "string") || has(s, K.contentEncoding)) return ["string"];
    if (has(s, K.minimum) || has(s, K.maximum) || has(s, K.exclusiveMinimum) || has(s, K.exclusiveMaximum) || has(s, K.multipleOf)) return ["number"];
    return null;
  }
  var KIND_NAMES = {string: "Text", integer: "Whole number", number: "Number", boolean: "Yes or no", object: "Group", array: "List", "null": "Nothing (null)"};
  /* A short summary of a shape, for an alternative with no title and no
   * discriminator: its name in the form, else its kind and members. */
  function summary(s, shapes) {
    if (has(s, "x-defName")) return humanize(s["x-defName"]);
    if (has(s, K.const)) return show(s[K.const]);
    var k = kindsOf(s);
    if (!k) return "Any value";
    if (k.length === 1 && k[0] === "object" && s.properties.length) {
      var names = s.properties.map(function (p) { return p[0]; });
      return "Group of " + (names.length > 3 ? names.slice(0, 3).join(", ") + ", \u2026" : names.join(", "));
    }
    if (k.length === 1 && k[0] === "array" && has(s, K.items)) return "List of " + lower(itemName(shapes.of(s.items), shapes) + "s");
    return k.map(function (x) { return KIND_NAMES[x]; }).join(" or ");
  }
  function itemName(s) { return has(s, K.title) ? s.title : has(s, "x-defName") ? humanize(s["x-defName"]) : "Item"; }
  /* The names of alternatives: titles, else a member that tells them apart
   * (a const or a one-value enum, different in each), else summaries; a
   * name given twice gets a number. */
  function altNames(alts, shapes) {
    var ss = alts.map(function (a) { return shapes.of(a); }), names;
    var disc = discriminator(ss, shapes);
    names = ss.map(function (s, k) {
      if (has(s, K.title)) return s.title;
      if (disc) return humanize(String(disc.values[k]));
      return summary(s, shapes);
    });
    var seen = map();
    names.forEach(function (x) { seen[x] = (seen[x] || 0) + 1; });
    var nth = map();
    return names.map(function (x) { if (seen[x] === 1) return x; nth[x] = (nth[x] || 0) + 1; return x + " " + nth[x]; });
  }
  function discriminator(ss, shapes) {
    if (ss.length < 2 || !ss.every(function (s) { return s.properties.length; })) return null;
    var names = ss[0].properties.map(function (p) { return p[0]; });
    for (var k = 0; k < names.length; k++) {
      var values = [], ok = ss.every(function (s) {
        for (var x = 0; x < s.properties.length; x++) if (s.properties[x][0] === names[k]) {
          var m = shapes.of(s.properties[x][1]);
          var v = has(m, K.const) ? m[K.const] : m[K.enum] && m[K.enum].length === 1 ? m[K.enum][0] : undefined;
          if (typeof v !== "string" && !(v instanceof Num)) return false;
          values.push(v instanceof Num ? v.text : v);
          return true;
        }
        return false;
      });
      if (ok && values.every(function (v, q) { return values.indexOf(v) === q; })) return {name: names[k], values: values};
    }
    return null;
  }


  var core = {Num: Num, parse: parse, stringify: stringify, typeOf: typeOf, dec: dec, decCmp: decCmp, decMultiple: decMultiple,
    same: same, readDescription: readDescription, Checker: Checker, Shapes: Shapes, kindsOf: kindsOf, altNames: altNames,
    helpSentences: helpSentences, humanize: humanize, count: count, summary: summary, itemName: itemName, FORMATS: FORMATS,
    answerAddresses: answerAddresses};
  if (typeof document === "undefined" || !document.getElementById("gpt-form")) {
    G.gptPage = core;
    return;
  }

  /* ==== the page ========================================================== */

  var D = readDescription(document.getElementById("gpt-form").textContent);
  var N = D.nodes, checker = new Checker(D), shapes = new Shapes(D);
  var JD = D.jsonDepth;
  var $ = function (id) { return document.getElementById(id); };
  var form = $("act"), controls = $("controls"), body = $("body"), bodyError = $("body-error");
  var problemsEl = $("problems"), anyway = $("anyway"), result = $("result"), statusEl = $("status");
  var meaning = $("meaning"), response = $("response"), again = $("again"), preview = $("preview");
  var retry = $("retry"), progress = $("progress"), cancel = $("cancel");
  /* the answer's form, when the address publishes one: the addresses an
   * accepted answer names are offered as the next steps */
  var answerBlock = $("gpt-answer");
  var AD = answerBlock ? readDescription(answerBlock.textContent) : null, answerShapes = AD ? new Shapes(AD) : null;
  var nextNav = document.createElement("nav"), nextList = document.createElement("ul");
  nextNav.id = "next";
  nextNav.setAttribute("aria-label", "Next steps the answer names");
  nextNav.hidden = true;
  nextNav.appendChild(nextList);
  response.parentNode.insertBefore(nextNav, response.nextSibling);
  /* an answer's addresses as links, resolved against this address; only
   * http and https are links (a javascript: or data: value is text) */
  function showNext(v) {
    nextList.textContent = "";
    if (AD && v !== null && v !== undefined) answerAddresses(answerShapes, AD.root, v).forEach(function (st) {
      var li = document.createElement("li"), u = null, label = (st.title || st.path.join(" / ")) + ": ";
      try { u = new G.URL(st.href, location.href); } catch (e) { u = null; }
      if (u && (u.protocol === "http:" || u.protocol === "https:")) {
        var a = document.createElement("a");
        a.href = u.href;
        a.textContent = st.href;
        li.appendChild(document.createTextNode(label));
        li.appendChild(a);
      } else li.textContent = label + st.href;
      nextList.appendChild(li);
    });
    nextNav.hidden = !nextList.firstChild;
  }
  /* each act of building makes at most BUILD_MAX controls, and fills in a
   * value not given yet at most AUTO_MAX levels deep at a time (required
   * members that recurse): past those, JSON editors and "Fill in" buttons */
  var BUILD_MAX = 20000, built = 0, AUTO_MAX = 12, auto = 0;
  function anew() { built = 0; auto = 0; }
  var uid = 0, root = null, byPtr = map(), labelOf = map(), checked = false;

  function h(tag, attrs, kids) {
    var e = document.createElement(tag), k;
    for (k in attrs || {}) {
      if (attrs[k] === null || attrs[k] === undefined || attrs[k] === false) continue;
      if (k === "text") e.textContent = attrs[k];
      else e.setAttribute(k, attrs[k] === true ? "" : String(attrs[k]));
    }
    (kids || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }
  function nid() { uid += 1; return "c" + uid; }
  function register(ptr, w, el, label) { byPtr[ptr] = el; labelOf[ptr] = label; w.ptr = ptr; }
  function labelFor(s, name) {
    var l = has(s, K.title) ? s.title : name === undefined ? "Value" : name;
    return s.req ? l + " (required)" : l;
  }
  /* help sentences, each its own line; a pattern behind a disclosure */
  function helpBox(s, id) {
    var box = h("div", {"class": "help", id: id});
    helpSentences(s).forEach(function (t) { box.appendChild(h("span", {"class": "sentence", text: t})); });
    if (has(s, K.pattern) && !has(s, K.description))
      box.appendChild(h("details", {"class": "pattern"}, [h("summary", {text: "Pattern"}), h("code", {text: s.pattern})])); // not-a-keyword: a class name
    return box;
  }
  function field(s, id, name, el) {
    return h("div", {"class": "field"}, [
      h("label", {"for": id, text: labelFor(s, name)}), el, helpBox(s, id + "-h"),
      h("p", {"class": "error", id: id + "-e", "aria-live": "polite"})]);
  }
  function placeholder(s) { var ex = example(s); return ex !== undefined ? "e.g. " + (ex instanceof Num ? ex.text : String(ex)) : null; }
  function initial(s, kind) {
    if (has(s, K.default)) return s[K.default];
    if (has(s, K.const)) return s[K.const];
    if (s[K.enum] && s[K.enum].length) return s[K.enum][0];
    switch (kind) {
    case "object": return map();
    case "array": return [];
    case "string": return "";
    case "boolean": return false;
    case "null": return null;
    default: return undefined;
    }
  }
  function sync() {
    body.value = stringify(root.get(), 2);
    bodyError.textContent = "";
    body.removeAttribute("aria-invalid");
    changed();
    if (checked) judgeNow(false);
  }

  /* ==== widgets: the registry =============================================
   * Each widget makes the control of one value: (s, ptr, value, ctx) ->
   * {el, input?, get(), fixed?}, where s is the value's shape and ctx
   * {name, depth, id, kinds}.  The resolvers below choose one. */

  var WIDGETS = {};

  /* A JSON editor for a part: any value, never a dead end. */
  WIDGETS.json = function (s, ptr, value, ctx) {
    var id = nid(), err = h("p", {"class": "error", id: id + "-e", "aria-live": "polite"});
    var ta = h("textarea", {id: id, "class": "mono", spellcheck: "false", "aria-describedby": id + "-h " + id + "-e", "data-ptr": ptr, "data-kind": "json"});
    ta.value = value === undefined ? "null" : stringify(value, 2);
    var last = value === undefined ? null : value;
    var w = {el: h("div", {"class": "field"}, [h("label", {"for": id, text: labelFor(s, ctx.name) + " (JSON)"}), ta,
      h("p", {"class": "help", id: id + "-h", text: ctx.why || "Enter this part as JSON."}), err]),
    input: ta, get: function () { return last; }};
    ta.addEventListener("input", function (e) {
      e.stopPropagation();
      try { last = parse(ta.value, JD); err.textContent = ""; ta.removeAttribute("aria-invalid"); sync(); }
      catch (x) { err.textContent = "Not JSON yet: " + x.message + "."; ta.setAttribute("aria-invalid", "true"); }
    });
    register(ptr, w, ta, labelFor(s, ctx.name));
    return w;
  };

  /* A value that cannot change: a const, or nothing allowed. */
  WIDGETS.fixed = function (s, ptr, value, ctx) {
    var id = nid(), v = has(s, K.const) ? s[K.const] : value;
    var el = h("span", {"class": "fixed", id: id, "data-ptr": ptr, "data-kind": "fixed", text: ctx.note || stringify(v === undefined ? null : v, 0)});
    var w = {el: h("div", {"class": "field"}, [h("span", {"class": "label", text: labelFor(s, ctx.name)}), el,
      h("p", {"class": "error", id: id + "-e", "aria-live": "polite"})]), get: function () { return v; }, fixed: true};
    register(ptr, w, el, labelFor(s, ctx.name));
    return w;
  };
  WIDGETS.nothing = function (s, ptr, value, ctx) { ctx.note = "no value is allowed here"; return WIDGETS.fixed(s, ptr, value, ctx); };

  /* A value not filled in yet: a button fills it in. */
  WIDGETS.later = function (s, ptr, value, ctx) {
    var inner = null, b = h("button", {type: "button", "data-ptr": ptr, "data-action": "fill", text: "Fill in " + labelFor(s, ctx.name)});
    var el = h("div", {"class": "field"}, [b]);
    var w = {el: el, input: b, get: function () { return inner ? inner.get() : undefined; }};
    b.addEventListener("click", function () {
      anew();
      inner = build(ctx.i, ptr, undefined, ctx.depth, ctx.name, ctx.extra);
      el.parentNode.replaceChild(inner.el, el);
      w.el = inner.el;
      w.input = inner.input;
      sync();
      var f = inner.input || inner.el.querySelector("input, select, textarea, button");
      if (f) f.focus();
    });
    register(ptr, w, b, labelFor(s, ctx.name));
    return w;
  };

  /* "12.50" stays "12.50"; what a number input holds, as JSON text */
  function numberText(t) {
    if (NUMBER_TEXT.test(t)) return t;
    var m = /^(-?)0*([0-9]*)(\.[0-9]*)?([eE][+-]?[0-9]+)?$/.exec(t);
    if (!m || (m[2] === "" && (!m[3] || m[3] === "."))) return null;
    return m[1] + (m[2] === "" ? "0" : m[2]) + (m[3] && m[3] !== "." ? m[3] : "") + (m[4] || "");
  }

  WIDGETS.string = function (s, ptr, value, ctx) {
    var id = nid(), type = INPUT_FOR_FORMAT[s.format] || "text";
    /* prose: a text area in the body font, spelling checked, where the form
     * allows more than a line and gives no pattern or format */
    var prose = type === "text" && has(s, K.maxLength) && s.maxLength > 200 && !has(s, K.pattern) && !has(s, K.format) && !has(s, K.contentEncoding);
    var a = {id: id, "data-ptr": ptr, "data-kind": "string", spellcheck: prose ? "true" : "false",
      minlength: has(s, K.minLength) ? s.minLength : null, maxlength: has(s, K.maxLength) ? s.maxLength : null,
      placeholder: placeholder(s), "aria-describedby": id + "-h " + id + "-e"};
    var el;
    if (prose) { a["class"] = "prose"; el = h("textarea", a); } else {
      a.type = type;
      if (type === "datetime-local" || type === "time") a.step = "1";
      /* the browser's own hint; never a pattern the page would not run */
      if (type === "text" && has(s, K.pattern) && regex(s.pattern)) a.pattern = "[\\s\\S]*(?:" + s.pattern + ")[\\s\\S]*";
      el = h("input", a);
      if (a.pattern) { try { new RegExp("^(?:" + a.pattern + ")$", "v"); } catch (e) { el.removeAttribute("pattern"); } } // not-a-keyword: the HTML attribute
    }
    function toInput(v) {
      if (type === "datetime-local") return v.replace(/(Z|[+-]\d\d:\d\d)$/i, "").replace(" ", "T");
      if (type === "time") return v.replace(/(Z|[+-]\d\d:\d\d)$/i, "");
      return v;
    }
    var suffix = "";
    if (type === "datetime-local" || type === "time") { var m = /(Z|[+-]\d\d:\d\d)$/i.exec(value); suffix = m ? m[1] : "Z"; }
    el.value = toInput(typeof value === "string" ? value : "");
    var w = {input: el, get: function () {
      var v = el.value;
      if ((type === "datetime-local" || type === "time") && v !== "") {
        if (/T\d\d:\d\d$/.test(v) || /^\d\d:\d\d$/.test(v)) v += ":00";
        return v + suffix;
      }
      return v;
    }};
    w.el = field(s, id, ctx.name, el);
    register(ptr, w, el, labelFor(s, ctx.name));
    return w;
  };

  WIDGETS.number = function (s, ptr, value, ctx) {
    var id = nid(), kind = ctx.kind;
    var step = has(s, K.multipleOf) ? s.multipleOf.text : kind === "integer" ? "1" : "any";
    var el = h("input", {id: id, type: "number", inputmode: kind === "integer" ? "numeric" : "decimal",
      "data-ptr": ptr, "data-kind": kind, step: step,
      min: has(s, K.minimum) ? s.minimum.text : null, max: has(s, K.maximum) ? s.maximum.text : null,
      placeholder: placeholder(s), "aria-describedby": id + "-h " + id + "-e"});
    if (value instanceof Num) el.value = value.text;
    var w = {input: el, get: function () {
      /* what a person typed that is not a number yet: null, which the check
       * names ("Enter a whole number") */
      if (el.value === "") return el.validity && el.validity.badInput ? null : undefined;
      var t = numberText(el.value);
      return t === null ? null : new Num(t);
    }};
    w.el = field(s, id, ctx.name, el);
    register(ptr, w, el, labelFor(s, ctx.name));
    return w;
  };
  WIDGETS.integer = WIDGETS.number;

  WIDGETS.boolean = function (s, ptr, value, ctx) {
    var id = nid();
    var el = h("input", {id: id, type: "checkbox", "data-ptr": ptr, "data-kind": "boolean", "aria-describedby": id + "-h " + id + "-e"});
    el.checked = value === true;
    var w = {input: el, get: function () { return el.checked; }};
    w.el = h("div", {"class": "field"}, [h("label", {"for": id}, [el, document.createTextNode(labelFor(s, ctx.name))]),
      helpBox(s, id + "-h"), h("p", {"class": "error", id: id + "-e", "aria-live": "polite"})]);
    register(ptr, w, el, labelFor(s, ctx.name));
    return w;
  };
  WIDGETS["null"] = function (s, ptr, value, ctx) { return WIDGETS.fixed(s, ptr, null, ctx); };

  /* a choice a person could not see (U+2028, spaces) is shown escaped */
  function choiceText(v) {
    if (typeof v !== "string") return stringify(v, 0);
    if (!/^[\s\u2028\u2029\u200b\u00ad]*$/.test(v)) return v;
    return "\"" + v.replace(/[\s\S]/g, function (c) { return "\\u" + ("000" + c.charCodeAt(0).toString(16)).slice(-4); }) + "\"";
  }
  WIDGETS.choice = function (s, ptr, value, ctx) {
    var id = nid(), opts = s[K.enum], sel = 0, k, el, w;
    if (value === undefined && has(s, K.default)) value = s[K.default];
    if (value !== undefined) {
      sel = -1;
      for (k = 0; k < opts.length; k++) if (same(opts[k], value)) { sel = k; break; }
      if (sel < 0) { ctx.why = "This value is none of the form's choices: fix it as JSON."; return WIDGETS.json(s, ptr, value, ctx); }
    }
    if (opts.length <= 4) {
      var radios = [];
      el = h("fieldset", {"class": "choice", "data-ptr": ptr, "data-kind": "radio", id: id, "aria-describedby": id + "-h " + id + "-e"},
        [h("legend", {text: labelFor(s, ctx.name)})]);
      opts.forEach(function (v, j) {
        var r = h("input", {type: "radio", name: id, id: id + "-" + j, value: String(j)});
        r.checked = j === sel;
        radios.push(r);
        el.appendChild(h("label", {"for": id + "-" + j}, [r, document.createTextNode(choiceText(v))]));
      });
      el.appendChild(helpBox(s, id + "-h"));
      el.appendChild(h("p", {"class": "error", id: id + "-e", "aria-live": "polite"}));
      w = {el: el, input: radios[0], get: function () {
        for (var j = 0; j < radios.length; j++) if (radios[j].checked) return opts[j];
        return opts[0];
      }};
      register(ptr, w, el, labelFor(s, ctx.name));
      return w;
    }
    el = h("select", {id: id, "data-ptr": ptr, "data-kind": "select", "aria-describedby": id + "-h " + id + "-e"});
    opts.forEach(function (v, j) { el.appendChild(h("option", {value: String(j), text: choiceText(v)})); });
    el.value = String(sel);
    w = {input: el, get: function () { return opts[Number(el.value)]; }};
    w.el = field(s, id, ctx.name, el);
    register(ptr, w, el, labelFor(s, ctx.name));
    return w;
  };

  /* anyOf / oneOf: a chooser of alternatives named from the form, the
   * chosen one built inside the same box (its own legend left out). */
  WIDGETS.alternatives = function (s, ptr, value, ctx) {
    var alts = s.anyOf || s.oneOf, id = nid(), chosen = 0, k, inner = null;
    var names = altNames(alts, shapes);
    if (value === undefined && has(s, K.default)) value = s[K.default];
    if (value !== undefined) {
      chosen = -1;
      for (k = 0; k < alts.length && chosen < 0; k++) if (fits(alts[k], value) === "yes") chosen = k;
      for (k = 0; k < alts.length && chosen < 0; k++) if (fits(alts[k], value) === "maybe") chosen = k;
      for (k = 0; k < alts.length && chosen < 0; k++) { var ks = kindsOf(shapes.of(alts[k])); if (ks && (ks.indexOf(typeOf(value)) >= 0 || (typeOf(value) === "integer" && ks.indexOf("number") >= 0))) chosen = k; }
      if (chosen < 0) chosen = 0;
    }
    var base = {};
    Object.keys(s).forEach(function (key) { if (key !== K.anyOf && key !== K.oneOf) base[key] = s[key]; });
    var lab = labelFor(base, ctx.name);
    var sel = h("select", {id: id, "data-ptr": ptr, "data-kind": "alternatives", "aria-describedby": id + "-h"});
    names.forEach(function (nm, j) { sel.appendChild(h("option", {value: String(j), text: nm})); });
    sel.value = String(chosen);
    var slot = h("div", {"class": "alt"});
    function make(v) {
      var j = Number(sel.value);
      inner = build(alts[j], ptr, v, ctx.depth, names[j], {req: base.req, run: (ctx.run || 0) + 1, bare: true});
      slot.textContent = "";
      slot.appendChild(inner.el);
      if (inner.fixed) byPtr[ptr] = sel;
      /* where a problem is, the alternative is named as its box is */
      labelOf[ptr] = lab;
    }
    make(value);
    sel.addEventListener("change", function (e) { e.stopPropagation(); anew(); make(undefined); sync(); });
    var box = h("fieldset", {"class": "group", "data-kind-of": "alternatives"}, [h("legend", {text: lab}),
      h("div", {"class": "field"}, [h("label", {"for": id, text: "Kind"}), sel]), helpBox(base, id + "-h"), slot]);
    if (!byPtr[ptr]) register(ptr, {}, sel, lab);
    return {el: box, input: sel, get: function () { return inner.get(); }};
  };
  function fits(i, v) { var r = new Round(20000); checker.node(i, v, "", r, 0); return r.verdict(); }

  /* A type union (["string", "null"]): a chooser of types. */
  WIDGETS.types = function (s, ptr, value, ctx) {
    var kinds = ctx.kinds, id = nid(), inner = null, chosen = 0;
    if (value === undefined && has(s, K.default)) value = s[K.default];
    if (value !== undefined) {
      var t = typeOf(value);
      chosen = kinds.indexOf(t);
      if (chosen < 0 && t === "integer") chosen = kinds.indexOf("number");
      if (chosen < 0) { ctx.why = "This value's type is none the form allows: fix it as JSON."; return WIDGETS.json(s, ptr, value, ctx); }
    }
    var sel = h("select", {id: id, "data-ptr": ptr, "data-kind": "types"});
    kinds.forEach(function (k, j) { sel.appendChild(h("option", {value: String(j), text: k})); });
    sel.value = String(chosen);
    var slot = h("div", {});
    function make(v) {
      inner = kindWidget(s, kinds[Number(sel.value)], ptr, v, {name: ctx.name, depth: ctx.depth, bare: true});
      slot.textContent = "";
      slot.appendChild(inner.el);
      if (inner.fixed) byPtr[ptr] = sel;
    }
    make(value);
    sel.addEventListener("change", function (e) { e.stopPropagation(); anew(); make(undefined); sync(); });
    return {el: h("fieldset", {"class": "group"}, [h("legend", {text: labelFor(s, ctx.name)}),
      h("div", {"class": "field"}, [h("label", {"for": id, text: "Type"}), sel]), slot]), input: sel,
    get: function () { return inner.get(); }};
  };

  WIDGETS.object = function (s, ptr, value, ctx) {
    var members = [], list = h("div", {}), adders = h("div", {"class": "tools"});
    var lab = labelFor(s, ctx.name === undefined ? "The act" : ctx.name);
    /* inside an alternative the chooser's box is the object's */
    var box = ctx.bare ? h("div", {"class": "members", "data-ptr": ptr, "data-kind": "object"})
      : h("fieldset", {"class": "group", "data-ptr": ptr, "data-kind": "object"}, [h("legend", {text: lab})]);
    if (has(s, K.description) && !ctx.bare) box.appendChild(h("p", {"class": "help", text: s.description}));
    box.appendChild(list);
    var err = h("p", {"class": "error", "aria-live": "polite"});
    var propOf = map();
    s.properties.forEach(function (p) { propOf[p[0]] = p; });
    var isReq = function (k) { return s.required.indexOf(k) >= 0; };
    var open = !(has(s, K.additionalProperties) && N[s.additionalProperties] === false) || s.patternProperties.length > 0;
    function schemaFor(key) {
      if (has(propOf, key)) return propOf[key][1];
      for (var j = 0; j < s.patternProperties.length; j++) { var re = regex(s.patternProperties[j][0]); if (re && re.test(key)) return s.patternProperties[j][1]; }
      return has(s, K.additionalProperties) ? s.additionalProperties : -1;
    }
    function add(key, v, removable, focus) {
      var i = schemaFor(key), w, p = ptr + "/" + esc(key), m = {name: key};
      if (i < 0) w = WIDGETS.json({}, p, v, {name: key, why: "Any JSON value."});
      else w = build(i, p, v, ctx.depth + 1, key, {req: isReq(key), ann: has(propOf, key) ? propOf[key][2] : null});
      m.w = w;
      var kids = [w.el];
      if (removable) {
        var rm = h("button", {type: "button", "class": "remove", text: "Remove " + key, "data-ptr": p, "data-action": "remove"});
        rm.addEventListener("click", function () {
          members.splice(members.indexOf(m), 1);
          list.removeChild(m.row);
          refreshAdders();
          sync();
          (adders.querySelector("button") || box).focus();
        });
        kids.push(h("div", {"class": "tools"}, [rm]));
      }
      m.row = h("div", {"class": "member"}, kids);
      members.push(m);
      list.appendChild(m.row);
      if (focus && w.input) w.input.focus();
      return m;
    }
    function present(key) { return members.some(function (m) { return m.name === key; }); }
    function refreshAdders() {
      adders.textContent = "";
      s.properties.forEach(function (p) {
        if (isReq(p[0]) || present(p[0]) || N[p[1]] === false) return;
        var sh = shapes.of(p[1]), t = p[2] && has(p[2], K.title) ? p[2].title : has(sh, K.title) ? sh.title : null;
        var b = h("button", {type: "button", "data-ptr": ptr + "/" + esc(p[0]), "data-action": "add", text: "Add " + (t ? t + " (" + p[0] + ")" : p[0])});
        b.addEventListener("click", function () { anew(); add(p[0], undefined, true, true); refreshAdders(); sync(); });
        adders.appendChild(b);
      });
    }
    s.properties.forEach(function (p) {
      if (isReq(p[0]) || (value && has(value, p[0]))) {
        if (N[p[1]] === false && !(value && has(value, p[0]))) return;
        add(p[0], value && has(value, p[0]) ? value[p[0]] : undefined, !isReq(p[0]), false);
      }
    });
    s.required.forEach(function (q) { if (!present(q)) add(q, value && has(value, q) ? value[q] : undefined, false, false); });
    Object.keys(value || {}).forEach(function (key) { if (!present(key)) add(key, value[key], true, false); });
    refreshAdders();
    box.appendChild(adders);
    if (open) {
      var kid = nid(), keyIn = h("input", {type: "text", id: kid, "data-ptr": ptr, "data-action": "member-name", spellcheck: "false"});
      var addKey = h("button", {type: "button", "data-ptr": ptr, "data-action": "add-member", text: "Add member"});
      addKey.addEventListener("click", function () {
        var key = keyIn.value, i = schemaFor(key);
        if (present(key)) { err.textContent = JSON.stringify(key) + " is already a member"; keyIn.focus(); return; }
        if (i >= 0 && N[i] === false) { err.textContent = JSON.stringify(key) + " is not a member this form allows"; keyIn.focus(); return; }
        err.textContent = "";
        keyIn.value = "";
        anew();
        add(key, undefined, true, true);
        refreshAdders();
        sync();
      });
      keyIn.addEventListener("keydown", function (e) { if (e.key === "Enter") { e.preventDefault(); addKey.click(); } });
      box.appendChild(h("div", {"class": "field"}, [h("label", {"for": kid, text: "New member's name"}), h("div", {"class": "row"}, [keyIn, addKey])]));
    }
    box.appendChild(err);
    var w = {el: box, get: function () {
      var o = map();
      members.forEach(function (m) { var v = m.w.get(); if (v !== undefined) put(o, m.name, v); });
      return o;
    }};
    register(ptr, w, box, lab);
    return w;
  };

  WIDGETS.array = function (s, ptr, value, ctx) {
    var items = [], pre = s.prefixItems || [], maxI = has(s, K.maxItems) ? s.maxItems : Infinity;
    var itemOk = has(s, K.items) ? N[s.items] !== false : true;
    var list = h("ol", {"class": "items"}); // not-a-keyword: a class name
    var lab = labelFor(s, ctx.name === undefined ? "Items" : ctx.name);
    var addB = h("button", {type: "button", "data-ptr": ptr, "data-action": "add-item", text: "Add " + lower(has(s, K.items) ? itemName(shapes.of(s.items)) : "item")});
    var box = ctx.bare ? h("div", {"class": "members", "data-ptr": ptr, "data-kind": "array"})
      : h("fieldset", {"class": "group", "data-ptr": ptr, "data-kind": "array"}, [h("legend", {text: lab})]);
    var hb = helpBox(s, nid());
    if (hb.childNodes.length) box.appendChild(hb);
    box.appendChild(list);
    function schemaAt(k) { return k < pre.length ? pre[k] : has(s, K.items) ? s.items : -1; }
    function nameAt(k) {
      var i = schemaAt(k);
      if (i < 0) return "Item " + (k + 1);
      var sh = shapes.of(i);
      if (k < pre.length && has(sh, K.title)) return sh.title;
      return itemName(sh) + " " + (k + 1);
    }
    function renumber() {
      var np = pre.length, n = items.length;
      items.forEach(function (it, k) {
        /* prefixItems are fixed slots: they do not move, and only the last
         * one goes (a later value would slide into another slot's schema) */
        it.up.hidden = it.down.hidden = k < np;
        it.up.disabled = k <= np;
        it.down.disabled = k === n - 1;
        it.rm.disabled = (has(s, K.minItems) && n <= s.minItems) || (k < np && k !== n - 1);
        var nm = nameAt(k);
        it.up.setAttribute("aria-label", "Move " + nm + " up");
        it.down.setAttribute("aria-label", "Move " + nm + " down");
        it.rm.setAttribute("aria-label", "Remove " + nm);
      });
      addB.disabled = items.length >= maxI || (!itemOk && items.length >= pre.length);
    }
    function make(k, v) {
      var i = schemaAt(k), p = ptr + "/" + k;
      return i < 0 ? WIDGETS.json({}, p, v, {name: nameAt(k), why: "Any JSON value."}) : build(i, p, v, ctx.depth + 1, nameAt(k));
    }
    function append(v) {
      var k = items.length, w = make(k, v), it = {w: w};
      it.up = h("button", {type: "button", "data-action": "up", text: "Move up"});
      it.down = h("button", {type: "button", "data-action": "down", text: "Move down"});
      it.rm = h("button", {type: "button", "data-action": "remove", text: "Remove"});
      it.up.addEventListener("click", function () { move(items.indexOf(it), -1); });
      it.down.addEventListener("click", function () { move(items.indexOf(it), 1); });
      it.rm.addEventListener("click", function () {
        var at = items.indexOf(it);
        anew();
        var vals = items.map(function (x) { return x.w.get(); });
        vals.splice(at, 1);
        while (items.length > at) list.removeChild(items.pop().li);
        vals.slice(at).forEach(append);
        renumber();
        sync();
        var next = items[at] || items[at - 1];
        (next && next.w.input ? next.w.input : addB).focus();
      });
      it.li = h("li", {"data-ptr": ptr + "/" + k}, [w.el, h("div", {"class": "tools"}, [it.up, it.down, it.rm])]);
      items.push(it);
      list.appendChild(it.li);
      return it;
    }
    function move(k, d) {
      var j = k + d;
      if (j < 0 || j >= items.length) return;
      anew();
      var vals = items.map(function (x) { return x.w.get(); });
      var t = vals[k]; vals[k] = vals[j]; vals[j] = t;
      var from = Math.min(k, j);
      while (items.length > from) list.removeChild(items.pop().li);
      vals.slice(from).forEach(append);
      renumber();
      sync();
      var b = d < 0 ? items[j].up : items[j].down;
      (b.disabled ? items[j].w.input || items[j].up : b).focus();
    }
    var start = Array.isArray(value) ? value : [];
    var want = Math.max(start.length, has(s, K.minItems) ? Math.min(s.minItems, 64) : 0);
    for (var k = 0; k < want; k++) append(k < start.length ? start[k] : undefined);
    addB.addEventListener("click", function () {
      anew();
      var it = append(undefined);
      renumber();
      sync();
      if (it.w.input) it.w.input.focus();
    });
    box.appendChild(h("div", {"class": "tools"}, [addB]));
    renumber();
    var w = {el: box, get: function () { return items.map(function (it) { var v = it.w.get(); return v === undefined ? null : v; }); }};
    register(ptr, w, box, lab);
    return w;
  };

  /* ==== resolvers: which widget a value gets ===============================
   * The first row whose test fits the shape wins (as schema-form libraries
   * rank their testers); a row's widget names an entry of WIDGETS. */

  var RESOLVERS = [
    {widget: "json", test: function (s, c) { return c.run > 16 || built > BUILD_MAX; },
      why: "This part is more than the page shows as controls: enter it as JSON."},
    {widget: "nothing", test: function (s) { return s.nothing; }},
    {widget: "json", test: function (s) { return s.opaque; },
      why: "The form says more about this part than the page can show: enter it as JSON."},
    {widget: "fixed", test: function (s) { return has(s, K.const); }},
    {widget: "choice", test: function (s) { return !!s[K.enum]; }},
    {widget: "alternatives", test: function (s) { return !!(s.anyOf || s.oneOf); }},
    {widget: "json", test: function (s, c) { return !c.kinds; }, why: "Any JSON value: enter it as JSON."},
    {widget: "nothing", test: function (s, c) { return c.kinds.length === 0; }},
    {widget: "types", test: function (s, c) { return c.kinds.length > 1; }}
  ];
  /* and for one kind of value */
  var KIND_RESOLVERS = [
    {widget: "json", test: function (s, c) { return (c.kind === "object" || c.kind === "array") && c.depth >= JD; },
      why: "The address reads acts nested at most " + JD + " deep: no object or array fits here."},
    {widget: "json", test: function (s, c, v) { return v !== undefined && !fitsKind(v, c.kind); }},
    {widget: "object", test: function (s, c) { return c.kind === "object"; }},
    {widget: "array", test: function (s, c) { return c.kind === "array"; }},
    {widget: "string", test: function (s, c) { return c.kind === "string"; }},
    {widget: "number", test: function (s, c) { return c.kind === "number" || c.kind === "integer"; }},
    {widget: "boolean", test: function (s, c) { return c.kind === "boolean"; }},
    {widget: "null", test: function () { return true; }}
  ];
  function fitsKind(v, kind) {
    var t = typeOf(v);
    return t === kind || (kind === "number" && t === "integer") || (kind === "integer" && t === "number" && isInteger(v));
  }
  function resolve(table, s, c, v) {
    for (var k = 0; k < table.length; k++) if (table[k].test(s, c, v)) return table[k];
    return null;
  }

  /* The control for node i at ptr holding value (undefined: a new one). */
  function build(i, ptr, value, depth, name, extra) {
    if (value !== undefined) return build1(i, ptr, value, depth, name, extra);
    if (auto >= AUTO_MAX) {
      var s = shapeWith(i, extra);
      return WIDGETS.later(s, ptr, value, {i: i, depth: depth, name: name, extra: extra});
    }
    auto++;
    var w = build1(i, ptr, value, depth, name, extra);
    auto--;
    return w;
  }
  /* a shape with a member's own annotations (a title beside a $ref) */
  function shapeWith(i, extra) {
    var base = shapes.of(i), s = Object.create(null);
    Object.keys(base).forEach(function (k) { s[k] = base[k]; });
    if (extra && extra.ann) [K.title, K.description, K.default, K.examples].forEach(function (k) { if (has(extra.ann, k)) s[k] = extra.ann[k]; });
    s.req = !!(extra && extra.req);
    return s;
  }
  function build1(i, ptr, value, depth, name, extra) {
    var s = shapeWith(i, extra);
    var c = {name: name, depth: depth, run: extra && extra.run || 0, bare: !!(extra && extra.bare), kinds: kindsOf(s)};
    built++;
    var r = resolve(RESOLVERS, s, c, value);
    if (r) { c.why = r.why; return WIDGETS[r.widget](s, ptr, value, c); }
    return kindWidget(s, c.kinds[0], ptr, value, c);
  }
  function kindWidget(s, kind, ptr, value, c) {
    c.kind = kind;
    var r = resolve(KIND_RESOLVERS, s, c, value);
    if (r.widget === "json") {
      c.why = r.why || "This value is not " + TYPE_WORDS[kind] + " as the form asks: fix it as JSON.";
      return WIDGETS.json(s, ptr, value, c);
    }
    if (value === undefined) value = initial(s, kind);
    return WIDGETS[r.widget](s, ptr, value, c);
  }

  /* ==== the editor, both ways ============================================= */

  function render(v) {
    byPtr = map();
    labelOf = map();
    anew();
    root = build(D.root, "", v, 0);
    controls.textContent = "";
    controls.appendChild(root.el);
  }
  controls.addEventListener("input", function () { sync(); });
  controls.addEventListener("change", function () { sync(); });
  body.addEventListener("input", function () {
    var v;
    changed();
    try { v = parse(body.value, JD); } catch (e) {
      bodyError.textContent = "Not JSON: " + e.message + ". The controls show the last JSON that parsed.";
      body.setAttribute("aria-invalid", "true");
      return;
    }
    bodyError.textContent = "";
    body.removeAttribute("aria-invalid");
    render(v);
    if (checked) judgeNow(false);
  });

  /* ==== before sending: what the page can tell ============================ */

  function clearMarks() {
    Array.prototype.forEach.call(controls.querySelectorAll("[aria-invalid]"), function (e) {
      if (e.getAttribute("data-kind") !== "json" || e.getAttribute("data-bad") === "1") { e.removeAttribute("aria-invalid"); e.removeAttribute("data-bad"); }
    });
    Array.prototype.forEach.call(controls.querySelectorAll(".error.mark"), function (e) { e.textContent = ""; e.classList.remove("mark"); });
  }
  /* the control closest to ptr, and the words that name where it is */
  function place(ptr) {
    for (var p = ptr; ; p = p.slice(0, p.lastIndexOf("/"))) {
      if (byPtr[p]) return byPtr[p];
      if (p === "") return null;
    }
  }
  function where(ptr) {
    var names = [], p = ptr;
    for (;;) {
      if (labelOf[p] !== undefined && names.indexOf(labelOf[p]) < 0) names.unshift(labelOf[p].replace(/ \(required\)$/, ""));
      if (p === "") break;
      p = p.slice(0, p.lastIndexOf("/"));
    }
    if (names.length > 1) names.shift(); /* the act itself */
    if (!byPtr[ptr] && ptr !== "") names.push(ptr.slice(ptr.lastIndexOf("/") + 1).replace(/~1/g, "/").replace(/~0/g, "~"));
    return names.join(" \u203a ");
  }
  function judgeNow(focus) {
    clearMarks();
    problemsEl.textContent = "";
    var j = checker.judge(body.value);
    if (j.verdict !== "reject" && !j.problems.length) return j;
    var ul = h("ul", {}), first = null, pointers = [];
    j.problems.forEach(function (e) {
      var el = place(e.ptr);
      ul.appendChild(h("li", {"data-ptr": e.ptr, text: (el || e.ptr === "" ? where(e.ptr) || "The act" : where(e.ptr)) + ": " + e.words}));
      pointers.push((e.ptr === "" ? "(the whole act)" : e.ptr) + " " + e.keyword);
      if (el) {
        el.setAttribute("aria-invalid", "true");
        el.setAttribute("data-bad", "1");
        var msg = el.id ? $(el.id + "-e") : null;
        if (msg) { msg.textContent = (msg.textContent ? msg.textContent + " " : "") + e.words; msg.classList.add("mark"); }
        if (!first) first = el;
      }
    });
    problemsEl.appendChild(h("p", {text: "The page found " + (j.problems.length === 1 ? "a problem" : j.problems.length + " problems") + " before sending (the address stays the judge):"}));
    problemsEl.appendChild(ul);
    /* the JSON editor keeps the pointers and keywords */
    bodyError.textContent = "In the JSON: " + pointers.join("; ");
    if (j.problems[0] && j.problems[0].keyword === "json") body.setAttribute("aria-invalid", "true");
    if (focus) {
      var f = first ? (first.tagName === "FIELDSET" || first.tagName === "DIV" ? first.querySelector("input,select,textarea,button") || first : first) : body;
      f.focus();
    }
    return j;
  }

  /* ==== sending and the answer ============================================ */

  /* The Idempotency-Key of an act, where the address keeps keys (the
   * description's "keys"): one per composed text, kept until an answer
   * settles it, so that sending the same bytes again after a 5xx or a lost
   * answer is the same act to the address: it answers the first answer
   * again and does not run the act twice.  Any answer under 500 forgets
   * it, so that the same text composed again later is a new act. */
  var keyText = null, keyValue = null;
  function keyFor(text) {
    if (text !== keyText || keyValue === null) {
      var b = new Uint8Array(16), k = "", i;
      G.crypto.getRandomValues(b);
      for (i = 0; i < b.length; i++) k += (b[i] < 16 ? "0" : "") + b[i].toString(16);
      keyText = text;
      keyValue = k;
    }
    return keyValue;
  }
  function forgetKey() { keyText = null; keyValue = null; }
  /* The headers of an act.  Prefer: respond-async asks an address that
   * allows both (act = either) for a task, whose progress the page shows
   * and which it can cancel; an address that answers acts directly
   * ignores it. */
  function actHeaders(sent) {
    var headers = {"Content-Type": "application/json", Prefer: "respond-async"};
    if (D.etag) headers["If-Match"] = D.etag;
    if (D.keys) headers["Idempotency-Key"] = keyFor(sent);
    return headers;
  }
  /* after an answer: what a second Submit of the same text would mean */
  var lastSent = null, lastStatus = 0, pendingGuess = [];
  var SAFE_RETRY = "Sending it again is safe: the page sends it with the same Idempotency-Key, so an address that stored it answers with the first answer and does not store it twice.";
  function changed() {
    if (lastSent !== null && body.value !== lastSent) { lastSent = null; lastStatus = 0; }
  }
  function say(cls, status, what, text, html) {
    result.hidden = false;
    statusEl.className = cls;
    statusEl.textContent = status;
    meaning.textContent = what;
    response.textContent = text || "";
    response.hidden = !text;
    again.hidden = true;
    retry.hidden = true;
    progress.hidden = true;
    cancel.hidden = true;
    preview.hidden = true;
    preview.removeAttribute("srcdoc");
    nextNav.hidden = true;
    if (typeof html === "string") {
      /* sandboxed: no script, no form, no navigation; the page's policy is
       * inherited by the frame's document */
      preview.setAttribute("srcdoc", html);
      preview.hidden = false;
    }
  }
  function send(guess) {
    var sent = body.value;
    stopTask();
    say("", "Sending\u2026", "", "");
    anyway.hidden = true;
    fetch(location.href, {method: "POST", headers: actHeaders(sent), body: sent, cache: "no-store", credentials: "same-origin"})
      .then(function (r) {
        return r.text().then(function (t) { answered(r, t, sent, guess); });
      }).catch(function (e) {
        lastSent = sent;
        lastStatus = 599;
        say("status-bad", "Not sent", "The request failed before an answer came (" + e.message + "). The act may or may not have reached the address." +
          (D.keys ? " " + SAFE_RETRY : ""), "");
        offerRetry();
      });
  }
  function offerRetry() {
    if (D.keys) retry.hidden = false;
    else { pendingGuess = []; anyway.hidden = false; }
  }

  /* ==== a task: 202 and its resource ======================================
   * The address took the act as a task (act = task, or act = either and
   * the page's Prefer).  The page polls the task's Location at the
   * pollInterval the task gives, shows its statusMessage and progress,
   * offers Cancel (a DELETE) while it works, and shows its result as it
   * would show a 200's. */
  var task = null, POLL_MIN = 250, POLL_MAX = 10000, POLL_FAILS = 5;
  function stopTask() { if (task && task.timer) G.clearTimeout(task.timer); task = null; }
  function numberOf(x) { return x instanceof Num ? Number(x.text) : typeof x === "number" ? x : null; }
  function taskShow(doc) {
    var st = doc && typeof doc.status === "string" ? doc.status : "";
    var msg = doc && typeof doc.statusMessage === "string" ? doc.statusMessage : "";
    var p = doc ? numberOf(doc.progress) : null;
    if (st === "working" || st === "input_required") {
      say("", "202: working", msg ? "The address is working on the act: " + msg : "The address took the act as a task and is working on it.", "");
      progress.hidden = false;
      if (p !== null && p >= 0 && p <= 1) progress.value = p; else progress.removeAttribute("value");
      progress.setAttribute("aria-valuetext", p !== null ? Math.round(p * 100) + "%" + (msg ? ": " + msg : "") : msg || "working");
      cancel.hidden = false;
      cancel.disabled = false;
      return true;
    }
    if (st === "completed") {
      var res = has(doc, "result") ? doc.result : null;
      var html = res && typeOf(res) === "object" && typeof res.html === "string" ? res.html : undefined;
      say("status-ok", "Completed", "The task completed, and the address answered:", stringify(res, 2), html);
      showNext(res);
      again.hidden = false;
    } else if (st === "failed") {
      say("status-bad", "Failed", "The task failed" + (typeof doc.reason === "string" ? " (" + doc.reason + ")" : "") +
        ". Whether its hook stored something before it failed, the address does not say.", "");
    } else if (st === "cancelled") {
      say("status-bad", "Cancelled", "The task was cancelled" + (msg ? " (" + msg + ")" : "") + ": its hook was stopped.", "");
      again.hidden = false;
    } else {
      say("status-bad", "Unknown", "The task's status is one this page does not know.", stringify(doc, 2));
    }
    return false;
  }
  function track(url, doc) {
    stopTask();
    if (!url) { say("status-bad", "202: no task address", "The address took the act as a task but named no place to follow it.", doc ? stringify(doc, 2) : ""); return; }
    var t = task = {url: url, timer: null, fails: 0};
    function wait(d) {
      var ms = d ? numberOf(d.pollInterval) : null;
      ms = ms === null ? 2000 : Math.min(Math.max(ms, POLL_MIN), POLL_MAX);
      t.timer = G.setTimeout(poll, ms);
    }
    function poll() {
      if (task !== t) return;
      fetch(t.url, {headers: {Accept: "application/json"}, cache: "no-store", credentials: "same-origin"})
        .then(function (r) { return r.text().then(function (x) { return {status: r.status, text: x}; }); })
        .then(function (a) {
          if (task !== t) return;
          if (a.status === 404) { stopTask(); say("status-bad", "404: the task is gone", "The address no longer knows this task: it expired."); return; }
          var d = parse(a.text);
          t.fails = 0;
          if (taskShow(d)) wait(d); else stopTask();
        }).catch(function () {
          if (task !== t) return;
          if (++t.fails >= POLL_FAILS) { stopTask(); meaning.textContent = "The page lost contact with the task; it may still be running. Reload its address later: " + t.url; return; }
          wait(null);
        });
    }
    if (!taskShow(doc)) { stopTask(); return; }
    wait(doc);
  }
  function cancelTask() {
    var t = task;
    if (!t) return;
    cancel.disabled = true;
    fetch(t.url, {method: "DELETE", headers: {Accept: "application/json"}, cache: "no-store", credentials: "same-origin"})
      .then(function (r) { return r.text().then(function (x) { return {status: r.status, text: x}; }); })
      .then(function (a) {
        if (task !== t) return;
        var d = null;
        try { d = parse(a.text); } catch (e) { d = null; }
        if (a.status === 200 && d) { stopTask(); taskShow(d); return; }
        /* 409: it had ended; the next poll shows how */
        cancel.disabled = false;
        meaning.textContent = a.status === 409 ? "The task had already ended; its outcome follows." : "Cancelling failed (" + a.status + "); the task may still be running.";
        if (t.timer) G.clearTimeout(t.timer);
        t.timer = G.setTimeout(function () { if (task === t) { t.timer = null; track(t.url, {status: "working"}); } }, 0);
      }).catch(function (e) { cancel.disabled = false; meaning.textContent = "Cancelling failed (" + e.message + "); the task may still be running."; });
  }
  function answered(r, t, sent, guess) {
    var pretty = t, v = null;
    try { v = parse(t); pretty = stringify(v, 2); } catch (e) { pretty = t; }
    lastSent = sent;
    lastStatus = r.status;
    /* 409: the first send of this act (its key) is still being answered */
    if (r.status < 500 && r.status !== 409) forgetKey();
    if (r.status === 200) {
      var html = v && typeOf(v) === "object" && typeof v.html === "string" ? v.html : undefined;
      var replayed = r.headers.get("Idempotent-Replayed") === "true";
      say("status-ok", replayed ? "200: accepted before" : "200: accepted", replayed
        ? "The address had already accepted this very act (the same Idempotency-Key): it did not run it again, and answers as it did the first time:"
        : "The address accepted the act and answered:", pretty, html);
      showNext(v);
      again.hidden = false;
    } else if (r.status === 202) {
      var loc = r.headers.get("Location");
      track(loc ? new G.URL(loc, location.href).href : null, v);
    } else if (r.status === 204) {
      say("status-bad", "204: rejected by the address", guess.length
        ? "The page's own best guess why: " + guess.map(function (e) { return where(e.ptr) + ": " + e.words; }).join(" ")
        : "The page found nothing wrong, so the address checks something the page cannot (a format, the size of the body, or a rule of its own). The address says no more, by design.");
    } else if (r.status === 422) {
      say("status-bad", "422: rejected, with the reason", "The address explains its rejections (it is under development):", pretty);
    } else if (r.status === 409 && D.keys) {
      say("status-bad", "409: still being answered", "The address is still answering this very act, sent before under the same Idempotency-Key. Wait a moment, then send it again: that is safe.", pretty);
      offerRetry();
    } else if (r.status === 412) {
      say("status-bad", "412: the form changed", "The address's form changed since this page was loaded. Reloading the form and keeping what you typed\u2026");
      reload(sent);
    } else if (r.status >= 500) {
      if (D.keys) {
        say("status-bad", r.status + ": the address failed", "The address could not answer, but the act may have been stored: its hook may have run before the failure, or the answer was lost on its way. " + SAFE_RETRY, pretty);
        offerRetry();
      } else {
        say("status-bad", r.status + ": the address failed", "The address could not answer, but the act may have been stored: its hook may have run before the failure. Check whether it took effect before you send it again; this page will not resend it unless you change it or confirm.", pretty);
      }
    } else {
      say("status-bad", (r.status + " " + r.statusText).trim(), "An answer this page does not expect.", pretty);
    }
  }
  /* 412: the new form, fetched as this page; what was typed re-applied
   * where it still fits (the controls rebuild from the act's value) */
  function reload(sent) {
    fetch(location.href, {headers: {Accept: "text/html"}, cache: "no-store", credentials: "same-origin"})
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html"), block = doc.getElementById("gpt-form");
        if (!block) throw new Error("no form in the page");
        var fresh = readDescription(block.textContent);
        D = fresh; N = D.nodes; checker = new Checker(D); shapes = new Shapes(D);
        var v;
        try { v = parse(sent, JD); } catch (e) { v = undefined; }
        render(v);
        body.value = stringify(root.get(), 2);
        lastSent = null;
        var j = checker.judge(body.value);
        meaning.textContent = "The address's form changed since this page was loaded. The page reloaded the form and kept what you typed" +
          (j.verdict === "reject" ? "; some of it no longer fits (marked below): fix it and submit again." : ": check it and submit again.");
        if (j.verdict === "reject") { checked = true; judgeNow(false); }
      }).catch(function (e) {
        meaning.textContent = "The address's form changed since this page was loaded, and reloading it failed (" + e.message + "). Reload the page; copy the act from the JSON editor first.";
      });
  }
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    checked = true;
    /* the same act again after a 5xx, under the same key: safe */
    if (lastSent !== null && body.value === lastSent && lastStatus >= 500 && D.keys) { send([]); return; }
    if (lastSent !== null && body.value === lastSent && (lastStatus === 200 || lastStatus >= 500)) {
      /* the same act again: never by a second click alone */
      say("status-bad", "Not sent", lastStatus === 200
        ? "The address already accepted this very act. Change it to send another, or choose \u201cSend another\u201d for a clear form."
        : "This very act may already have been stored. Send it again only once you know it was not: choose \u201cSend anyway\u201d to confirm.", "");
      if (lastStatus >= 500) { pendingGuess = []; anyway.hidden = false; } else again.hidden = false;
      return;
    }
    var j = judgeNow(true);
    /* a problem the page is not sure of (a format's shape) still asks */
    if (!j.problems.length) { pendingGuess = []; send([]); return; }
    if (j.problems.length && j.problems[0].keyword === "json") { anyway.hidden = true; return; }
    pendingGuess = j.problems;
    anyway.hidden = false;
    say("status-bad", "Not sent", "Fix the problems above, or send anyway: the address decides.", "");
  });
  anyway.addEventListener("click", function () { send(pendingGuess); });
  retry.addEventListener("click", function () { send([]); });
  cancel.addEventListener("click", cancelTask);
  again.addEventListener("click", function () {
    stopTask();
    forgetKey();
    render(undefined);
    body.value = stringify(root.get(), 2);
    lastSent = null;
    checked = false;
    clearMarks();
    problemsEl.textContent = "";
    bodyError.textContent = "";
    result.hidden = true;
    nextNav.hidden = true;
    var f = controls.querySelector("input, select, textarea, button");
    if (f) f.focus();
  });

  var start;
  try { start = body.value.trim() === "" ? undefined : parse(body.value, JD); } catch (e) { start = undefined; }
  render(start);
  body.value = stringify(root.get(), 2);
  form.hidden = false;
})(this);
