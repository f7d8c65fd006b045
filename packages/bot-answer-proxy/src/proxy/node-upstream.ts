import { Pool } from 'undici';
import type { UpstreamClient } from './upstream-client.js';

/** An upstream client with keep-alive pools; `close` ends their connections. */
export interface PooledUpstream extends UpstreamClient {
  close(): Promise<void>;
}

/**
 * The upstream client for Node: undici's `request` over one keep-alive {@link Pool} per upstream
 * origin, with no cap on connections (a stream holds its connection for its whole life, so a cap
 * would queue streams behind each other). Redirects are never followed.
 */
export function undiciUpstream(options: Pool.Options = {}): PooledUpstream {
  const pools = new Map<string, Pool>();
  const client: UpstreamClient = async ({ url, method = 'POST', headers, body, signal }) => {
    const target = new URL(url);
    let pool = pools.get(target.origin);
    if (!pool) pools.set(target.origin, (pool = new Pool(target.origin, { connections: null, ...options })));
    const response = await pool.request({ method, path: target.pathname + target.search, headers, body, signal });
    return {
      status: response.statusCode,
      header(name) {
        const value = response.headers[name];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
      body: response.body,
    };
  };
  return Object.assign(client, {
    close: async () => {
      await Promise.all([...pools.values()].map((pool) => pool.destroy()));
    },
  });
}
