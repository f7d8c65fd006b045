import { expect } from '@open-wc/testing';
import { STRINGS, errorMessage } from '../../packages/bot-answer/src/widget/strings.js';

describe('strings', () => {
  it('explains every error code of the protocol, and the client, to the visitor', () => {
    const cases: [string, keyof typeof STRINGS][] = [
      ['rate_limited', 'rate_limited'],
      ['upstream_error', 'unavailable'],
      ['upstream_auth', 'unavailable'],
      ['shutting_down', 'unavailable'],
      ['forbidden_origin', 'unavailable'],
      ['internal', 'unavailable'],
      ['unavailable', 'unavailable'],
      ['unknown_bot', 'unknown_bot'],
      ['forbidden_bot', 'unknown_bot'],
      ['not_found', 'unknown_bot'],
      // A private knowledge base that refused the visitor (the proxy's authorize hook): not available to them.
      ['unauthorized', 'unknown_bot'],
      ['forbidden', 'unknown_bot'],
      ['network', 'network'],
      ['offline', 'offline'],
      ['timeout', 'timeout'],
      ['upstream_timeout', 'timeout'],
      ['stream_interrupted', 'interrupted'],
      ['message_too_long', 'message_too_long'],
      ['payload_too_large', 'message_too_long'],
      ['bad_request', 'error'],
      ['something_new', 'error'],
    ];
    for (const [code, key] of cases) expect(errorMessage(STRINGS, code, 5), code).to.equal(STRINGS[key].replace('{n}', '5'));
  });

  it('gives the wait of a rate limit, or 60 seconds when unknown', () => {
    expect(errorMessage(STRINGS, 'rate_limited', 42)).to.contain('42 seconds');
    expect(errorMessage(STRINGS, 'rate_limited')).to.contain('60 seconds');
  });

  it('uses overridden strings', () => {
    expect(errorMessage({ ...STRINGS, offline: 'Hors ligne' }, 'offline')).to.equal('Hors ligne');
  });
});
