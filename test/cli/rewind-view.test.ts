import { describe, expect, it } from 'vitest';
import type { RewindPlan } from '../../src/runtime/agent/rewind.js';
import {
  answerOf,
  CANCEL,
  doneText,
  pickedPrompt,
  previewText,
  promptChoices,
  scopeChoices,
  shownPrompts,
} from '../../src/cli/rewind-view.js';

const prompts = [
  { index: 0, at: 1, text: 'first prompt' },
  { index: 1, at: 5, text: 'second\nprompt on two lines' },
];

describe('/rewind view', () => {
  it('lists the prompts most recent first, numbered, with Esc as cancel', () => {
    const shown = shownPrompts(prompts);
    expect(promptChoices(shown)).toEqual([
      { answer: '1', label: 'before “second prompt on two lines”' },
      { answer: '2', label: 'before “first prompt”' },
      { answer: CANCEL, label: 'Cancel (Esc)', escape: true },
    ]);
    expect(pickedPrompt(shown, ' 2 ')).toBe(prompts[0]);
    expect(pickedPrompt(shown, '3')).toBeUndefined();
    expect(pickedPrompt(shown, CANCEL)).toBeUndefined();
    // Typed and sent with Enter rather than keyed: the same choice.
    expect(answerOf(scopeChoices({ prompt: prompts[0], files: [], cannot: [], messages: [] }), ' 2\n')).toBe(CANCEL);
    expect(answerOf(promptChoices(shown), 'words')).toBe('words');
  });

  it('previews files to restore and delete, outside edits and what cannot be restored', () => {
    const plan: RewindPlan = {
      prompt: prompts[0],
      files: [
        { path: 'a.ts', content: Buffer.from('x\n'), added: 1, removed: 2, changedOutside: false },
        { path: 'new.txt', added: 0, removed: 3, changedOutside: true },
        { path: 'logo.png', content: Buffer.from([0, 1]), changedOutside: false },
      ],
      cannot: ['what these calls since then wrote is not undone (the log keeps no copy of it): Bash(make)'],
      messages: [],
    };
    expect(previewText(plan)).toBe(
      [
        'Rewind to before “first prompt”:',
        '  restore a.ts (+1 -2)',
        '  delete  new.txt (+0 -3) — changed since wield last wrote it (outside wield or by a command)',
        '  restore logo.png (not text)',
        'Cannot restore:',
        '  - what these calls since then wrote is not undone (the log keeps no copy of it): Bash(make)',
      ].join('\n'),
    );
    expect(scopeChoices(plan).map((choice) => choice.answer)).toEqual(['both', 'code', 'conversation', CANCEL]);
  });

  it('offers only the conversation when no file needs restoring', () => {
    const plan: RewindPlan = { prompt: prompts[1], files: [], cannot: [], messages: [] };
    expect(previewText(plan)).toContain('no file to restore');
    expect(scopeChoices(plan).map((choice) => choice.answer)).toEqual(['conversation', CANCEL]);
  });

  it('says what was done, failures included', () => {
    expect(doneText(1, 0, [], false)).toBe('rewound: restored 1 file, deleted 0');
    expect(doneText(0, 0, [], false)).toBe('rewind: no file left to restore; nothing changed');
    expect(doneText(0, 0, [], true)).toBe('rewound: the conversation continues from before that prompt (its text is back in the editor)');
    expect(doneText(2, 1, ['a.ts: EACCES'], true)).toBe(
      'rewound: restored 2 files, deleted 1; the conversation continues from before that prompt (its text is back in the editor)\n  error: a.ts: EACCES',
    );
  });
});
