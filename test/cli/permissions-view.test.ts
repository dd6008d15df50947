import { describe, expect, it } from 'vitest';
import { formatRules, listedRules, readRemove, SESSION_SOURCE } from '../../src/cli/permissions-view.js';
import { parseRule, type Rule } from '../../src/coding/permissions/rules.js';

const rule = (text: string, source: string): Rule => {
  const parsed = parseRule(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return { ...parsed.rule, text, source, base: '/p' };
};

describe('/permissions', () => {
  const permissions = {
    allow: [rule('Bash(make *)', '/p/.wield/settings.local.json')],
    ask: [],
    deny: [rule('WebFetch', 'flags')],
  };

  it('numbers the rules, deny first, with their file', () => {
    const rules = listedRules(permissions);
    expect(rules.map((r) => `${r.list} ${r.text}`)).toEqual(['deny WebFetch', 'allow Bash(make *)']);
    expect(formatRules(rules)).toContain(' 2. allow Bash(make *)  /p/.wield/settings.local.json');
    expect(formatRules([])).toMatch(/^no permission rules/);
  });

  it('reads remove N, refusing numbers out of range and flag rules', () => {
    const rules = listedRules(permissions);
    expect(readRemove('', rules)).toBeUndefined();
    expect(readRemove('remove 2', rules)).toEqual({ ok: true, rule: rules[1] });
    expect(readRemove('remove 3', rules)).toEqual({ ok: false, message: 'no rule 3; /permissions lists 1–2' });
    expect(readRemove('remove 1', rules)).toMatchObject({ ok: false, message: expect.stringContaining('command-line flag') });
    expect(readRemove('drop it', rules)).toMatchObject({ ok: false });
  });

  it("lists the session's own rules after the settings", () => {
    const rules = listedRules(permissions, [rule('Bash(npm test)', 'this session')]);
    expect(rules.at(-1)).toEqual({ list: 'allow', text: 'Bash(npm test)', source: SESSION_SOURCE });
    expect(formatRules(rules)).toContain(' 3. allow Bash(npm test)  this session');
    expect(readRemove('remove 3', rules)).toEqual({ ok: true, rule: rules[2] });
  });
});
