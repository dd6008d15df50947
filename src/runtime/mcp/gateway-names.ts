// The names the gateway's clients see for proxied tools and prompts. By default those of the
// pool (`mcp__<server>__<name>`, what permission rules name). With `upstreamNames`, a proxied
// one keeps its server's own name, so a client written against that server works unchanged
// through the gateway; a name two of them share, or that another name of the list already is,
// keeps the pool's form. Rules, hooks and budgets still see the pool's name. Pure.

export interface NamedEntry {
  /** The name in wield's pool. */
  pool: string;
  /** The server's own name, for a proxied entry. */
  own?: string;
}

export class GatewayNames {
  private readonly shown = new Map<string, string>();
  private readonly byShown = new Map<string, string>();

  constructor(entries: readonly NamedEntry[], upstreamNames: boolean) {
    const poolNames = new Set(entries.map((entry) => entry.pool));
    const claims = new Map<string, number>();
    for (const { own } of entries) if (own !== undefined) claims.set(own, (claims.get(own) ?? 0) + 1);
    for (const { pool, own } of entries) {
      const keepsOwn = upstreamNames && own !== undefined && claims.get(own) === 1 && !poolNames.has(own);
      const name = keepsOwn ? own : pool;
      this.shown.set(pool, name);
      this.byShown.set(name, pool);
    }
  }

  /** What a client sees for a pool name. */
  shownName(pool: string): string {
    return this.shown.get(pool) ?? pool;
  }

  /** The pool name a client's name stands for (a pool name stands for itself). */
  poolName(name: string): string {
    return this.byShown.get(name) ?? name;
  }
}
