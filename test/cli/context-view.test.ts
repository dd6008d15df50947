import { describe, expect, it } from 'vitest';
import { clearedConversationText, clearedNotice, compactedNotice } from '../../src/cli/context-view.js';
import { clearedStub } from '../../src/runtime/context/clearing.js';
import { COMPACTED_HEADER } from '../../src/runtime/context/compaction.js';
import type { Message } from '../../src/runtime/providers/types.js';

const result = (id: string, text: string): Message => ({
  role: 'user',
  content: [{ type: 'tool_result', toolUseId: id, toolName: 'Read', isError: false, content: [{ type: 'text', text }] }],
});

describe('context notices', () => {
  it('names the results a clearing replaced, once each, and where each is saved', () => {
    const known = new Set<string>();
    const first = [result('r1', clearedStub('Read {"file_path":"a.ts"}', '/spill/r1.txt')), result('r2', 'kept')];
    const notice = clearedNotice(first, known, '/log.jsonl');
    expect(notice.line).toMatch(/^◇ context: 1 old tool result cleared to save room \(1 Read\);.* Ctrl-O lists them$/);
    expect(notice.detail.lines).toEqual([
      'Read {"file_path":"a.ts"}\n    saved in /spill/r1.txt',
      '(the session log keeps the whole conversation: /log.jsonl)',
    ]);
    const second = [...first, result('r3', clearedStub('Bash {"command":"ls"}', '/spill/r3.txt'))];
    expect(clearedNotice(second, known, '/log.jsonl').detail.lines).toEqual([
      'Read {"file_path":"a.ts"}\n    saved in /spill/r1.txt',
      'Bash {"command":"ls"}\n    saved in /spill/r3.txt',
      '(the session log keeps the whole conversation: /log.jsonl)',
    ]);
  });

  it('says why a compaction ran, keeps its summary for Ctrl-O, and where the conversation still is', () => {
    const compacted: Message[] = [{ role: 'user', content: [{ type: 'text', text: `${COMPACTED_HEADER}\nSUMMARY` }] }];
    const notice = compactedNotice(12, compacted, '/log.jsonl', 'threshold');
    expect(notice.line).toContain('12 older messages summarised (the context neared its window)');
    expect(notice.line).toContain('/log.jsonl');
    expect(notice.detail.lines).toEqual([COMPACTED_HEADER, 'SUMMARY']);
    expect(clearedConversationText(4, '/log.jsonl')).toContain('4 messages forgotten');
  });
});
