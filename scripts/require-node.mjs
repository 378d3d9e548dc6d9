// Stops a start on a Node.js older than package.json's `engines` with one sentence, before any
// dependency loads (on an older Node they fail deep inside, or crash the process). Plain
// JavaScript with no imports beyond Node's own, so it runs on any Node that can start at all.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const wanted = /(\d+)\.(\d+)/.exec(pkg.engines.node);
const [major, minor] = process.versions.node.split('.').map(Number);
const needMajor = Number(wanted[1]);
const needMinor = Number(wanted[2]);
if (major < needMajor || (major === needMajor && minor < needMinor)) {
  process.stderr.write(
    `Loom Studio needs Node.js ${needMajor}.${needMinor} or newer (24 recommended); this is Node.js ${process.versions.node}. ` +
      'Install a current LTS from https://nodejs.org and check with `node --version`.\n',
  );
  process.exit(1);
}
