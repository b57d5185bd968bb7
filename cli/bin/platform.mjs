#!/usr/bin/env -S node --no-node-snapshot
// The `platform` command of @platform/cli: runs the CLI built to dist/cli.js (npm ci and
// npm run prepare build it from src/main.ts). `--no-node-snapshot`: `platform dev` on a hosted app
// loads isolated-vm (the local sandbox), which crashes with Node's startup snapshot; it costs the
// other commands nothing measurable.
import { main } from '../dist/cli.js';

// `platform env list | head -1` closes the pipe early; that is not a failure of the command.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

process.exitCode = await main(process.argv.slice(2));
