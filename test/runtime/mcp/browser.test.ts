// Opening a server-chosen address: BROWSER gets it as one argument, Windows without cmd's parsing
// (cmd would run `&calc` in `https://x/?a&calc`), and what opens is the parsed, encoded address.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { browserCommand, openInBrowser } from '../../../src/runtime/mcp/oauth-callback.js';
import { tempDir } from './helpers.js';

describe('opening a page', () => {
  it('uses no shell on Windows, the platform opener elsewhere, BROWSER when set', () => {
    expect(browserCommand({}, 'win32')).toEqual({ command: 'rundll32', args: ['url.dll,FileProtocolHandler'], shell: false });
    expect(browserCommand({}, 'darwin').command).toBe('open');
    expect(browserCommand({}, 'linux').command).toBe('xdg-open');
    expect(browserCommand({ BROWSER: 'my-browser --new' }, 'linux')).toEqual({ command: 'my-browser --new', args: [], shell: true });
  });

  it('hands BROWSER the parsed address as one argument, shell characters and all', async () => {
    const dir = tempDir('browser');
    const log = path.join(dir, 'opened.txt');
    const script = path.join(dir, 'browser.sh');
    writeFileSync(script, `#!/bin/sh\nprintf '%s|%s\\n' "$#" "$1" >> '${log}'\n`);
    chmodSync(script, 0o755);
    await openInBrowser('https://x.test/a b?q=1&touch=/tmp/pwned;$(id)', { BROWSER: script });
    for (let tries = 0; tries < 100; tries++) {
      try {
        if (readFileSync(log, 'utf8').includes('\n')) break;
      } catch {
        // not written yet
      }
      await sleep(20);
    }
    expect(readFileSync(log, 'utf8')).toBe('1|https://x.test/a%20b?q=1&touch=/tmp/pwned;$(id)\n');
  });
});
