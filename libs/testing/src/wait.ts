/**
 * Polls `probe` until it returns something truthy and returns that; fails naming `what` after `timeoutMs`. For
 * tests that wait for another process or a queue to act (a bound that only turns a hang into a failure, never a
 * timing assertion).
 */
export async function waitFor<T>(what: string, probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs = 20_000, intervalMs = 50): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
