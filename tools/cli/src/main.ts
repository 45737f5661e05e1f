#!/usr/bin/env node
import { createInterface } from 'node:readline';
import { runCli } from './cli.js';
import { osCredentialStore } from './store.js';

/** Reads a line from the terminal without echoing it (the token never appears on screen or in scrollback). */
function promptSecret(question: string): Promise<string> {
  return new Promise((resolve) => {
    process.stdout.write(question);
    const rl = createInterface({ input: process.stdin, terminal: true });
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => undefined;
    rl.question('', (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
  });
}

// A command-line client's configuration is its environment (WORKCELL_TOKEN, WORKCELL_BASE_URL, CI).
process.exitCode = await runCli(process.argv.slice(2), {
  // eslint-disable-next-line no-restricted-properties
  env: process.env,
  interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY),
  promptSecret,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  store: osCredentialStore(),
});
