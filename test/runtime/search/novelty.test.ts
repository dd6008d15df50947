import { describe, expect, it } from 'vitest';
import { ToolIndex } from '../../../src/runtime/search/tool-index.js';

// Several providers of the same endpoint fill the first places for the first thing a request asks
// for; the tool for its second thing should still make the short list.
const tools = [
  {
    name: 'mailcheck__validate_email',
    server: 'mailcheck',
    description: 'Validate an email address and check the email is deliverable.',
    params: '',
  },
  {
    name: 'mailverify__verify_email',
    server: 'mailverify',
    description: 'Validate an email address: check the email mailbox exists.',
    params: '',
  },
  { name: 'emailtools__email_check', server: 'emailtools', description: 'Check and validate an email address.', params: '' },
  {
    name: 'inboxguard__validate_email_address',
    server: 'inboxguard',
    description: 'Validate email address syntax and check the email domain.',
    params: '',
  },
  { name: 'qrmaker__make', server: 'qrmaker', description: 'Make a QR image.', params: '' },
  { name: 'weather__forecast', server: 'weather', description: 'Weather forecast for a city.', params: '' },
];

describe('novelty among the top results', () => {
  const index = new ToolIndex();
  index.add(tools);
  const query = 'Please validate the email address and check the email is deliverable; also make a QR code.';

  it('places a tool for a second request above more tools for the first', () => {
    const top = index.search(query, 3).hits.map((h) => h.name);
    expect(top[0]).toBe('mailcheck__validate_email');
    expect(top).toContain('qrmaker__make');
  });

  it('keeps scores descending', () => {
    const scores = index.search(query, 6).hits.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });
});
