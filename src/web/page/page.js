/* page.js: the human page's one script (see src/web/html.h).  Embedded in the
 * page; the Content-Security-Policy allows it by its hash, so it never
 * carries a byte of the form: it reads the form's description from the
 * inert JSON data block (the element "gpt-form"), builds a
 * control per value from it, keeps the JSON editor in sync both ways,
 * checks what a browser can before sending, sends the editor's exact text
 * to this very URL and says what the answer means.
 *
 * The description (built by html.c from the compiled form): {"root": I,
 * "type": T?, "etag": E?, "n": [NODE...]}, a node an object of short keys:
 * k (0 false, 1 true, else a schema), u (undescribed: a JSON editor, never
 * a guess), t (type names), ti, d, df, ex (title, description, default,
 * examples), en, co (enum, const), min, max, xmin, xmax, mul (exact number
 * text), minL, maxL, pat, fmt, minI, maxI, pre, it, ct, uq, pr ([name, node,
 * required]), rq (required names without a property), pp ([source, node]),
 * ap, minP, maxP, ref, all, any, one, not: nodes by index. */
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("gpt-form").textContent);
  var N = D.n;
  var form = document.getElementById("act");
  var controls = document.getElementById("controls");
  var body = document.getElementById("body");
  var bodyError = document.getElementById("body-error");
  var problems = document.getElementById("problems");
  var anyway = document.getElementById("anyway");
  var result = document.getElementById("result");
  var statusEl = document.getElementById("status");
  var meaning = document.getElementById("meaning");
  var response = document.getElementById("response");
  /* controls go as deep as the address reads acts (jd: the JSON nesting
   * of an act); checks as deep as the validator goes (sd) */
  var JD = D.jd || 128, SD = D.sd || 512;
  /* each act of building (a render, an item added) makes at most this many
   * controls: a form whose required members recurse, or a pasted act of
   * a hundred thousand nodes, gets JSON editors past it, not a hang */
  var BUILD_MAX = 20000, built = 0;
  /* a value the person has not given yet is filled in at most AUTO_MAX
   * levels deep at a time (required members that recurse, a binary tree's
   * two halves): past that, a button fills in the next levels on demand */
  var AUTO_MAX = 12, auto = 0;
  function anew() { built = 0; auto = 0; }
  var uid = 0;
  var root = null;
  /* maps keyed by the form's names: no prototype, so "__proto__" is a name */
  function map() { return Object.create(null); }
  var byPtr = map();
  var checked = false;

  var TYPES = ["object", "array", "string", "number", "integer", "boolean",
    "null"];
  /* the shape of the formats the page checks (the address checks them
   * fully: leap seconds, real dates, host names) */
  var FORMAT_SHAPE = {
    "date": /^\d{4}-\d\d-\d\d$/,
    "time": /^\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:\d\d)$/,
    "date-time": /^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:\d\d)$/,
    "email": /^[^@\s]+@[^@\s]+$/,
    "uri": /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/
  };
  var FORMAT_HINT = {"date": " (YYYY-MM-DD)", "time": " (HH:MM:SS with a zone, e.g. Z)",
    "date-time": " (YYYY-MM-DDTHH:MM:SS with a zone, e.g. Z)", "email": " address", "uri": " (with its scheme, e.g. https:)"};
  var INPUT_FOR_FORMAT = {"date": "date", "time": "time",
    "date-time": "datetime-local", "email": "email", "idn-email": "email",
    "uri": "url", "iri": "url"};

  function h(tag, attrs, kids) {
    var e = document.createElement(tag), k;
    for (k in attrs || {}) {
      if (attrs[k] === null || attrs[k] === undefined || attrs[k] === false)
        continue;
      if (k === "text") e.textContent = attrs[k];
      else e.setAttribute(k, attrs[k] === true ? "" : String(attrs[k]));
    }
    (kids || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }
  function nid() { uid += 1; return "c" + uid; }
  function esc(s) { return s.replace(/~/g, "~0").replace(/\//g, "~1"); }
  function typeOf(v) {
    if (v === null) return "null";
    if (Array.isArray(v)) return "array";
    if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
    return typeof v;
  }
  function codepoints(s) { var n = 0, i; for (i = 0; i < s.length; i++) { n++; var c = s.charCodeAt(i); if (c >= 0xD800 && c < 0xDC00) i++; } return n; }
  function same(a, b) {
    var ta = typeOf(a), tb = typeOf(b), k;
    if (ta === "integer") ta = "number";
    if (tb === "integer") tb = "number";
    if (ta !== tb) return false;
    if (ta === "array") {
      if (a.length !== b.length) return false;
      for (k = 0; k < a.length; k++) if (!same(a[k], b[k])) return false;
      return true;
    }
    if (ta === "object") {
      var ka = Object.keys(a), kb = Object.keys(b);
      if (ka.length !== kb.length) return false;
      for (k = 0; k < ka.length; k++)
        if (!Object.prototype.hasOwnProperty.call(b, ka[k]) ||
            !same(a[ka[k]], b[ka[k]])) return false;
      return true;
    }
    return a === b;
  }
  function show(v) { return JSON.stringify(v); }
  var reCache = map();
  function regex(src) {
    if (!Object.prototype.hasOwnProperty.call(reCache, src)) {
      try { reCache[src] = new RegExp(src, "u"); } catch (e) { reCache[src] = null; }
    }
    return reCache[src];
  }
  function has(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }

  /* --- checks: what a browser can tell before sending ----------------- */

  /* Checks are a best guess: a form whose alternatives nest alternatives
   * could make them exponential, so each round of checks has a budget of
   * node visits, past which it says nothing more (the address judges). */
  var budget = 0;
  function fresh() { budget = 200000; }
  function check(i, v, ptr, errs, depth) {
    var n = N[i], k, j;
    if (depth > SD || errs.length > 200 || --budget < 0) return;
    if (n.k === 1) return;
    if (n.k === 0) { errs.push([ptr, "no value is allowed here"]); return; }
    if (n.u) return; /* the address judges what the page cannot describe */
    var t = typeOf(v);
    if (n.t && !(n.t.indexOf(t) >= 0 || (t === "integer" && n.t.indexOf("number") >= 0))) {
      errs.push([ptr, "must be " + n.t.join(" or ") + ", not " + (t === "integer" ? "number" : t)]);
      return;
    }
    if (has(n, "co") && !same(n.co, v)) errs.push([ptr, "must be " + show(n.co)]);
    if (n.en && !n.en.some(function (e) { return same(e, v); }))
      errs.push([ptr, "must be one of " + n.en.map(show).join(", ")]);
    if (t === "string") {
      var len = codepoints(v);
      if (has(n, "minL") && len < n.minL) errs.push([ptr, "must be at least " + n.minL + " characters"]);
      if (has(n, "maxL") && len > n.maxL) errs.push([ptr, "must be at most " + n.maxL + " characters (now " + len + ")"]);
      if (has(n, "pat")) { var re = regex(n.pat); if (re && !re.test(v)) errs.push([ptr, "must match the pattern " + n.pat]); }
      if (has(n, "fmt") && has(FORMAT_SHAPE, n.fmt) && !FORMAT_SHAPE[n.fmt].test(v))
        errs.push([ptr, "must be " + (/^[aeiou]/.test(n.fmt) ? "an " : "a ") + n.fmt + FORMAT_HINT[n.fmt]]);
    }
    if (t === "number" || t === "integer") {
      if (has(n, "min") && v < Number(n.min)) errs.push([ptr, "must be at least " + n.min]);
      if (has(n, "max") && v > Number(n.max)) errs.push([ptr, "must be at most " + n.max]);
      if (has(n, "xmin") && v <= Number(n.xmin)) errs.push([ptr, "must be more than " + n.xmin]);
      if (has(n, "xmax") && v >= Number(n.xmax)) errs.push([ptr, "must be less than " + n.xmax]);
      if (has(n, "mul")) {
        var q = v / Number(n.mul);
        if (isFinite(q) && Math.abs(q - Math.round(q)) > 1e-9 * Math.max(1, Math.abs(q)))
          errs.push([ptr, "must be a multiple of " + n.mul]);
      }
    }
    if (t === "array") {
      if (has(n, "minI") && v.length < n.minI) errs.push([ptr, "needs at least " + n.minI + " items"]);
      if (has(n, "maxI") && v.length > n.maxI) errs.push([ptr, "takes at most " + n.maxI + " items"]);
      if (n.uq) {
        for (k = 0; k < v.length; k++) for (j = 0; j < k; j++)
          if (same(v[k], v[j])) { errs.push([ptr + "/" + k, "repeats item " + (j + 1) + ": items must be unique"]); k = v.length; break; }
      }
      var np = n.pre ? n.pre.length : 0;
      for (k = 0; k < v.length; k++) {
        if (k < np) check(n.pre[k], v[k], ptr + "/" + k, errs, depth + 1);
        else if (has(n, "it")) check(n.it, v[k], ptr + "/" + k, errs, depth + 1);
      }
      if (has(n, "ct")) {
        var found = v.some(function (x) { var e = []; check(n.ct, x, ptr, e, depth + 1); return e.length === 0; });
        if (!found) errs.push([ptr, "needs an item that matches the form's contains"]);
      }
    }
    if (t === "object") {
      var keys = Object.keys(v), props = map();
      (n.pr || []).forEach(function (p) {
        props[p[0]] = p[1];
        /* said where the member goes: its control, when it has one */
        if (p[2] && !has(v, p[0])) errs.push([ptr + "/" + esc(p[0]), "is required: give it a value"]);
      });
      (n.rq || []).forEach(function (r) {
        if (!has(v, r)) errs.push([ptr, "needs " + JSON.stringify(r) + " (required)"]);
      });
      if (has(n, "minP") && keys.length < n.minP) errs.push([ptr, "needs at least " + n.minP + " members"]);
      if (has(n, "maxP") && keys.length > n.maxP) errs.push([ptr, "takes at most " + n.maxP + " members"]);
      keys.forEach(function (key) {
        var p = ptr + "/" + esc(key), matched = false;
        if (has(props, key)) { matched = true; check(props[key], v[key], p, errs, depth + 1); }
        (n.pp || []).forEach(function (pp) {
          var re = regex(pp[0]);
          if (re && re.test(key)) { matched = true; check(pp[1], v[key], p, errs, depth + 1); }
        });
        if (!matched && has(n, "ap")) {
          if (N[n.ap].k === 0) errs.push([p, JSON.stringify(key) + " is not a member this form allows"]);
          else check(n.ap, v[key], p, errs, depth + 1);
        }
      });
    }
    if (has(n, "ref")) check(n.ref, v, ptr, errs, depth + 1);
    (n.all || []).forEach(function (a) { check(a, v, ptr, errs, depth + 1); });
    if (n.any && !n.any.some(function (a) { return passes(a, v, depth); }))
      errs.push([ptr, "matches none of the alternatives"]);
    if (n.one) {
      var c = n.one.filter(function (a) { return passes(a, v, depth); }).length;
      if (c !== 1) errs.push([ptr, c === 0 ? "matches none of the alternatives" : "matches " + c + " alternatives; exactly one must match"]);
    }
    if (has(n, "not") && passes(n.not, v, depth)) errs.push([ptr, "must not match the form's not"]);
  }
  function passes(i, v, depth) { var e = []; check(i, v, "", e, (depth || 0) + 1); return e.length === 0; }

  /* --- shapes: a node with its $ref and allOf folded in, for controls --- */

  var SCALAR = ["minL", "maxL", "pat", "fmt", "min", "max", "xmin", "xmax", "mul",
    "minI", "maxI", "it", "uq", "minP", "maxP", "ap", "ti", "d", "df", "ex",
    "en", "co", "any", "one"];
  /* null when the parts cannot be shown as one set of controls */
  function shape(i, depth) {
    var s = {pr: [], rq: [], pp: [], pre: null, t: null, opaque: false, k: 2};
    var folds = 0;
    function fold(j, d, outer) {
      var n = N[j], x;
      /* deep or wide $ref and allOf trees: a JSON editor, not a hang */
      if (d > 16 || ++folds > 2000) { s.opaque = true; return; }
      if (n.k === 0) { s.k = 0; return; }
      if (n.k === 1) return;
      if (n.u) { s.opaque = true; return; }
      SCALAR.forEach(function (key) {
        if (!has(n, key)) return;
        if ((key === "ti" || key === "d" || key === "df" || key === "ex") && !outer && has(s, key)) return;
        if (has(s, key) && !same(s[key], n[key])) {
          if (key === "ti" || key === "d" || key === "df" || key === "ex") return;
          s.opaque = true;
          return;
        }
        s[key] = n[key];
      });
      if (n.t) s.t = s.t ? s.t.filter(function (y) { return n.t.indexOf(y) >= 0 || (y === "integer" && n.t.indexOf("number") >= 0); }) : n.t.slice();
      if (n.pre) { if (s.pre) s.opaque = true; else s.pre = n.pre; }
      (n.pr || []).forEach(function (p) {
        for (x = 0; x < s.pr.length; x++) if (s.pr[x][0] === p[0]) {
          if (s.pr[x][1] !== p[1]) s.opaque = true;
          s.pr[x][2] = s.pr[x][2] || p[2];
          return;
        }
        s.pr.push(p.slice());
      });
      (n.rq || []).forEach(function (r) { s.rq.push(r); });
      (n.pp || []).forEach(function (p) { s.pp.push(p); });
      if (has(n, "ref")) fold(n.ref, d + 1, false);
      (n.all || []).forEach(function (a) { fold(a, d + 1, false); });
    }
    fold(i, depth || 0, true);
    /* a required name whose property came from another part */
    s.rq = s.rq.filter(function (r) {
      for (var x = 0; x < s.pr.length; x++) if (s.pr[x][0] === r) { s.pr[x][2] = 1; return false; }
      return true;
    });
    return s;
  }
  function kindsOf(s) {
    if (s.t) return s.t.filter(function (y) { return !(y === "integer" && s.t.indexOf("number") >= 0); });
    /* no type: the keywords say what a person means to give */
    if (s.pr.length || s.rq.length || s.pp.length || has(s, "ap") || has(s, "minP")) return ["object"];
    if (s.pre || has(s, "it") || has(s, "minI") || has(s, "maxI")) return ["array"];
    if (has(s, "minL") || has(s, "maxL") || has(s, "pat") || has(s, "fmt")) return ["string"];
    if (has(s, "min") || has(s, "max") || has(s, "xmin") || has(s, "xmax") || has(s, "mul")) return ["number"];
    return null;
  }
  function label(i) {
    var s = shape(i);
    if (has(s, "ti")) return s.ti;
    if (has(s, "co")) return show(s.co);
    var k = kindsOf(s);
    return k ? k.join(" or ") : "any JSON value";
  }

  /* --- controls ------------------------------------------------------- */

  function fire() { sync(); }
  function register(ptr, w, el) { byPtr[ptr] = el; w.ptr = ptr; }

  /* A JSON editor for a subtree: any value, never a dead end. */
  function jsonWidget(ptr, value, why, lab) {
    var id = nid(), err = h("p", {"class": "error", id: id + "-e", "aria-live": "polite"});
    var ta = h("textarea", {id: id, "class": "mono", spellcheck: "false", "aria-describedby": id + "-h " + id + "-e", "data-ptr": ptr, "data-kind": "json"});
    ta.value = value === undefined ? "null" : JSON.stringify(value, null, 2);
    var last = value === undefined ? null : value;
    var w = {
      el: h("div", {"class": "field"}, [h("label", {"for": id, text: (lab || "Value") + " (JSON)"}), ta,
        h("p", {"class": "help", id: id + "-h", text: why || "Enter this part as JSON."}), err]),
      input: ta,
      get: function () { return last; }
    };
    ta.addEventListener("input", function (e) {
      e.stopPropagation();
      try { last = JSON.parse(ta.value); err.textContent = ""; ta.removeAttribute("aria-invalid"); sync(); }
      catch (x) { err.textContent = "Not JSON yet: " + x.message; ta.setAttribute("aria-invalid", "true"); }
    });
    register(ptr, w, ta);
    return w;
  }

  function initial(s, kind) {
    if (has(s, "df")) return s.df;
    if (has(s, "co")) return s.co;
    if (s.en && s.en.length) return s.en[0];
    switch (kind) {
    case "object": return {};
    case "array": return [];
    case "string": return "";
    case "boolean": return false;
    case "null": return null;
    default: return undefined;
    }
  }

  /* The control for node i at ptr holding value (undefined: a new one),
   * depth the JSON nesting of the value's container. */
  /* extra: {req: a required member, ann: the member's own annotations
   * (a title beside a $ref), run: choosers nested at this very value} */
  function build(i, ptr, value, depth, name, extra) {
    if (value !== undefined) return build1(i, ptr, value, depth, name, extra);
    if (auto >= AUTO_MAX) return laterWidget(i, ptr, depth, name, extra);
    auto++;
    var w = build1(i, ptr, value, depth, name, extra);
    auto--;
    return w;
  }
  /* The control of a value not filled in yet: a button fills it in. */
  function laterWidget(i, ptr, depth, name, extra) {
    var s = shape(i, 0), inner = null;
    if (extra && extra.ann && has(extra.ann, "ti")) s.ti = extra.ann.ti;
    s.req = !!(extra && extra.req);
    var b = h("button", {type: "button", "data-ptr": ptr, "data-action": "fill", text: "Fill in " + labelFor(s, name)});
    var el = h("div", {"class": "field"}, [b]);
    var w = {el: el, input: b, get: function () { return inner ? inner.get() : undefined; }};
    b.addEventListener("click", function () {
      anew();
      inner = build(i, ptr, undefined, depth, name, extra);
      el.parentNode.replaceChild(inner.el, el);
      w.el = inner.el;
      w.input = inner.input;
      sync();
      var f = inner.input || inner.el.querySelector("input, select, textarea, button");
      if (f) f.focus();
    });
    register(ptr, w, b);
    return w;
  }
  function build1(i, ptr, value, depth, name, extra) {
    var s = shape(i, 0);
    if (extra && extra.ann) ["ti", "d", "df", "ex"].forEach(function (k) { if (has(extra.ann, k)) s[k] = extra.ann[k]; });
    s.req = !!(extra && extra.req);
    s.run = extra && extra.run || 0;
    /* an alternative that is its own alternative: {"anyOf": [{"$ref": "#"}]} */
    if (s.run > 16 || ++built > BUILD_MAX)
      return jsonWidget(ptr, value, "This part is more than the page shows as controls: enter it as JSON.", labelFor(s, name));
    if (s.k === 0) return fixedWidget(ptr, value, "no value is allowed here", labelFor(s, name));
    if (s.opaque) return jsonWidget(ptr, value, "The form says more about this part than the page can show: enter it as JSON.", labelFor(s, name));
    if (has(s, "co")) return fixedWidget(ptr, s.co, null, labelFor(s, name));
    if (s.en) return enumWidget(s, ptr, value, name);
    var alts = s.any || s.one;
    if (alts) return altWidget(s, alts, ptr, value, depth, name);
    var kinds = kindsOf(s);
    if (!kinds) return jsonWidget(ptr, value, "Any JSON value: enter it as JSON.", labelFor(s, name));
    if (kinds.length === 0) return fixedWidget(ptr, value, "no value of any type is allowed here", labelFor(s, name));
    if (kinds.length > 1) return typeWidget(s, kinds, ptr, value, depth, name);
    return kindWidget(s, kinds[0], ptr, value, depth, name);
  }
  function kindWidget(s, kind, ptr, value, depth, name) {
    /* an object or array here would nest deeper than the address reads */
    if ((kind === "object" || kind === "array") && depth >= JD)
      return jsonWidget(ptr, value, "The address reads acts nested at most " + JD + " deep: no object or array fits here.", labelFor(s, name));
    if (value !== undefined) {
      var t = typeOf(value);
      if (!(t === kind || (kind === "number" && t === "integer") || (kind === "integer" && t === "number" && Number.isInteger(value))))
        return jsonWidget(ptr, value, "This value is not a " + kind + " as the form asks: fix it as JSON.", labelFor(s, name));
    }
    if (value === undefined) value = initial(s, kind);
    switch (kind) {
    case "object": return objectWidget(s, ptr, value, depth, name);
    case "array": return arrayWidget(s, ptr, value, depth, name);
    case "string": return stringWidget(s, ptr, value, name);
    case "number": case "integer": return numberWidget(s, kind, ptr, value, name);
    case "boolean": return boolWidget(s, ptr, value, name);
    default: return fixedWidget(ptr, null, null, labelFor(s, name));
    }
  }

  function fixedWidget(ptr, value, note, lab) {
    var id = nid();
    var el = h("span", {"class": "fixed", id: id, "data-ptr": ptr, "data-kind": "fixed", text: note ? note : show(value)});
    var w = {el: h("div", {"class": "field"}, [h("span", {"class": "label", text: lab || "Value"}), el,
      h("p", {"class": "error", id: id + "-e", "aria-live": "polite"})]),
      get: function () { return value; }, fixed: true};
    register(ptr, w, el);
    return w;
  }

  function helpText(s) {
    var parts = [];
    if (has(s, "d")) parts.push(s.d);
    if (has(s, "fmt") && !INPUT_FOR_FORMAT[s.fmt]) parts.push("Format: " + s.fmt + ".");
    if (has(s, "pat")) parts.push("Pattern: " + s.pat);
    if (has(s, "minL") || has(s, "maxL"))
      parts.push((has(s, "minL") ? s.minL : 0) + " to " + (has(s, "maxL") ? s.maxL : "any number of") + " characters.");
    if (has(s, "min") || has(s, "xmin") || has(s, "max") || has(s, "xmax")) {
      var b = [];
      if (has(s, "min")) b.push("at least " + s.min);
      if (has(s, "xmin")) b.push("more than " + s.xmin);
      if (has(s, "max")) b.push("at most " + s.max);
      if (has(s, "xmax")) b.push("less than " + s.xmax);
      b = b.join(", ");
      parts.push(b.charAt(0).toUpperCase() + b.slice(1) + ".");
    }
    if (has(s, "mul")) parts.push("A multiple of " + s.mul + ".");
    return parts.join(" ");
  }
  function placeholder(s) {
    return s.ex && s.ex.length && typeof s.ex[0] !== "object" ? "e.g. " + String(s.ex[0]) : null;
  }

  function stringWidget(s, ptr, value, name) {
    var id = nid(), type = INPUT_FOR_FORMAT[s.fmt] || "text";
    /* a text area where the form allows more than a line's worth */
    var long = type === "text" && has(s, "maxL") && s.maxL > 200 && !has(s, "pat") && !has(s, "fmt");
    var a = {id: id, "data-ptr": ptr, "data-kind": "string", spellcheck: "false",
      minlength: has(s, "minL") ? s.minL : null, maxlength: has(s, "maxL") ? s.maxL : null,
      placeholder: placeholder(s), "aria-describedby": id + "-h " + id + "-e"};
    var el;
    if (long) el = h("textarea", a);
    else {
      a.type = type;
      if (type === "text" && has(s, "pat") && regex(s.pat)) a.pattern = "[\\s\\S]*(?:" + s.pat + ")[\\s\\S]*";
      if (type === "datetime-local") a.step = "1";
      if (type === "time") a.step = "1";
      el = h("input", a);
    }
    if (a.pattern) { try { new RegExp("^(?:" + a.pattern + ")$", "v"); } catch (e) { el.removeAttribute("pattern"); } }
    var w = {input: el};
    /* what the input shows and what the act carries differ for some formats */
    function toInput(v) {
      if (type === "datetime-local") return v.replace(/(Z|[+-]\d\d:\d\d)$/i, "").replace(" ", "T");
      if (type === "time") return v.replace(/(Z|[+-]\d\d:\d\d)$/i, "");
      return v;
    }
    var suffix = "";
    if (type === "datetime-local" || type === "time") {
      var m = /(Z|[+-]\d\d:\d\d)$/i.exec(value);
      suffix = m ? m[1] : "Z";
    }
    el.value = toInput(value);
    w.get = function () {
      var v = el.value;
      if ((type === "datetime-local" || type === "time") && v !== "") {
        if (/T\d\d:\d\d$/.test(v) || /^\d\d:\d\d$/.test(v)) v += ":00";
        return v + suffix;
      }
      return v;
    };
    w.el = field(s, id, name, el);
    register(ptr, w, el);
    return w;
  }

  function numberWidget(s, kind, ptr, value, name) {
    var id = nid();
    var step = has(s, "mul") ? s.mul : kind === "integer" ? "1" : "any";
    var el = h("input", {id: id, type: "number", inputmode: kind === "integer" ? "numeric" : "decimal",
      "data-ptr": ptr, "data-kind": kind, step: step,
      min: has(s, "min") ? s.min : null, max: has(s, "max") ? s.max : null,
      placeholder: placeholder(s), "aria-describedby": id + "-h " + id + "-e"});
    if (value !== undefined && value !== null) el.value = String(value);
    var w = {input: el, get: function () {
      if (el.value === "") return el.validity && el.validity.badInput ? el.value : undefined;
      var v = Number(el.value);
      return isFinite(v) ? v : el.value;
    }};
    w.el = field(s, id, name, el);
    register(ptr, w, el);
    return w;
  }

  function boolWidget(s, ptr, value, name) {
    var id = nid();
    var el = h("input", {id: id, type: "checkbox", "data-ptr": ptr, "data-kind": "boolean", "aria-describedby": id + "-h " + id + "-e"});
    el.checked = value === true;
    var w = {input: el, get: function () { return el.checked; }};
    var help = helpText(s);
    w.el = h("div", {"class": "field"}, [
      h("label", {"for": id}, [el, document.createTextNode(labelFor(s, name))]),
      h("p", {"class": "help", id: id + "-h", text: help}),
      h("p", {"class": "error", id: id + "-e", "aria-live": "polite"})]);
    register(ptr, w, el);
    return w;
  }

  function labelFor(s, name) {
    var l = has(s, "ti") ? s.ti : name === undefined ? "Value" : name;
    return s.req ? l + " (required)" : l;
  }
  function field(s, id, name, el) {
    return h("div", {"class": "field"}, [
      h("label", {"for": id, text: labelFor(s, name)}), el,
      h("p", {"class": "help", id: id + "-h", text: helpText(s)}),
      h("p", {"class": "error", id: id + "-e", "aria-live": "polite"})]);
  }

  function enumWidget(s, ptr, value, name) {
    var id = nid(), opts = s.en, sel = 0, k, el, w;
    if (value === undefined && has(s, "df")) value = s.df;
    if (value !== undefined) {
      sel = -1;
      for (k = 0; k < opts.length; k++) if (same(opts[k], value)) { sel = k; break; }
      if (sel < 0) return jsonWidget(ptr, value, "This value is none of the form's choices: fix it as JSON.", labelFor(s, name));
    }
    /* a choice a person could not see (U+2028, spaces) is shown escaped */
    function choiceText(v) {
      if (typeof v !== "string") return show(v);
      if (!/^[\s\u2028\u2029\u200b\u00ad]*$/.test(v)) return v;
      return "\"" + v.replace(/[\s\S]/g, function (c) { return "\\u" + ("000" + c.charCodeAt(0).toString(16)).slice(-4); }) + "\"";
    }
    if (opts.length <= 4) {
      var radios = [];
      el = h("fieldset", {"class": "choice", "data-ptr": ptr, "data-kind": "radio", id: id, "aria-describedby": id + "-h " + id + "-e"},
        [h("legend", {text: labelFor(s, name)})]);
      opts.forEach(function (v, j) {
        var r = h("input", {type: "radio", name: id, id: id + "-" + j, value: String(j)});
        r.checked = j === sel;
        radios.push(r);
        el.appendChild(h("label", {"for": id + "-" + j}, [r, document.createTextNode(choiceText(v))]));
      });
      el.appendChild(h("p", {"class": "help", id: id + "-h", text: helpText(s)}));
      el.appendChild(h("p", {"class": "error", id: id + "-e", "aria-live": "polite"}));
      w = {el: el, input: radios[0], get: function () {
        for (var j = 0; j < radios.length; j++) if (radios[j].checked) return opts[j];
        return opts[0];
      }};
      register(ptr, w, el);
      return w;
    }
    el = h("select", {id: id, "data-ptr": ptr, "data-kind": "select", "aria-describedby": id + "-h " + id + "-e"});
    opts.forEach(function (v, j) { el.appendChild(h("option", {value: String(j), text: choiceText(v)})); });
    el.value = String(sel);
    w = {input: el, get: function () { return opts[Number(el.value)]; }};
    w.el = field(s, id, name, el);
    register(ptr, w, el);
    return w;
  }

  /* anyOf / oneOf: a chooser of alternatives, each built on demand. */
  function altWidget(s, alts, ptr, value, depth, name) {
    var id = nid(), chosen = 0, k, inner = null;
    var base = {};
    Object.keys(s).forEach(function (key) { if (key !== "any" && key !== "one") base[key] = s[key]; });
    /* a default chooses its alternative and fills it */
    if (value === undefined && has(s, "df")) value = s.df;
    if (value !== undefined) {
      chosen = -1;
      fresh();
      for (k = 0; k < alts.length; k++) if (passes(alts[k], value)) { chosen = k; break; }
      if (chosen < 0) for (k = 0; k < alts.length; k++) { var ks = kindsOf(shape(alts[k])); if (ks && ks.indexOf(typeOf(value)) >= 0) { chosen = k; break; } }
      if (chosen < 0) chosen = 0;
    }
    var sel = h("select", {id: id, "data-ptr": ptr, "data-kind": "alternatives", "aria-describedby": id + "-h"});
    alts.forEach(function (a, j) { sel.appendChild(h("option", {value: String(j), text: label(a)})); });
    sel.value = String(chosen);
    var slot = h("div", {"class": "alt"});
    function make(v) {
      inner = build(alts[Number(sel.value)], ptr, v, depth, name, {req: base.req, run: base.run + 1});
      slot.textContent = "";
      slot.appendChild(inner.el);
      /* a problem at ptr is shown on the chosen control, or the chooser */
      if (inner.fixed) byPtr[ptr] = sel;
    }
    make(value);
    sel.addEventListener("change", function (e) { e.stopPropagation(); anew(); make(undefined); sync(); });
    var box = h("fieldset", {}, [h("legend", {text: labelFor(base, name)}),
      h("label", {"for": id, text: "Which kind"}), sel,
      h("p", {"class": "help", id: id + "-h", text: helpText(base)}), slot]);
    var w = {el: box, input: sel, get: function () { return inner.get(); }};
    return w;
  }

  /* A type union (["string", "null"]): a chooser of types. */
  function typeWidget(s, kinds, ptr, value, depth, name) {
    var id = nid(), inner = null, chosen = 0;
    if (value === undefined && has(s, "df")) value = s.df;
    if (value !== undefined) {
      var t = typeOf(value);
      chosen = kinds.indexOf(t);
      if (chosen < 0 && t === "integer") chosen = kinds.indexOf("number");
      if (chosen < 0) return jsonWidget(ptr, value, "This value's type is none the form allows: fix it as JSON.", labelFor(s, name));
    }
    var sel = h("select", {id: id, "data-ptr": ptr, "data-kind": "types"});
    kinds.forEach(function (k, j) { sel.appendChild(h("option", {value: String(j), text: k})); });
    sel.value = String(chosen);
    var slot = h("div", {});
    function make(v) {
      inner = kindWidget(s, kinds[Number(sel.value)], ptr, v, depth, name);
      slot.textContent = "";
      slot.appendChild(inner.el);
      if (inner.fixed) byPtr[ptr] = sel;
    }
    make(value);
    sel.addEventListener("change", function (e) { e.stopPropagation(); anew(); make(undefined); sync(); });
    return {el: h("fieldset", {}, [h("legend", {text: labelFor(s, name)}),
      h("label", {"for": id, text: "Type"}), sel, slot]), input: sel,
      get: function () { return inner.get(); }};
  }

  function objectWidget(s, ptr, value, depth, name) {
    var members = []; /* {name, w, row, fixed} in the act's order */
    var list = h("div", {});
    var adders = h("div", {"class": "tools"});
    var box = h("fieldset", {"data-ptr": ptr, "data-kind": "object"},
      [h("legend", {text: labelFor(s, name === undefined ? "The act" : name)})]);
    if (has(s, "d")) box.appendChild(h("p", {"class": "help", text: s.d}));
    box.appendChild(list);
    var err = h("p", {"class": "error", "aria-live": "polite"});
    var propOf = map();
    s.pr.forEach(function (p) { propOf[p[0]] = p; });
    var open = !(has(s, "ap") && N[s.ap].k === 0) || s.pp.length > 0;

    function schemaFor(key) {
      if (has(propOf, key)) return propOf[key][1];
      for (var j = 0; j < s.pp.length; j++) { var re = regex(s.pp[j][0]); if (re && re.test(key)) return s.pp[j][1]; }
      return has(s, "ap") ? s.ap : -1;
    }
    function add(key, v, removable, focus) {
      var i = schemaFor(key), w, p = ptr + "/" + esc(key);
      var m = {name: key};
      var req = has(propOf, key) && propOf[key][2];
      if (i < 0) w = jsonWidget(p, v, "Any JSON value.", key);
      else w = build(i, p, v, depth + 1, key, {req: req, ann: has(propOf, key) ? propOf[key][3] : null});
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
      s.pr.forEach(function (p) {
        if (p[2] || present(p[0]) || N[p[1]].k === 0) return;
        var sh = shape(p[1]);
        var b = h("button", {type: "button", "data-ptr": ptr + "/" + esc(p[0]), "data-action": "add",
          text: "Add " + (has(sh, "ti") ? sh.ti + " (" + p[0] + ")" : p[0])});
        b.addEventListener("click", function () { anew(); add(p[0], undefined, true, true); refreshAdders(); sync(); });
        adders.appendChild(b);
      });
    }
    s.pr.forEach(function (p) {
      if (p[2] || (value && has(value, p[0]))) {
        if (N[p[1]].k === 0 && !(value && has(value, p[0]))) return;
        add(p[0], value && has(value, p[0]) ? value[p[0]] : undefined, !p[2], false);
      }
    });
    s.rq.forEach(function (r) { if (!present(r)) add(r, value && has(value, r) ? value[r] : undefined, false, false); });
    Object.keys(value || {}).forEach(function (key) {
      if (!present(key)) add(key, value[key], true, false);
    });
    refreshAdders();
    box.appendChild(adders);
    if (open) {
      var kid = nid(), keyIn = h("input", {type: "text", id: kid, "data-ptr": ptr, "data-action": "member-name", spellcheck: "false"});
      var addKey = h("button", {type: "button", "data-ptr": ptr, "data-action": "add-member", text: "Add member"});
      addKey.addEventListener("click", function () {
        var key = keyIn.value;
        if (present(key)) { err.textContent = JSON.stringify(key) + " is already a member"; keyIn.focus(); return; }
        if (schemaFor(key) >= 0 && N[schemaFor(key)].k === 0) { err.textContent = JSON.stringify(key) + " is not a member this form allows"; keyIn.focus(); return; }
        err.textContent = "";
        keyIn.value = "";
        anew();
        add(key, undefined, true, true);
        refreshAdders();
        sync();
      });
      keyIn.addEventListener("keydown", function (e) { if (e.key === "Enter") { e.preventDefault(); addKey.click(); } });
      box.appendChild(h("div", {"class": "field"}, [h("label", {"for": kid, text: "New member's name"}),
        h("div", {"class": "row"}, [keyIn, addKey])]));
    }
    box.appendChild(err);
    var w = {el: box, get: function () {
      var o = {};
      members.forEach(function (m) {
        var v = m.w.get();
        /* defined, not assigned: a member "__proto__" is a member */
        if (v !== undefined) Object.defineProperty(o, m.name, {value: v, enumerable: true, writable: true, configurable: true});
      });
      return o;
    }};
    register(ptr, w, box);
    return w;
  }

  function arrayWidget(s, ptr, value, depth, name) {
    var items = [], pre = s.pre || [], maxI = has(s, "maxI") ? s.maxI : Infinity;
    var itemOk = has(s, "it") ? N[s.it].k !== 0 : true;
    var list = h("ol", {"class": "items"});
    var lbl = labelFor(s, name === undefined ? "Items" : name);
    var addB = h("button", {type: "button", "data-ptr": ptr, "data-action": "add-item", text: "Add item"});
    var box = h("fieldset", {"data-ptr": ptr, "data-kind": "array"}, [h("legend", {text: lbl})]);
    var help = helpText(s);
    var bounds = [];
    if (has(s, "minI")) bounds.push("at least " + s.minI);
    if (has(s, "maxI")) bounds.push("at most " + s.maxI);
    if (bounds.length) help += (help ? " " : "") + "Items: " + bounds.join(", ") + ".";
    if (s.uq) help += (help ? " " : "") + "No two items may be equal.";
    if (help) box.appendChild(h("p", {"class": "help", text: help}));
    box.appendChild(list);
    function schemaAt(k) { return k < pre.length ? pre[k] : has(s, "it") ? s.it : -1; }
    function renumber() {
      var np = pre.length, n = items.length;
      items.forEach(function (it, k) {
        it.num.textContent = "Item " + (k + 1);
        /* prefixItems are fixed slots: they do not move, and only the last
         * one goes (a later value would slide into another slot's schema) */
        it.up.hidden = it.down.hidden = k < np;
        it.up.disabled = k <= np;
        it.down.disabled = k === n - 1;
        it.rm.disabled = (has(s, "minI") && n <= s.minI) || (k < np && k !== n - 1);
      });
      addB.disabled = items.length >= maxI || (!itemOk && items.length >= pre.length);
    }
    function make(k, v) {
      var i = schemaAt(k), p = ptr + "/" + k;
      var w = i < 0 ? jsonWidget(p, v, "Any JSON value.", "Item " + (k + 1)) : build(i, p, v, depth + 1, "Item " + (k + 1));
      return w;
    }
    function append(v) {
      var k = items.length, w = make(k, v);
      var it = {w: w};
      it.num = h("span", {"class": "help"});
      it.up = h("button", {type: "button", "data-action": "up", text: "Move up"});
      it.down = h("button", {type: "button", "data-action": "down", text: "Move down"});
      it.rm = h("button", {type: "button", "data-action": "remove", text: "Remove"});
      it.tools = [it.up, it.down, it.rm];
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
      it.li = h("li", {"data-ptr": ptr + "/" + k}, [it.num, w.el, h("div", {"class": "tools"}, it.tools)]);
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
    var want = Math.max(start.length, has(s, "minI") ? Math.min(s.minI, 64) : 0);
    if (!Array.isArray(value) || value.length === 0) want = Math.max(want, 0);
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
    var w = {el: box, get: function () {
      return items.map(function (it) { var v = it.w.get(); return v === undefined ? null : v; });
    }};
    register(ptr, w, box);
    return w;
  }

  /* --- the editor, both ways ------------------------------------------ */

  function text(v) { return v === undefined ? "" : JSON.stringify(v, null, 2); }
  function sync() {
    body.value = text(root.get());
    bodyError.textContent = "";
    body.removeAttribute("aria-invalid");
    if (checked) judge(false);
  }
  function render(v) {
    byPtr = map();
    anew();
    root = build(D.root, "", v, 0);
    controls.textContent = "";
    controls.appendChild(root.el);
  }
  controls.addEventListener("input", function () { sync(); });
  controls.addEventListener("change", function () { sync(); });
  body.addEventListener("input", function () {
    var v;
    try { v = JSON.parse(body.value); }
    catch (e) {
      bodyError.textContent = "Not JSON: " + e.message + ". The controls show the last JSON that parsed.";
      body.setAttribute("aria-invalid", "true");
      return;
    }
    bodyError.textContent = "";
    body.removeAttribute("aria-invalid");
    render(v);
    if (checked) judge(false);
  });

  /* --- before sending: what the page can tell --------------------------- */

  function clearMarks() {
    Array.prototype.forEach.call(controls.querySelectorAll("[aria-invalid]"), function (e) {
      if (e.getAttribute("data-kind") !== "json" || e.getAttribute("data-bad") === "1") {
        e.removeAttribute("aria-invalid");
        e.removeAttribute("data-bad");
      }
    });
    Array.prototype.forEach.call(controls.querySelectorAll(".error.mark"), function (e) { e.textContent = ""; e.classList.remove("mark"); });
  }
  function place(ptr) {
    var p = ptr;
    for (;;) {
      if (byPtr[p]) return byPtr[p];
      if (p === "") return null;
      p = p.slice(0, p.lastIndexOf("/"));
    }
  }
  /* The pointer of the first object or array nested past JD, or null;
   * a walk with its own stack, as long as the value. */
  function tooDeep(v) {
    var stack = [[v, "", 1]], top, k, x;
    while (stack.length) {
      top = stack.pop();
      x = top[0];
      if (x === null || typeof x !== "object") continue;
      if (top[2] > JD) return top[1];
      for (k in x) if (has(x, k)) stack.push([x[k], top[1] + "/" + esc(k), top[2] + 1]);
    }
    return null;
  }
  function judge(focus) {
    var v, errs = [];
    clearMarks();
    problems.textContent = "";
    fresh();
    try { v = JSON.parse(body.value); }
    catch (e) {
      problems.appendChild(h("p", {text: "The act is not JSON: " + e.message}));
      bodyError.textContent = "Not JSON: " + e.message;
      body.setAttribute("aria-invalid", "true");
      if (focus) body.focus();
      return false;
    }
    var deep = tooDeep(v);
    if (deep !== null) errs.push([deep, "nests deeper than the address reads (at most " + JD + " levels)"]);
    check(D.root, v, "", errs, 0);
    if (errs.length === 0) return true;
    var ul = h("ul", {});
    var first = null;
    errs.forEach(function (e) {
      ul.appendChild(h("li", {text: (e[0] === "" ? "The act" : e[0]) + ": " + e[1]}));
      var el = place(e[0]);
      if (el) {
        el.setAttribute("aria-invalid", "true");
        el.setAttribute("data-bad", "1");
        var msg = el.id ? document.getElementById(el.id + "-e") : null;
        if (msg) { msg.textContent = (msg.textContent ? msg.textContent + "; " : "") + e[1]; msg.classList.add("mark"); }
        if (!first) first = el;
      }
    });
    problems.appendChild(h("p", {text: "The page found " + errs.length + (errs.length === 1 ? " problem" : " problems") + " before sending (the address stays the judge):"}));
    problems.appendChild(ul);
    if (focus && first) (first.tagName === "FIELDSET" ? first.querySelector("input,select,textarea,button") || first : first).focus();
    return errs;
  }

  /* --- sending and the answer ------------------------------------------ */

  function say(cls, status, what, text) {
    result.hidden = false;
    statusEl.className = cls;
    statusEl.textContent = status;
    meaning.textContent = what;
    response.textContent = text;
  }
  function send(guess) {
    var sent = body.value;
    var headers = {"Content-Type": "application/json"};
    if (D.etag) headers["If-Match"] = D.etag;
    say("", "Sending\u2026", "", "");
    anyway.hidden = true;
    fetch(location.href, {method: "POST", headers: headers, body: sent, cache: "no-store", credentials: "same-origin"})
      .then(function (r) {
        return r.text().then(function (t) {
          var pretty = t;
          try { pretty = JSON.stringify(JSON.parse(t), null, 2); } catch (e) { pretty = t; }
          if (r.status === 200)
            say("status-ok", "200: accepted", "The address accepted the act and answered:", pretty);
          else if (r.status === 204)
            say("status-bad", "204: rejected by the address",
              guess.length ? "The page's own best guess why: " + guess.map(function (e) { return (e[0] || "the act") + " " + e[1]; }).join("; ") + "."
                : "The page found nothing wrong, so the address checks something the page cannot (a format, the size of the body, or a rule of its own). The address says no more, by design.", "");
          else if (r.status === 422)
            say("status-bad", "422: rejected, with the reason", "The address explains its rejections (it is under development):", pretty);
          else if (r.status === 412)
            say("status-bad", "412: the form changed", "The address's form changed since this page was loaded. Reload the page and compose the act again.", "");
          else if (r.status >= 500)
            say("status-bad", r.status + ": the address failed", "The act may have been accepted, but the address could not answer (its hook failed or its form did not load). Try again later.", pretty);
          else
            say("status-bad", (r.status + " " + r.statusText).trim(), "An answer this page does not expect.", pretty);
        });
      }).catch(function (e) {
        say("status-bad", "Not sent", "The request failed: " + e.message, "");
      });
  }
  var pendingGuess = [];
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    checked = true;
    var r = judge(true);
    if (r === true) { pendingGuess = []; send([]); return; }
    if (r === false) { anyway.hidden = true; return; }
    pendingGuess = r;
    anyway.hidden = false;
    say("status-bad", "Not sent", "Fix the problems above, or send anyway: the address decides.", "");
  });
  anyway.addEventListener("click", function () { send(pendingGuess); });

  var start;
  try { start = body.value.trim() === "" ? undefined : JSON.parse(body.value); } catch (e) { start = undefined; }
  render(start);
  body.value = text(root.get());
  form.hidden = false;
})();
