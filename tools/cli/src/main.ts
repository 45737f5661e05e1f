#!/usr/bin/env node
// A token pasted while the CLI is still starting would be echoed by the terminal, which echoes in its normal
// (cooked) mode until readline takes over: for `login`, echo goes off before anything else is even loaded.
if (process.argv[2] === 'login' && process.stdin.isTTY) process.stdin.setRawMode(true);

const { runInProcess } = await import('./process-io.js');
process.exitCode = await runInProcess(process.argv.slice(2));
