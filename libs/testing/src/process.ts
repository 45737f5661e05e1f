import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

export interface ServiceProcess {
  readonly child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the first line matching the pattern (or rejects after the timeout). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Sends the signal and resolves with the exit code (null if killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs a compiled service entry point as a real process with exactly the environment given. */
export function spawnService(entry: string, env: Record<string, string>): ServiceProcess {
  return spawnProcess(process.execPath, [entry], env);
}

/** Runs any program as a child process, with the environment given or else this process's own. */
export function spawnProcess(command: string, args: readonly string[], env?: Record<string, string>): ServiceProcess {
  const child = spawn(command, args, { ...(env ? { env } : {}), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const l of listeners) l();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return {
    child,
    output: () => output,
    waitFor(pattern, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const line = output.split('\n').find((l) => pattern.test(l));
          if (line !== undefined) {
            cleanup();
            resolve(line);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; output:\n${output}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exited.then(() => {
          check();
          if (listeners.has(check)) {
            cleanup();
            reject(new Error(`process exited before printing ${pattern}; output:\n${output}`));
          }
        });
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Waits for a process to exit by itself and returns its code. */
export async function exitCodeOf(service: ServiceProcess): Promise<number | null> {
  if (service.child.exitCode !== null) return service.child.exitCode;
  const [code] = await once(service.child, 'exit');
  return code as number | null;
}
