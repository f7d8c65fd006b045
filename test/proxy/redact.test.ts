import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRedactor } from '../../packages/bot-answer-proxy/src/proxy/redact.js';

const KEY = 'sk-live-5f2c9e1a7b3d48c6a0e4';
const redact = createRedactor(KEY);

test('the key is redacted as is, URL-encoded, inside base64 at any alignment, and when cut short', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const echoes = [
    `token ${KEY} rejected`,
    `token ${encodeURIComponent(KEY + '/+=')} rejected`,
    `header ${b64(`Bearer ${KEY}`)}`,
    `header ${b64(`Authorization: Bearer ${KEY}`)}`,
    `header ${b64(`x${KEY}`)}`,
    `cut: ${KEY.slice(0, 16)}`,
    `cut: ${KEY.slice(-12)}…`,
  ];
  for (const echo of echoes) {
    const out = redact(echo);
    assert.match(out, /\[redacted\]/, echo);
    for (let i = 0; i + 8 <= KEY.length; i++) assert.ok(!out.includes(KEY.slice(i, i + 8)), `${out} still holds a piece of the key`);
    assert.ok(!out.includes(b64(KEY).slice(4, 16)), out);
  }
});

test('text without the key is left exactly as it was', () => {
  const line = '{"level":"info","msg":"request","status":200,"path":"/api/answer","bot":"demo"}';
  assert.equal(redact(line), line);
  assert.equal(createRedactor('')('anything'), 'anything');
});
