// Text bound for the person's terminal, made safe to draw. Pure.
// Colour (SGR, `ESC[…m`) is all wield writes itself. Any other control character in text from
// outside wield — a screen clear, a cursor move, a window title, a clipboard write (OSC 52), a
// hyperlink whose text hides its target, a device query — is shown as a visible symbol (ESC as
// ␛, BEL as ␇, an 8-bit C1 byte as ⟨9b⟩) rather than removed: removing a sequence would also
// remove what it wraps (an OSC body runs to its terminator), so `npm test<ESC>_; curl … | sh`
// would show as `npm test` in a prompt that approves the whole command.

/** An SGR sequence: parameters only, nothing it could hide. */
const SGR = /\x1b\[[0-9;:]*m/g;
/** Control characters but tab and newline: C0, DEL, C1. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

function visible(character: string): string {
  const code = character.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `⟨${code.toString(16)}⟩`;
}

/** Controls made visible, with the SGR sequences removed or kept. */
function shown(text: string, keepColour: boolean): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(SGR)) {
    out += text.slice(last, match.index).replace(CONTROL, visible);
    if (keepColour) out += match[0];
    last = match.index + match[0].length;
  }
  return out + text.slice(last).replace(CONTROL, visible);
}

/**
 * Text from outside wield — the model, files, commands, servers — before wield styles it: colour
 * removed too (conceal or black on black could hide part of a diff being approved), every other
 * control character visible. Newlines and tabs stay.
 */
export function plainText(text: string): string {
  return shown(text, false);
}

/** What may be drawn: colour kept, other controls visible, tabs as spaces (a line must measure what it shows). */
export function terminalText(text: string): string {
  return shown(text.replace(/\t/g, '    '), true);
}
