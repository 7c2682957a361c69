'use strict';
// server.js: the baseline of the responder benchmark.  It serves one GPT
// address the way gpt.fcgi does, in the usual Node way: fastify answers
// GET with the arrival document, parses a POSTed application/json body,
// validates it with ajv (JSON Schema 2020-12) against the form, and runs
// the address's hook once per accepted act, with the body bytes on its
// stdin, answering 200 with the hook's output when that is JSON.
//
//   node server.js ADDRESS-DIR PORT
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const Ajv2020 = require('ajv/dist/2020').default;
const fastify = require('fastify')({ logger: false, bodyLimit: 1048576 });

const dir = path.resolve(process.argv[2]);
const port = Number(process.argv[3]);
const doc = JSON.parse(fs.readFileSync(path.join(dir, 'form.json'), 'utf8'));
const validate = new Ajv2020({ strict: false }).compile(doc.s);
const arrival = JSON.stringify(doc);
const hook = path.join(dir, 'hook');

// Keep the bytes as received: the hook gets them, not a re-serialization.
fastify.addContentTypeParser('application/json', { parseAs: 'buffer' },
  (req, body, done) => {
    try {
      req.raw.body = body;
      done(null, JSON.parse(body));
    } catch (err) {
      err.statusCode = 400;
      done(err);
    }
  });

fastify.get('/', async (req, reply) => {
  reply.type('application/json');
  return arrival;
});

fastify.post('/', (req, reply) => {
  if (!validate(req.body)) {
    reply.code(204).send();
    return reply;
  }
  const body = req.raw.body;
  const child = spawn(hook, [], {
    cwd: dir,
    env: { PATH: '/usr/bin:/bin', GPT_ADDRESS: dir,
      CONTENT_LENGTH: String(body.length) },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const chunks = [];
  const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
  child.stdout.on('data', (c) => chunks.push(c));
  child.on('error', () => {});
  child.stdin.on('error', () => {});
  child.on('close', (code) => {
    clearTimeout(timer);
    const out = Buffer.concat(chunks);
    try {
      if (code !== 0) throw new Error('hook failed');
      JSON.parse(out);
    } catch (err) {
      reply.code(502).send();
      return;
    }
    reply.type('application/json').send(out);
  });
  child.stdin.end(body);
  return reply;
});

fastify.listen({ host: '127.0.0.1', port }).catch((err) => {
  console.error(err);
  process.exit(1);
});
