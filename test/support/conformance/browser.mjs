// A stand-in browser for OAuth tests (set as BROWSER): follows the authorization URL's redirects
// as a browser would when the user approves, until it reaches wield's local callback.
const MAX_HOPS = 10;
let url = process.argv[2];
for (let hop = 0; hop < MAX_HOPS && url; hop++) {
  const response = await fetch(url, { redirect: 'manual' });
  await response.arrayBuffer();
  const next = response.headers.get('location');
  url = next ? new URL(next, url).toString() : undefined;
}
