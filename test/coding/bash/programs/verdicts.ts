// The table every program test starts with: commands the analyser proves read-only, and commands
// it must not, each with the reason it has to give.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBashAnalyzer } from '../../../../src/coding/bash/index.js';

export const ro = (cmd: string) => analyzeBash(cmd, { cwd: '/ws/project', roots: ['/ws/project'], contained: true });

export function verdictTable(name: string, readOnly: readonly string[], notReadOnly: ReadonlyArray<readonly [string, RegExp]>): void {
  beforeAll(async () => {
    await loadBashAnalyzer();
  });
  describe(name, () => {
    it.each(readOnly)('read-only: %j', (cmd) => {
      expect(ro(cmd)).toMatchObject({ readOnly: true });
    });
    it.each(notReadOnly)('not read-only: %j', (cmd, why) => {
      const analysis = ro(cmd);
      expect(analysis.readOnly).toBe(false);
      expect(analysis.reason).toMatch(why);
    });
  });
}
