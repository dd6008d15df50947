import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { explainSandboxFailure } from '../../../src/coding/sandbox/explain.js';

describe('explainSandboxFailure', () => {
  it.each([
    ['sh: 1: cannot create /etc/x: Read-only file system', /write outside the writable folders/],
    ["Error: EROFS: read-only file system, open '/usr/lib/x'", /write outside/],
    ['cat: /home/u/.ssh/id_rsa: Permission denied', /hidden secret/],
    ['curl: (6) Could not resolve host: example.com', /network is off/],
    ['connect: Network is unreachable', /network is off/],
    ['Error: getaddrinfo EAI_AGAIN registry.npmjs.org', /network is off/],
    ['curl: (7) Failed to connect to 127.0.0.1 port 3000: Connection refused', /private loopback/],
    // What the review saw: curl 7.88 without the proxy, and curl -f hiding the proxy's 403 body.
    ["curl: (7) Failed to connect to 127.0.0.1 port 8765 after 0 ms: Couldn't connect to server", /private loopback.*--noproxy/],
    ['curl: (22) The requested URL returned error: 403', /proxy.*allowedHosts/],
    ['curl: (56) CONNECT tunnel failed, response 403', /proxy.*allowedHosts/],
    ["fatal: unable to access 'https://example.com/x.git/': CONNECT tunnel failed, response 403", /proxy.*allowedHosts/],
    ['urllib.error.HTTPError: HTTP Error 403: Forbidden', /proxy.*allowedHosts/],
    ['ERROR 403: Forbidden.', /proxy.*allowedHosts/],
    ['npm error code E403', /proxy.*allowedHosts/],
    ['dial tcp 127.0.0.1:8765: connect: connection refused', /private loopback/],
    ['urllib3.exceptions.NewConnectionError: Failed to establish a new connection: [Errno 111] Connection refused', /private loopback/],
    ['Error: connect EPERM /var/run/docker.sock', /Unix sockets/],
    ["bwrap: Can't chdir to /gone: No such file or directory", /could not start/],
  ])('explains %j', (output, what) => {
    const note = explainSandboxFailure(output, 1);
    expect(note).toMatch(what);
    expect(note).toContain('"sandbox": false');
    expect(note).toMatch(/permission decision/);
  });

  it('in the view, a missing file or program outside the workspace is named; sandboxed, it is the command’s own matter', () => {
    const output = 'cat: /home/u/notes.txt: No such file or directory';
    for (const profile of ['contained', 'confined'] as const) {
      expect(explainSandboxFailure(output, 1, profile)).toMatch(
        /no home folder[\s\S]*outside the workspace, the system folders and PATH was not found/,
      );
    }
    expect(explainSandboxFailure('bash: cargo: command not found', 127, 'contained')).toMatch(/not found/);
    expect(explainSandboxFailure(output, 1, 'sandboxed')).toBeUndefined();
    expect(explainSandboxFailure(output, 1, 'guarded')).toBeUndefined();
  });

  it('names every cause it sees', () => {
    const note = explainSandboxFailure('x: Read-only file system\ny: Could not resolve host: a.b', 2);
    expect(note).toMatch(/write outside/);
    expect(note).toMatch(/network is off/);
  });

  it('says nothing about failures that do not look like the sandbox', () => {
    expect(explainSandboxFailure('error TS2322: Type string is not assignable', 2)).toBeUndefined();
    expect(explainSandboxFailure('expected 403 to equal 200\n  at line 403', 1)).toBeUndefined();
    expect(explainSandboxFailure('', 127)).toBeUndefined();
  });

  it('never speaks up for a successful command, whatever it printed', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(explainSandboxFailure(`${text}\nRead-only file system\nPermission denied`, 0)).toBeUndefined();
      }),
    );
  });

  it('speaks up exactly when a sign is present, wherever it is in the output', () => {
    const noise = fc.stringMatching(/^[xyz0-9 .,\n]{0,80}$/);
    const sign = fc.constantFrom(
      'Read-only file system',
      'Permission denied',
      'Network is unreachable',
      'Connection refused',
      'Operation not permitted',
      "Couldn't connect to server",
      'The requested URL returned error: 403',
    );
    fc.assert(
      fc.property(noise, noise, fc.option(sign), fc.integer({ min: 1, max: 255 }), (before, after, s, code) => {
        const note = explainSandboxFailure(`${before}${s ?? ''}${after}`, code);
        expect(note !== undefined).toBe(s !== null);
      }),
    );
  });
});
