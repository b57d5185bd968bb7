#!/usr/bin/env node
// The `platform` command of @platform/cli: runs the CLI built to dist/cli.js (npm ci and
// npm run prepare build it from src/main.ts).
import { main } from '../dist/cli.js';

// `platform env list | head -1` closes the pipe early; that is not a failure of the command.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

process.exitCode = await main(process.argv.slice(2));
