import { randomUUID } from 'node:crypto';
import { type Impostor, postgresRefusing, redisReplying, type TcpProxy } from '@workcell/testing';
import type { FaultyPlatform } from '../support/faulty-platform.js';
import { type Answer, type Probe, send } from '../support/http.js';
import { judge } from '../support/judge.js';
import { Ledger } from '../support/ledger.js';

/**
 * Check 4: PostgreSQL, Redis and the auth service, each cut (connections refused and reset) and black-holed
 * (every byte dropped, nothing refused), PostgreSQL refusing every session with 53300 (too many clients), Redis
 * answering -LOADING or, after a failover, -READONLY to every command (up, but refusing the work: an impostor behind
 * the proxy), and PostgreSQL or Redis slow (every chunk delayed), while a mixed load of v1 and v0 reads and creates
 * runs. Every answer
 * must be a 2xx/4xx or 503 `service_unavailable` with Retry-After, within DEPENDENCY_TIMEOUT_MS plus a margin,
 * never another 5xx or a hang, and never a 401 (valid credentials are not refused because the auth service is
 * away); after restore the service must answer again by itself; and every create acknowledged with a 2xx —
 * before, during or after the fault — must exist afterwards.
 */

/** Margin over DEPENDENCY_TIMEOUT_MS for an answer during a fault: the machine is shared and loaded. */
const MARGIN_MS = 4000;
const LANES = 6;
const HEALTHY_MS = 800;
const RECOVERY_LIMIT_MS = 20_000;
/** Latency a slow dependency adds to each chunk either way. */
const SLOW_MS = 150;

interface Acknowledged {
  readonly generation: 'v0' | 'v1';
  readonly path: string;
  readonly scenario: string;
}

