// The view of the machine for commands nobody approved, as a pure function of facts: what is
// mounted, in which order, and what is never shown (homes, wield's folder, other projects).
import { describe, expect, it } from 'vitest';
import { buildBwrapArgs, type SandboxPlan } from '../../../src/coding/sandbox/argv.js';
import { computeView, etcMasks, withoutSecrets, type Mount, type ViewFacts } from '../../../src/coding/sandbox/view.js';

const facts = (over: Partial<ViewFacts> = {}): ViewFacts => ({
  system: [{ path: '/usr' }, { path: '/bin', link: 'usr/bin' }, { path: '/etc' }],
  pathDirs: [],
  homes: ['/home/u'],
  wieldDirs: ['/home/u/.wield'],
  harmless: [],
  roots: ['/home/u/proj'],
  rootGitDirs: [],
  ...over,
});

const dests = (mounts: Mount[]): string[] => mounts.map((m) => `${m.kind} ${m.dest}`);
const shown = (mounts: Mount[]): string[] => mounts.filter((m) => m.kind === 'ro-bind' || m.kind === 'bind').map((m) => m.dest);

describe('computeView', () => {
  it('shows the system folders (links as links), devices, processes, a private /tmp; the home is an empty folder', () => {
    const view = computeView(facts());
    expect(dests(view.mounts)).toEqual([
      'ro-bind /usr',
      'symlink /bin',
      'ro-bind /etc',
      'dev /dev',
      'proc /proc',
      'tmpfs /tmp',
      'tmpfs /home/u',
      'ro-bind /home/u/proj',
    ]);
    expect(view.mounts[1]).toEqual({ kind: 'symlink', target: 'usr/bin', dest: '/bin' });
    expect(view.env).toEqual({ HOME: '/home/u' });
    expect(view.deniedDirs).toEqual([]);
  });

  it('a workspace under /tmp or the home is mounted after the empty folders that cover them', () => {
    const view = computeView(facts({ roots: ['/tmp/w', '/home/u/proj'] }));
    const order = dests(view.mounts);
    expect(order.indexOf('ro-bind /tmp/w')).toBeGreaterThan(order.indexOf('tmpfs /tmp'));
    expect(order.indexOf('ro-bind /home/u/proj')).toBeGreaterThan(order.indexOf('tmpfs /home/u'));
  });

  it('of the home, only the audited harmless files, read-only', () => {
    const harmless = [{ src: '/home/u/dotfiles/ignore', dest: '/home/u/.config/git/ignore' }];
    const view = computeView(facts({ harmless }));
    expect(view.mounts).toContainEqual({ kind: 'ro-bind', src: '/home/u/dotfiles/ignore', dest: '/home/u/.config/git/ignore' });
    expect(shown(view.mounts).filter((d) => d.startsWith('/home/u') && d !== '/home/u/proj')).toEqual(['/home/u/.config/git/ignore']);
  });

  it('PATH folders: outside the home with their lib; inside it unless they name a credential or wield; never a folder holding a home or project', () => {
    const view = computeView(
      facts({
        pathDirs: [
          { real: '/opt/node/bin', lib: '/opt/node/lib' },
          { real: '/usr/local/bin', lib: '/usr/local/lib' },
          { real: '/home/u/.nvm/versions/node/v20/bin', lib: '/home/u/.nvm/versions/node/v20/lib' },
          { real: '/home/u/.ssh/bin' },
          { real: '/home/u/.config/gh/bin' },
          { real: '/home/u/.wield/bin' },
          { real: '/home/u' },
          { real: '/home' },
          { real: '/' },
          { real: '/home/u/proj/node_modules/.bin' },
        ],
      }),
    );
    expect(shown(view.mounts)).toEqual([
      '/usr',
      '/etc',
      '/opt/node/bin',
      '/opt/node/lib',
      '/home/u/.nvm/versions/node/v20/bin',
      '/home/u/.nvm/versions/node/v20/lib',
      '/home/u/proj',
    ]);
  });

  it('a workspace holding the home keeps it (it is the workspace) but masks wield’s folder', () => {
    const view = computeView(facts({ roots: ['/home/u'] }));
    expect(dests(view.mounts)).not.toContain('tmpfs /home/u');
    expect(view.deniedDirs).toEqual(['/home/u/.wield']);
    expect(view.env.HOME).toBe('/home/u');
  });

  it("a root's own git folder outside it (linked worktree) is shown read-only; one inside is not mounted twice", () => {
    const view = computeView(facts({ rootGitDirs: ['/srv/main/.git/worktrees/proj', '/srv/main/.git', '/home/u/proj/.git'] }));
    expect(shown(view.mounts).slice(-3)).toEqual(['/home/u/proj', '/srv/main/.git/worktrees/proj', '/srv/main/.git']);
    expect(view.mounts.filter((m) => m.kind === 'bind')).toEqual([]);
  });

  it("git's identity from the user's config is set, since ~/.gitconfig is not shown", () => {
    const view = computeView(facts({ gitIdentity: { name: 'Ada', email: 'ada@example.org' } }));
    expect(view.env).toEqual({
      HOME: '/home/u',
      GIT_AUTHOR_NAME: 'Ada',
      GIT_COMMITTER_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'ada@example.org',
      GIT_COMMITTER_EMAIL: 'ada@example.org',
    });
  });

  it("this session's own folder (spilled outputs) is shown read-only", () => {
    const view = computeView(facts({ sessionDir: '/home/u/.wield/sessions/s1' }));
    expect(view.mounts.at(-1)).toEqual({ kind: 'ro-bind', src: '/home/u/.wield/sessions/s1', dest: '/home/u/.wield/sessions/s1' });
  });
});

