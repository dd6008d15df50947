import { describe, expect, it } from 'vitest';
import { installCommand, uncontainedNotice } from '../../../src/coding/permissions/containment.js';

describe('containment notice', () => {
  it('names the one command that installs bubblewrap with the package manager found', () => {
    expect(installCommand('linux', (p) => p === 'apt-get')).toBe('sudo apt-get install bubblewrap');
    expect(installCommand('linux', (p) => p === 'dnf' || p === 'yum')).toBe('sudo dnf install bubblewrap');
    expect(installCommand('linux', (p) => p === 'pacman')).toBe('sudo pacman -S bubblewrap');
    expect(installCommand('linux', () => false)).toBeUndefined();
    // bubblewrap needs Linux: nothing to install elsewhere.
    expect(installCommand('darwin', () => true)).toBeUndefined();
  });

  it('says that only the audited core runs unasked, and how to fix it', () => {
    const notice = uncontainedNotice({ contained: false, reason: 'bwrap is not on PATH.', install: 'sudo apt-get install bubblewrap' });
    expect(notice).toMatch(/^no sandbox here \(bwrap is not on PATH\)\. Nothing is contained here/);
    expect(notice).toMatch(/audited core .* not git, npm/);
    expect(notice).toContain('Install containment with `sudo apt-get install bubblewrap`.');
    expect(uncontainedNotice({ contained: false, reason: 'user namespaces are off' })).not.toMatch(/Install/);
  });
});
