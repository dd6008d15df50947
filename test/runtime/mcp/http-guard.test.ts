// Who may reach the HTTP gateway (Host, Origin): pure decisions.
import { describe, expect, it } from 'vitest';
import { allowedHostnames, checkRequestHeaders, isLoopback } from '../../../src/runtime/mcp/http-guard.js';

describe('loopback and Host/Origin checks', () => {
  it('a loopback name is exact: 127.0.0.1.<anything> is a DNS name anyone can point anywhere', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', 'LOCALHOST']) expect(isLoopback(host)).toBe(true);
    for (const host of ['127.0.0.1.evil.example', '127.evil.example', 'localhost.evil.example', '0.0.0.0', '10.0.0.1', '::'])
      expect(isLoopback(host)).toBe(false);
  });

  it('a loopback gateway answers only to loopback Host names and loopback browser origins', () => {
    const hosts = allowedHostnames('127.0.0.1');
    const check = (host: string | undefined, origin?: string) => checkRequestHeaders({ host, origin, hosts, checkOrigin: true }).ok;
    expect(check('127.0.0.1:8123')).toBe(true);
    expect(check('localhost:8123', 'http://localhost:5173')).toBe(true);
    expect(check('[::1]:8123', 'http://[::1]')).toBe(true);
    // DNS rebinding: the page's own name arrives as Host although the address is loopback.
    expect(check('evil.example:8123')).toBe(false);
    expect(check('127.0.0.1.evil.example:8123')).toBe(false);
    expect(check(undefined)).toBe(false);
    expect(check('127.0.0.1:8123', 'http://127.0.0.1.evil.example')).toBe(false);
    expect(check('127.0.0.1:8123', 'https://evil.example')).toBe(false);
    expect(check('127.0.0.1:8123', 'null')).toBe(false);
    const verdict = checkRequestHeaders({ host: 'evil.example', origin: undefined, hosts, checkOrigin: true });
    expect(verdict).toMatchObject({ ok: false, status: 403 });
    expect(verdict.ok ? '' : verdict.message).toContain('localhost');
  });

  it('a gateway bound to one address answers to that address and the names configured', () => {
    expect(allowedHostnames('192.168.1.5')).toEqual(['192.168.1.5']);
    expect(allowedHostnames('192.168.1.5', ['box.lan'])).toEqual(['192.168.1.5', 'box.lan']);
    expect(allowedHostnames('::1')).toContain('[::1]');
    // A wildcard bind has no one name: the token is the gate, unless names are configured.
    expect(allowedHostnames('0.0.0.0')).toBeUndefined();
    expect(allowedHostnames('0.0.0.0', ['box.lan'])).toEqual(['box.lan']);
    const hosts = allowedHostnames('192.168.1.5');
    expect(checkRequestHeaders({ host: 'evil.example', origin: undefined, hosts, checkOrigin: false }).ok).toBe(false);
    expect(checkRequestHeaders({ host: '192.168.1.5:80', origin: 'https://any.example', hosts, checkOrigin: false }).ok).toBe(true);
  });
});
