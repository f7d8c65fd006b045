import { Agent, request } from 'node:http';

/** Outcome of a paced run: latencies (ms) of successful responses, and failures. */
export interface PacedResult {
  latencies: number[];
  failures: number;
  /** Requests actually started per second. */
  achievedRate: number;
}

/**
 * An open-loop load generator: starts requests at an even `rate` per second (not in bursts,
 * as autocannon's rate limit does at the start of each second), over up to `connections`
 * keep-alive sockets, and times each one from its start to the end of its body.
 */
export async function pacedLoad(url: string, options: { rate: number; seconds: number; connections: number; headers: Record<string, string>; body: string }): Promise<PacedResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const target = new URL(url);
  const latencies: number[] = [];
  let failures = 0;
  let started = 0;
  const total = Math.round(options.rate * options.seconds);
  const interval = 1000 / options.rate;
  const body = Buffer.from(options.body);
  const headers = { ...options.headers, 'content-length': String(body.length) };

  const one = () =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const finish = (ok: boolean) => {
        if (ok) latencies.push(performance.now() - t0);
        else failures++;
        resolve();
      };
      const req = request({ agent, method: 'POST', hostname: target.hostname, port: target.port, path: target.pathname, headers }, (res) => {
        res.on('data', () => {});
        res.on('end', () => finish(res.statusCode === 200));
        res.on('error', () => finish(false));
      });
      req.on('error', () => finish(false));
      req.end(body);
    });

  const pending: Promise<void>[] = [];
  const begin = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor((performance.now() - begin) / interval) + 1);
      while (started < due) {
        started++;
        pending.push(one());
      }
      if (started < total) setTimeout(tick, Math.max(0, begin + started * interval - performance.now()));
      else resolve();
    };
    tick();
  });
  const elapsed = (performance.now() - begin) / 1000;
  await Promise.all(pending);
  agent.destroy();
  return { latencies, failures, achievedRate: started / elapsed };
}