export async function faults(platform: FaultyPlatform): Promise<Ledger> {
  const ledger = new Ledger('dependency-faults');
  const bound = platform.dependencyTimeoutMs + MARGIN_MS;
  // The fault outlasts the bound, so a request that hangs is seen hanging (not rescued by the restore).
  const faultMs = bound + 2000;
  const acknowledged: Acknowledged[] = [];
  let slowestRecovery = 0;
  const v1Auth = { authorization: `Bearer ${platform.pat}` };
  const requestMix = (): { generation: 'v0' | 'v1'; probe: Probe; create?: (answer: Answer) => string | undefined }[] => [
    { generation: 'v1', probe: { method: 'GET', path: '/v1/tags?limit=5', headers: v1Auth } },
    { generation: 'v1', probe: { method: 'GET', path: '/v1/projects?limit=5', headers: v1Auth } },
    {
      generation: 'v1',
      probe: { method: 'POST', path: '/v1/tags', headers: { ...v1Auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: `fault ${randomUUID()}` }) },
      create: (answer) => {
        const id = (answer.json as { data?: { id?: string } } | undefined)?.data?.id;
        return id ? `/v1/tags/${id}` : undefined;
      },
    },
    { generation: 'v0', probe: { method: 'GET', path: '/tasks?limit=5', headers: { authorization: `Bearer ${platform.teamToken()}` } } },
    {
      generation: 'v0',
      probe: {
        method: 'POST',
        path: '/tasks',
        headers: { authorization: `Bearer ${platform.teamToken()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `fault ${randomUUID()}` }),
      },
      create: (answer) => {
        const id = (answer.json as { _id?: string } | undefined)?._id;
        return id ? `/tasks/${id}` : undefined;
      },
    },
  ];
  const url = (generation: 'v0' | 'v1') => (generation === 'v1' ? platform.v1.url : platform.v0.url);

  const scenarios: [string, TcpProxy, 'cut' | 'blackhole' | { slowMs: number } | Impostor][] = [];
  for (const [name, proxy] of Object.entries(platform.proxies)) for (const mode of ['cut', 'blackhole'] as const) scenarios.push([`${name} ${mode}`, proxy, mode]);
  scenarios.push(
    ['postgres refused with 53300', platform.proxies.postgres, postgresRefusing()],
    ['redis LOADING', platform.proxies.redis, redisReplying()],
    // A failover: the master this connection writes to is now a replica.
    ['redis READONLY (failover)', platform.proxies.redis, redisReplying("READONLY You can't write against a read only replica.")],
    // Slow, not gone: each round trip at least SLOW_MS × 2 late; requests answer, slower, or 503 within the bound.
    ['postgres slow', platform.proxies.postgres, { slowMs: SLOW_MS }],
    ['redis slow', platform.proxies.redis, { slowMs: SLOW_MS }],
  );

  for (const [scenario, proxy, mode] of scenarios) {
    let phase: 'before' | 'fault' | 'after' = 'before';
    let running = true;
    const oneRequest = async (i: number) => {
      const mix = requestMix();
      const { generation, probe, create } = mix[i % mix.length]!;
      const startedIn = phase;
      const answer = await send(url(generation), probe, bound * 3);
      const name = `${scenario}: ${generation} ${probe.method} ${probe.path.split('?')[0]}`;
      if (answer.status === 429) {
        ledger.count(answer);
        return;
      }
      judge(ledger, generation, name, probe, answer, { label: `${scenario}, request started ${startedIn} the fault` }, true);
      if (answer.status === 401 || answer.status === 403)
        ledger.find(
          'refused-during-fault',
          name,
          probe,
          answer,
          `a valid credential got ${answer.status} (request started ${startedIn} the fault); an unreachable dependency is a 503`,
          `${scenario}: ${answer.status}`,
        );
      // Healthy requests are far quicker, so any answer beyond the bound is one the fault held up.
      if (answer.status !== 0 && answer.ms > bound) {
        ledger.find(
          'slow-answer-during-fault',
          name,
          probe,
          answer,
          `answered after ${answer.ms} ms (request started ${startedIn} the fault); the bound is DEPENDENCY_TIMEOUT_MS ${platform.dependencyTimeoutMs} + ${MARGIN_MS} ms`,
          `${scenario}, request started ${startedIn} the fault`,
        );
      }
      if (answer.status >= 200 && answer.status < 300 && create) {
        const path = create(answer);
        if (path) acknowledged.push({ generation, path, scenario });
      }
    };
    const lane = async (seed: number) => {
      for (let i = seed; running; i++) await oneRequest(i);
    };
    const lanes = Array.from({ length: LANES }, (_v, i) => lane(i));
    await sleep(HEALTHY_MS);
    // Writes and reads in flight at the moment of the fault (the case that hung or answered 500), besides the lanes.
    const inFlight = Array.from({ length: LANES }, (_v, i) => oneRequest(i % 2 === 0 ? 2 : 4) /* v1 and v0 creates */);
    await sleep(5);
    phase = 'fault';
    await (mode === 'cut' ? proxy.cut() : mode === 'blackhole' ? proxy.blackhole() : typeof mode === 'object' ? proxy.slow(mode.slowMs) : proxy.impersonate(mode));
    await sleep(faultMs);
    await proxy.restore();
    phase = 'after';
    // Recovery by itself: both generations answer a read with 200 again within the limit, asked with the probe's own
    // credentials (the lanes keep running and spend theirs).
    const recoveredAt = Date.now();
    const recoveryProbes = [
      ['v1', { method: 'GET', path: '/v1/tags?limit=1', headers: { authorization: `Bearer ${platform.probe.pat}` } }],
      ['v0', { method: 'GET', path: '/tasks?limit=1', headers: { authorization: `Bearer ${platform.probe.teamToken}` } }],
    ] as const;
    for (const [generation, probe] of recoveryProbes) {
      let last: Answer | undefined;
      while (Date.now() - recoveredAt < RECOVERY_LIMIT_MS) {
        last = await send(url(generation), probe, bound * 3);
        if (last.status === 200) break;
        await sleep(200);
      }
      if (last?.status !== 200) ledger.find('no-recovery', `${scenario}: ${generation}`, probe, last, `not answering 200 ${RECOVERY_LIMIT_MS} ms after the dependency came back`, scenario);
    }
    slowestRecovery = Math.max(slowestRecovery, Date.now() - recoveredAt);
    await sleep(HEALTHY_MS);
    running = false;
    await Promise.all([...lanes, ...inFlight]);
  }

  // No acknowledged write lost.
  for (const write of acknowledged) {
    const headers = { authorization: `Bearer ${write.generation === 'v1' ? platform.pat : platform.teamToken()}` };
    const answer = await send(url(write.generation), { method: 'GET', path: write.path, headers });
    if (answer.status !== 200)
      ledger.find(
        'acknowledged-write-lost',
        `${write.scenario}: ${write.generation} create`,
        { method: 'GET', path: write.path },
        answer,
        'a create answered 2xx does not exist afterwards',
        write.scenario,
      );
  }
  ledger.bump('faults (3 dependencies × cut, black hole; PostgreSQL 53300, Redis LOADING and READONLY; PostgreSQL and Redis slow)', scenarios.length);
  ledger.bump('ms slowest recovery', slowestRecovery);
  ledger.bump('acknowledged creates verified', acknowledged.length);
  return ledger;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
