// A program must be exactly as safe as the calls it makes: the safety corpora's rows end the same
// way as direct calls and as inner calls of RunCode programs — run or not, asked or not, the same
// message — contained and not. The development rows whole and fixed samples of the adversarial
// sets here; `npm run bench -- codemode-parity` makes every row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashCalls, compareBothWays, parityWorkspace, pathCalls } from '../../support/codemode-parity.js';
import { readJsonl } from '../../support/data.js';

const adversarial = readJsonl<{ command: string }>('bash-safety', 'adversarial.jsonl').filter((_, i) => i % 10 === 0);
const corpora = [
  ['bash-safety', bashCalls([...readJsonl<{ command: string }>('bash-safety', 'commands-dev.jsonl'), ...adversarial])],
  [
    'path-guard',
    pathCalls([
      ...readJsonl<{ path: string; platform?: string }>('path-guard', 'cases-dev.jsonl'),
      ...readJsonl<{ path: string; platform?: string }>('path-guard', 'adversarial.jsonl').filter((_, i) => i % 4 === 0),
    ]),
  ],
] as const;

let where: Awaited<ReturnType<typeof parityWorkspace>>;

beforeAll(async () => {
  where = await parityWorkspace();
});

afterAll(() => where.dispose());

describe.each([
  ['contained', true],
  ['without containment', false],
])('the safety corpora decided %s: inner calls end as direct calls', (_name, contained) => {
  it.each(corpora)('%s', async (_corpus, calls) => {
    const { differences, ran } = await compareBothWays(where, [...calls], contained);
    expect(differences).toEqual([]);
    // Some rows run and some do not, so the equality is not trivially true.
    expect(ran).toBeGreaterThan(0);
    expect(ran).toBeLessThan(calls.length);
  });
});
