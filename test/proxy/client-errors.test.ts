import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { serveNode } from '../../packages/bot-answer-proxy/src/proxy/node.js';

/** Sends raw bytes and returns everything the server wrote before closing. */
function raw(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let reply = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (reply += chunk));
    socket.on('end', () => resolve(reply));
    socket.on('error', reject);
  });
}

test('requests Node refuses before the handler still get a JSON error body', async () => {
  const server = await serveNode(async () => new Response('never'), { port: 0, log: false });
  try {
    const garbage = await raw(server.port, 'NOT HTTP AT ALL\r\n\r\n');
    assert.match(garbage, /^HTTP\/1\.1 400 /);
    assert.deepEqual(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4)).error.code, 'bad_request');

    const headers = await raw(server.port, `GET /healthz HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.match(headers, /^HTTP\/1\.1 431 /);
    assert.match(headers, /content-type: application\/json/);
    assert.ok(JSON.parse(headers.slice(headers.indexOf('\r\n\r\n') + 4)).error.message);
  } finally {
    await server.close();
  }
});
