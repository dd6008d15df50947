import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatRule, matchDomainRule, matchPathRule, parseRule, toolNameMatches } from '../../../src/coding/permissions/rules.js';
import { bashRuleFor } from '../../../src/coding/permissions/suggest.js';
import { loadBashAnalyzer, matchBashRule } from '../../../src/coding/bash/index.js';

beforeAll(async () => {
  await loadBashAnalyzer();
});

describe('parseRule', () => {
  it.each([
    ['Bash', { tool: 'Bash' }],
    ['Bash(git log *)', { tool: 'Bash', content: 'git log *' }],
    ['Read(src/**)', { tool: 'Read', content: 'src/**' }],
    ['WebFetch(domain:example.com)', { tool: 'WebFetch', content: 'domain:example.com' }],
    ['mcp__github', { tool: 'mcp__github' }],
    ['mcp__github__create_issue', { tool: 'mcp__github__create_issue' }],
    ['mcp__github__*', { tool: 'mcp__github__*' }],
    ['Bash(echo $(date))', { tool: 'Bash', content: 'echo $(date)' }],
    ['Bash(echo \\) x)', { tool: 'Bash', content: 'echo ) x' }],
    ['Bash(a \\\\ b)', { tool: 'Bash', content: 'a \\ b' }],
  ])('parses %s', (text, rule) => {
    expect(parseRule(text)).toEqual({ ok: true, rule });
  });

  it.each([
    ['', 'tool name'],
    ['Bash(', 'missing closing'],
    ['Bash(ls) extra', 'text after'],
    ['Bash()', 'empty content'],
    ['Ba sh', 'tool name'],
    ['*', 'tool name'],
    ['Bash(*', 'missing closing'],
  ])('rejects %j with a message naming the problem', (text, words) => {
    const r = parseRule(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(words);
  });

  it('formatRule and parseRule round-trip any content', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('Bash', 'Read', 'mcp__s__t'),
        fc.string({ minLength: 1 }).filter((s) => s.trim() !== ''),
        (tool, content) => {
          expect(parseRule(formatRule(tool, content))).toEqual({ ok: true, rule: { tool, content } });
        },
      ),
    );
  });
});

describe('toolNameMatches', () => {
  const mcp = { name: 'mcp__github__create_issue', aliases: [], source: 'mcp', server: 'github' };
  it('matches names, aliases and MCP servers', () => {
    expect(toolNameMatches('Bash', { name: 'Bash', aliases: [] })).toBe(true);
    expect(toolNameMatches('Shell', { name: 'Bash', aliases: ['Shell'] })).toBe(true);
    expect(toolNameMatches('mcp__github', mcp)).toBe(true);
    expect(toolNameMatches('mcp__github__*', mcp)).toBe(true);
    expect(toolNameMatches('mcp__github__create_issue', mcp)).toBe(true);
    expect(toolNameMatches('mcp__github__delete_repo', mcp)).toBe(false);
    expect(toolNameMatches('mcp__git', mcp)).toBe(false);
    expect(toolNameMatches('Read', { name: 'Bash', aliases: [] })).toBe(false);
  });

  it('an Edit rule covers the built-ins that edit files, a Read rule those that read them; not MCP look-alikes', () => {
    const builtin = (name: string) => ({ name, aliases: [], source: 'builtin' });
    expect(toolNameMatches('Edit', builtin('Write'))).toBe(true);
    expect(toolNameMatches('Write', builtin('Edit'))).toBe(true);
    for (const name of ['Read', 'Grep', 'Glob', 'LS']) expect(toolNameMatches('Read', builtin(name))).toBe(true);
    expect(toolNameMatches('Edit', builtin('Bash'))).toBe(false);
    expect(toolNameMatches('Read', builtin('WebFetch'))).toBe(false);
    expect(toolNameMatches('Edit', { name: 'Write', aliases: [], source: 'mcp', server: 'x' })).toBe(false);
  });
});

describe('matchPathRule', () => {
  const ctx = { base: '/ws', home: '/home/u' };
  it.each([
    ['.env', '/ws/.env', true],
    ['.env', '/ws/app/.env', true],
    ['.env', '/ws/.env.example', false],
    ['*.pem', '/ws/keys/a.pem', true],
    ['/src/**/*.ts', '/ws/src/a/b.ts', true],
    ['/src/**/*.ts', '/other/src/a/b.ts', false],
    ['src/*.ts', '/ws/src/a.ts', true],
    ['src/*.ts', '/ws/src/a/b.ts', false],
    ['./docs', '/ws/docs/x.md', true],
    ['secrets/', '/ws/secrets/x', true],
    ['//etc/passwd', '/etc/passwd', true],
    ['//etc/**', '/ws/etc/x', false],
    ['~/.aws/**', '/home/u/.aws/credentials', true],
    ['~/.aws/**', '/ws/.aws/credentials', false],
    ['build', '/ws/build/out/x.js', true],
    ['/build', '/ws/src/build/x.js', false],
  ])('%s vs %s → %s', (pattern, p, want) => {
    expect(matchPathRule(pattern, p, ctx)).toBe(want);
  });

  it('an anchored pattern never matches outside its base folder', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,8}$/), fc.stringMatching(/^[a-z]{1,8}$/), (dir, file) => {
        expect(matchPathRule(`/${dir}/**`, `/elsewhere/${dir}/${file}`, ctx)).toBe(false);
        expect(matchPathRule(`/${dir}/**`, `/ws/${dir}/${file}`, ctx)).toBe(true);
      }),
    );
  });
});

describe('matchDomainRule', () => {
  it('matches exact hosts, and with *. the host and its subdomains', () => {
    expect(matchDomainRule('domain:example.com', 'https://example.com/x')).toBe(true);
    expect(matchDomainRule('domain:example.com', 'https://EXAMPLE.com./x')).toBe(true);
    expect(matchDomainRule('domain:example.com', 'https://api.example.com/x')).toBe(false);
    expect(matchDomainRule('domain:*.example.com', 'https://api.example.com/x')).toBe(true);
    expect(matchDomainRule('domain:*.example.com', 'https://example.com/x')).toBe(true);
    expect(matchDomainRule('domain:*.example.com', 'https://evilexample.com/x')).toBe(false);
    expect(matchDomainRule('example.com', 'https://example.com/x')).toBe(false);
    expect(matchDomainRule('domain:example.com', 'not a url')).toBe(false);
  });

  it('a subdomain rule never matches a host that merely ends with the same letters', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,10}$/), fc.stringMatching(/^[a-z]{1,10}$/), (prefix, name) => {
        expect(matchDomainRule(`domain:*.${name}.com`, `https://${prefix}${name}.com/`)).toBe(false);
        expect(matchDomainRule(`domain:*.${name}.com`, `https://${prefix}.${name}.com/`)).toBe(true);
      }),
    );
  });
});

describe('bash "always allow" suggestions', () => {
  it('always match the command they were offered for', () => {
    for (const command of [
      'git push origin main',
      'echo hi > out.txt',
      'npm run build -- --watch',
      'make test 2>&1',
      'cargo build --release',
    ]) {
      const rule = bashRuleFor(command) as string;
      const content = /^Bash\((.*)\)$/.exec(rule)?.[1] as string;
      expect(matchBashRule(content, command), `${rule} for ${command}`).toBe(true);
    }
    expect(bashRuleFor('git push origin main')).toBe('Bash(git push *)');
    expect(bashRuleFor('echo hi > out.txt')).toBe('Bash(echo hi > out.txt)');
  });
});
