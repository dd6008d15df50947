// Text bound for the person's terminal, made safe to draw. Pure.
/**
 * Colour (SGR, `ESC[…m`) is all wield writes itself; every other escape sequence — screen clears,
 * cursor moves, titles, clipboard writes (OSC 52), hyperlinks whose text hides the target, device
 * queries — would come from text a model, a tool or a server chose, and goes, with the other
 * control characters (8-bit C1 ones too). A sequence cut between two writes leaves plain text.
 */
const CONTROLS =
  /(\x1b\[[0-9;:]*m)|\x1b\[[0-?]*[ -/]*[@-~]?|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[ -/]*[0-~]?|[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * Text from outside wield — the model, files, commands, servers — as plain characters: every
 * control sequence goes, colour too (an SGR code could hide part of a diff from the person
 * approving it: conceal, black on black), so the only styling on screen is wield's own.
 * Newlines and tabs stay.
 */
export function plainText(text: string): string {
  return text.replace(CONTROLS, '');
}

/** What may be drawn: colour kept, other controls gone, tabs as spaces (a line must measure what it shows). */
export function terminalText(text: string): string {
  return text.replace(/\t/g, '    ').replace(CONTROLS, (_sequence, colour: string | undefined) => colour ?? '');
}
