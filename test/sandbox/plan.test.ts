// Planning looks at the file system only; no bubblewrap needed.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planSandbox, type PlanInput } from '../../src/sandbox/plan.js';
import { DEFAULT_DENY_READ } from '../../src/sandbox/settings.js';
import { makeFixture, type Fixture } from './helpers.js';

describe('planSandbox', () => {
  let f: Fixture;
  let input: PlanInput;
  beforeAll(() => {
    f = makeFixture();
    mkdirSync(path.join(f.ws, 'node_modules', 'pkg'), { recursive: true });
    writeFileSync(path.join(f.ws, 'node_modules', 'pkg', '.env'), 'x');
    mkdirSync(path.join(f.ws, 'config.env.d'));
    writeFileSync(path.join(f.ws, '.env.production'), 'x');
    const support = path.join(f.base, 'support');
    input = {
      roots: [f.ws, path.join(f.base, 'gone')],
      writableRoots: [f.outside],
      denyRead: [...DEFAULT_DENY_READ],
      cwd: f.ws,
      supportDir: support,
      tmpDir: path.join(support, 'tmp'),
      deniedFileSource: path.join(support, 'denied'),
      home: f.home,
    };
  });
  afterAll(() => rmSync(f.base, { recursive: true, force: true }));

  it('makes existing roots and the repository folder writable, skipping roots that do not exist', async () => {
    const { plan } = await planSandbox(input);
    expect(plan.writable).toEqual([f.ws, f.outside, path.join(f.ws, '.git')]);
  });

  it('protects existing paths, mounts empty folders for missing ones, and reports missing files', async () => {
    const { plan, unprotected } = await planSandbox(input);
    expect(plan.readOnly).toEqual([path.join(f.ws, '.git', 'hooks'), path.join(f.ws, '.git', 'config')]);
    expect(plan.emptyReadOnlyDirs).toEqual([path.join(f.ws, '.wield')]);
    expect(unprotected).toEqual([path.join(f.ws, '.mcp.json')]);
  });

  it('hides home secrets and .env files but not templates, dependencies or folders named like them', async () => {
    const { plan } = await planSandbox(input);
    expect(plan.deniedDirs).toEqual([path.join(f.home, '.ssh')]);
    expect([...plan.deniedFiles].sort()).toEqual(
      [
        path.join(f.home, '.netrc'),
        path.join(f.ws, '.env'),
        path.join(f.ws, '.env.production'),
        path.join(f.ws, 'sub', '.env.local'),
      ].sort(),
    );
  });
});
