/**
 * Timeouts for every test and hook. jest-light-runner (jest.preset.js) calls test functions itself and, unlike
 * Jest's own runner, enforces no timeout: a promise that never settles held CI until it was killed after 90
 * minutes (stop 31). Here each `it`/`test` and each hook races its function against a bound: the third argument
 * when given (as in Jest's API), else WORKCELL_TEST_TIMEOUT_MS (default five minutes, above any test's own run on
 * a busy machine). A test past its bound fails with this message; the file goes on.
 */
const DEFAULT_MS = Number(process.env.WORKCELL_TEST_TIMEOUT_MS ?? 300_000);

function bounded(fn, ms, what) {
  if (typeof fn !== 'function') return fn;
  // A callback-style function (done) is left to the runner: none is written here, and wrapping would hide `done`.
  if (fn.length > 0) return fn;
  return function (...args) {
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms (jest.timeouts.js)`)), ms);
    });
    return Promise.race([Promise.resolve().then(() => fn.apply(this, args)), timeout]).finally(() => clearTimeout(timer));
  };
}

function withTimeout(original, kind) {
  const wrapped = (name, fn, ms) => original(name, bounded(fn, ms ?? DEFAULT_MS, `${kind} "${name}"`), ms);
  return Object.assign(wrapped, original, {
    only: (name, fn, ms) => original.only(name, bounded(fn, ms ?? DEFAULT_MS, `${kind} "${name}"`), ms),
  });
}

function hookWithTimeout(original, kind) {
  return (fn, ms) => original(bounded(fn, ms ?? DEFAULT_MS, kind), ms);
}

globalThis.it = withTimeout(globalThis.it, 'test');
globalThis.test = withTimeout(globalThis.test, 'test');
globalThis.fit = globalThis.it.only;
for (const hook of ['beforeAll', 'afterAll', 'beforeEach', 'afterEach']) globalThis[hook] = hookWithTimeout(globalThis[hook], hook);
