// The browser half of the OAuth authorization-code flow: a one-shot listener on 127.0.0.1 for
// the redirect, and opening the authorization URL with the command in BROWSER, or the system's
// opener (xdg-open, open, start). Tests and CI set BROWSER to a script that follows the URL.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CALLBACK_PATH = '/oauth/callback';

export interface CallbackListener {
  port: number;
  redirectUrl: string;
  /** Resolves with the redirect's query parameters (code, state, iss, or error). */
  params: Promise<URLSearchParams>;
  /** Releases the port; a wait for the redirect still pending then fails instead of hanging. */
  close(): void;
}

/** Listens on the given port (0: any free one); a port in use falls back to a free one. */
export async function listenForCallback(port: number, timeoutMs: number): Promise<CallbackListener> {
  let settle: (params: URLSearchParams) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const params = new Promise<URLSearchParams>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== CALLBACK_PATH) {
      res.writeHead(404).end();
      return;
    }
    const error = url.searchParams.get('error');
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(error ? `Authorization failed (${error}); you can close this tab.` : 'wield is authorized; you can close this tab.');
    settle(url.searchParams);
  });
  const listen = (p: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, '127.0.0.1', () => resolve());
    });
  await listen(port).catch(() => listen(0));
  const actual = (server.address() as AddressInfo).port;
  const timer = setTimeout(
    () => fail(new Error(`no authorization arrived within ${Math.round(timeoutMs / 1000)} s (was the browser window closed?)`)),
    timeoutMs,
  );
  timer.unref();
  const close = () => {
    clearTimeout(timer);
    server.close();
    server.closeAllConnections();
    fail(new Error('the authorization was abandoned'));
  };
  void params.finally(close).catch(() => undefined);
  return { port: actual, redirectUrl: `http://127.0.0.1:${actual}${CALLBACK_PATH}`, params, close };
}

/** The command that opens a URL: BROWSER when set (as `$BROWSER <url>`), else the platform's. */
export function browserCommand(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): { command: string; args: string[]; shell: boolean } {
  const browser = env.BROWSER?.trim();
  if (browser) return { command: browser, args: [], shell: true };
  if (platform === 'darwin') return { command: 'open', args: [], shell: false };
  // Not `cmd /c start`: cmd would read `&` or `|` in a server-chosen URL as its own syntax.
  if (platform === 'win32') return { command: 'rundll32', args: ['url.dll,FileProtocolHandler'], shell: false };
  return { command: 'xdg-open', args: [], shell: false };
}

/** Opens the URL; a missing opener is reported by the caller, which also prints the URL. */
export function openInBrowser(given: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  // The parsed form: what opens is the address shown, with its characters percent-encoded.
  const url = new URL(given).href;
  const { command, args, shell } = browserCommand(env, process.platform);
  return new Promise((resolve, reject) => {
    // With a shell, the URL is passed as "$1" so no character in it is interpreted.
    const child = shell
      ? spawn('/bin/sh', ['-c', `${command} "$1"`, 'browser', url], { stdio: 'ignore', detached: true })
      : spawn(command, [...args, url], { stdio: 'ignore', detached: true });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