describe('etcMasks', () => {
  it('masks the /etc secrets this user can open, and spares a mount for each it cannot', () => {
    const present = ['/etc/shadow', '/etc/sudoers', '/etc/ssl/private', '/etc/ssh/ssh_host_ed25519_key'];
    // Root opens them all: all masked.
    expect(etcMasks(present, () => true)).toEqual(present);
    // A normal user: shadow and the host key are closed; a world-readable sudoers is not.
    expect(etcMasks(present, (p) => p === '/etc/sudoers')).toEqual(['/etc/sudoers']);
  });
});

describe('buildBwrapArgs with a view', () => {
  const plan: SandboxPlan = {
    cwd: '/home/u/proj',
    supportDir: '/s',
    tmpDir: '/s/tmp',
    writable: ['/home/u/proj'],
    readOnly: ['/home/u/proj/.git/hooks'],
    emptyReadOnlyDirs: [],
    deniedDirs: [],
    deniedFiles: ['/home/u/proj/.env'],
    deniedFileSource: '/s/denied',
    view: computeView(facts()).mounts,
    env: { HOME: '/home/u' },
  };

  it('replaces the read-only root; writable folders, protections and masks come after it', () => {
    const args = buildBwrapArgs(plan, ['true']);
    expect(args.slice(0, 3)).toEqual(['--ro-bind', '/usr', '/usr']);
    expect(args.join(' ')).not.toContain('--ro-bind / /');
    const at = (s: string): number => args.join(' ').indexOf(s);
    expect(at('--ro-bind /home/u/proj /home/u/proj')).toBeLessThan(at('--bind /home/u/proj /home/u/proj'));
    expect(at('--bind /home/u/proj /home/u/proj')).toBeLessThan(at('--ro-bind /home/u/proj/.git/hooks'));
    expect(at('--ro-bind /home/u/proj/.git/hooks')).toBeLessThan(at('--ro-bind /s/denied /home/u/proj/.env'));
    expect(args.join(' ')).toContain('--setenv HOME /home/u');
    expect(args.join(' ')).toContain('--unsetenv XDG_CONFIG_HOME');
  });

  it("mounts the support folder read-only again only where the view's last mount over it is not read-only", () => {
    const session: Mount = { kind: 'ro-bind', src: '/s', dest: '/s' };
    const again = (p: SandboxPlan): boolean => buildBwrapArgs(p, ['true']).join(' ').includes('--ro-bind /s/sandbox /s/sandbox');
    const contained = { ...plan, supportDir: '/s/sandbox', tmpDir: '/s/sandbox/tmp', writable: [] };
    const view = plan.view ?? [];
    // The session folder is mounted read-only last: the support folder in it is read-only already.
    expect(again({ ...contained, view: [...view, session] })).toBe(false);
    // A writable folder over it, or a writable mount after the read-only one: mounted again.
    expect(again({ ...contained, view: [...view, session], writable: ['/s'] })).toBe(true);
    expect(again({ ...contained, view: [...view, session, { kind: 'tmpfs', dest: '/s' }] })).toBe(true);
    // Not in the view at all (or no view): mounted.
    expect(again(contained)).toBe(true);
    expect(again({ ...contained, view: undefined })).toBe(true);
  });
});

describe('the environment of a contained command', () => {
  it('leaves out variables named or valued like credentials, and keeps the rest', () => {
    const env = withoutSecrets({
      PATH: '/usr/bin',
      HOME: '/home/u',
      LANG: 'C.UTF-8',
      ANTHROPIC_API_KEY: 'sk-ant-x',
      GITHUB_TOKEN: 'ghp_x',
      DATABASE_URL: 'postgres://localhost/db',
      SERVICE_ENDPOINT: 'postgres://app:hunter2@db.example/app',
      CI_JOB: 'glpat-abcdefghijklmnopqrstu',
    });
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/home/u', LANG: 'C.UTF-8' });
  });
});
