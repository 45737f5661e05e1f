import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { runCli } from './cli.js';
import { fileCredentialStore, insecureStorePath, listenStatePath, osCredentialStore, privateJsonFile } from './store.js';

/**
 * Reads a line from the terminal through readline with its output muted: nothing typed or pasted is shown, and
 * the prompt goes to stderr so stdout stays the command's data.
 */
function promptSecret(question: string): Promise<string> {
  process.stderr.write(question);
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input: process.stdin, output: muted, terminal: true });
  return new Promise((resolve, reject) => {
    rl.on('SIGINT', () => {
      rl.close();
      process.stderr.write('\n');
      reject(new Error('login cancelled'));
    });
    rl.question('', (answer) => {
      rl.close();
      process.stderr.write('\n');
      resolve(answer);
    });
  });
}

/** Reads a line from the terminal, echoed (a choice); the question goes to stderr like every prompt. */
function prompt(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  return new Promise((resolve, reject) => {
    rl.on('SIGINT', () => {
      rl.close();
      process.stderr.write('\n');
      reject(new Error('login cancelled'));
    });
    rl.question(question, (answer) => {
      rl.close();
      resolve(answer);
    });
  });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Ctrl-C and SIGTERM as an abort, instead of the default end of the process: the command stops what it is doing
 * and exits 0, without a stack trace. Only the first signal is taken; a second one ends the process at once.
 */
function interruption(): AbortSignal {
  const controller = new AbortController();
  const stop = () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    controller.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return controller.signal;
}

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** A download's bytes to a file, or to stdout (left open: it is the process's, not the download's). */
function save(body: globalThis.ReadableStream<Uint8Array>, file: string | null): Promise<void> {
  const bytes = Readable.fromWeb(body as ReadableStream<Uint8Array>);
  return file === null ? pipeline(bytes, process.stdout, { end: false }) : pipeline(bytes, createWriteStream(file));
}

/**
 * A reader that stopped reading (`workcell list … | head -1`) ends the command quietly with 0, as `gh` does: it
 * has what it wanted. Any other failure to write stdout stays an error.
 */
function quietOnClosedPipe(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(0);
  });
}

/** runCli bound to this process: its terminal, its environment, the OS credential store. */
export async function runInProcess(argv: readonly string[]): Promise<number> {
  // A command-line client's configuration is its environment (WORKCELL_TOKEN, WORKCELL_BASE_URL, CI).
  // eslint-disable-next-line no-restricted-properties
  const env = process.env;
  quietOnClosedPipe();
  try {
    return await runCli(argv, {
      env: { ...env, ...(process.stdout.columns ? { COLUMNS: String(process.stdout.columns) } : {}) },
      interactive: Boolean(process.stdin.isTTY),
      tty: Boolean(process.stdout.isTTY),
      promptSecret,
      prompt,
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
      save,
      ...(process.stderr.isTTY ? { status: (line: string) => process.stderr.write(`\r\x1b[2K${line}`) } : {}),
      readInput: (source) => (source === '-' ? readStdin() : readFile(source.file, 'utf8')),
      store: osCredentialStore(),
      insecureStore: fileCredentialStore(insecureStorePath(env)),
      listenState: privateJsonFile(listenStatePath(env)),
      interruption,
      version,
    });
  } finally {
    if (process.stdin.isTTY && process.stdin.isRaw) process.stdin.setRawMode(false);
  }
}
