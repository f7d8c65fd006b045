import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactPersonalData } from '../../packages/bot-answer-proxy/src/proxy/redact.js';

describe('personal data in what visitors type', () => {
  it('replaces e-mail addresses', () => {
    assert.equal(redactPersonalData('Write to jane.doe+docs@example.co.uk please'), 'Write to [email] please');
    assert.equal(redactPersonalData('ask zoë@bücher.example'), 'ask [email]');
  });

  it('replaces card-like digit runs (13 to 19 digits, spaces or dashes between)', () => {
    assert.equal(redactPersonalData('my card 4111 1111 1111 1111 was charged'), 'my card [card] was charged');
    assert.equal(redactPersonalData('card 4111-1111-1111-1111!'), 'card [card]!');
    assert.equal(redactPersonalData('5500000000000004'), '[card]');
    assert.equal(redactPersonalData('amex 3782 822463 10005'), 'amex [card]');
  });

  it('replaces key-like tokens: known prefixes, JWTs, values of password/token/api_key, random-looking runs', () => {
    const cases: Array<[string, string]> = [
      ['my key sk-live-5f2c9e1a7b3d48c6a0e4 fails', 'my key [key] fails'],
      ['ghp_1234567890abcdefghijABCDEFGHIJ123456', '[key]'],
      ['AKIAIOSFODNN7EXAMPLE works?', '[key] works?'],
      ['xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx', '[key]'],
      ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abc-def_ghi', '[key]'],
      ['password: hunter2 is wrong', 'password: [key] is wrong'],
      ['api_key=abc123; then', 'api_key=[key]; then'],
      ['commit 3f2a9b1c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a?', 'commit [key]?'],
    ];
    for (const [text, expected] of cases) assert.equal(redactPersonalData(text), expected, text);
  });

  it('leaves ordinary questions exactly as they were (the rules do not fire on words, versions, dates, ids, phone numbers)', () => {
    for (const text of [
      'How do I refresh my access token?',
      'How do I use the v2 API?',
      'getting-started-with-authentication',
      'internationalization and localization',
      'Version 2024-11-20 release notes',
      'order 12345678 and phone +1 555 123 4567',
      'uuid 123e4567-e89b-12d3-a456-426614174000',
      'What does HTTP 429 mean?',
      '<img src=x onerror=alert(1)>',
    ]) {
      assert.equal(redactPersonalData(text), text);
    }
  });
});
