// link-parse.js: the tests' own parser of Link header fields (RFC 8288
// section 3, with RFC 8187 for title*), written from the RFC's grammar and
// independent of gpt.fcgi's writer.  Reads a header block (as curl -D
// writes it) on stdin; prints a JSON array of {rel, href, title} for every
// link-value of every Link field, in order.  Exits 1 on anything the
// grammar refuses.
'use strict';
const fs = require('fs');
const text = fs.readFileSync(0, 'latin1');

function fail(why) {
	process.stderr.write('link-parse: ' + why + '\n');
	process.exit(1);
}

const tchar = /[!#$%&'*+.^_`|~0-9A-Za-z-]/;
const out = [];
for (const line of text.split(/\r?\n/)) {
	const m = /^link:[ \t]*(.*)$/i.exec(line);
	if (!m)
		continue;
	const s = m[1];
	let i = 0;
	const ws = () => { while (s[i] === ' ' || s[i] === '\t') i++; };
	const token = () => {
		const b = i;
		while (i < s.length && tchar.test(s[i])) i++;
		if (i === b) fail('a token expected at ' + i + ' in ' + s);
		return s.slice(b, i);
	};
	const quoted = () => {
		let v = '';
		i++; // the opening quote
		while (i < s.length && s[i] !== '"') {
			if (s[i] === '\\') i++;
			v += s[i++];
		}
		if (s[i] !== '"') fail('an unterminated quoted-string: ' + s);
		i++;
		return v;
	};
	while (i < s.length) {
		ws();
		if (s[i] !== '<') fail('"<" expected: ' + s);
		const end = s.indexOf('>', i);
		if (end < 0) fail('">" expected: ' + s);
		const link = {href: s.slice(i + 1, end)};
		i = end + 1;
		const params = {};
		for (;;) {
			ws();
			if (s[i] !== ';') break;
			i++;
			ws();
			const name = token().toLowerCase();
			ws();
			let value = null;
			if (s[i] === '=') {
				i++;
				ws();
				value = s[i] === '"' ? quoted() : token();
			}
			// RFC 8288 3.3/3.4: the first occurrence counts
			if (!(name in params)) params[name] = value;
		}
		if (params.rel === undefined) fail('a link without rel: ' + s);
		link.rel = params.rel;
		if (params['title*'] !== undefined) {
			const v = /^UTF-8'[^']*'(.*)$/i.exec(params['title*']);
			if (!v) fail('title* is not RFC 8187: ' + params['title*']);
			link.title = Buffer.from(decodeURIComponent(v[1]), 'utf8')
			    .toString('utf8');
		} else if (params.title !== undefined) {
			link.title = Buffer.from(params.title, 'latin1').toString('utf8');
		}
		out.push(link);
		ws();
		if (i < s.length) {
			if (s[i] !== ',') fail('"," expected: ' + s);
			i++;
		}
	}
}
process.stdout.write(JSON.stringify(out) + '\n');
