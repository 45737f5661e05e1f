import { execFile, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

/** Whether tmux is installed (Debian's `tmux`; .ci/run installs it): terminal tests skip, and say so, without it. */
export const TMUX_AVAILABLE = spawnSync('sh', ['-c', 'command -v tmux && command -v stty']).status === 0;

const tmux = (socket: string, args: readonly string[], env: Record<string, string>) =>
  new Promise<string>((resolve, reject) => {
    execFile('tmux', ['-L', socket, ...args], { env, encoding: 'utf8', timeout: 10_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`tmux ${args[0]}: ${stderr || error.message}`)) : resolve(stdout),
    );
  });

/**
 * A real terminal (a tmux pane running a plain shell) that a test types into and reads, as a person at a
 * terminal would: stdin and stdout are a TTY, echo is the terminal's own. Its own tmux server (socket), with
 * exactly the environment given, so nothing of the machine's sessions or the test process leaks in.
 */
export class Terminal {
  private constructor(
    private readonly socket: string,
    private readonly env: Record<string, string>,
    readonly tty: string,
  ) {}

  static async open(cwd: string, env: Record<string, string>): Promise<Terminal> {
    const socket = `workcell-test-${randomUUID()}`;
    const full = { TERM: 'xterm-256color', ...env };
    await tmux(socket, ['new-session', '-d', '-s', 'main', '-x', '200', '-y', '60', '-c', cwd, 'sh'], full);
    const tty = (await tmux(socket, ['display-message', '-p', '-t', 'main', '#{pane_tty}'], full)).trim();
    return new Terminal(socket, full, tty);
  }

  /** Types text and presses Enter (the keys arrive as fast as a paste). */
  async type(text: string): Promise<void> {
    await tmux(this.socket, ['send-keys', '-t', 'main', '-l', text], this.env);
    await tmux(this.socket, ['send-keys', '-t', 'main', 'Enter'], this.env);
  }

  /** What the pane shows, scrollback included. */
  async screen(): Promise<string> {
    return tmux(this.socket, ['capture-pane', '-p', '-J', '-S', '-1000', '-t', 'main'], this.env);
  }

  /** Waits until the screen matches (polling; the deadline only bounds a hang). */
  async waitFor(pattern: RegExp, timeoutMs = 30_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = await this.screen();
      if (pattern.test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`the terminal never showed ${pattern}; it shows:\n${screen}`);
      await sleep(50);
    }
  }

  /** Waits until the terminal's echo is off: a program has taken the terminal for hidden input. */
  async waitForEchoOff(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const modes = spawnSync('stty', ['-F', this.tty, '-a'], { encoding: 'utf8' }).stdout;
      if (/(^|\s)-echo(\s|$)/.test(modes)) return;
      if (Date.now() > deadline) throw new Error(`echo never went off on ${this.tty}: ${modes}`);
      await sleep(5);
    }
  }

  async close(): Promise<void> {
    await tmux(this.socket, ['kill-server'], this.env).catch(() => undefined);
  }
}
