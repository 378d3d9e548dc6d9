// `npm run bench:generation [name ...]`: every benchmark of the generation service in
// scripts/bench-generation/ (each a standalone script that starts its own server), one after
// another, each as its own process; their output is printed as it comes. Names pick some of them
// ("fairness" runs fairness.ts). Exits non-zero when any of them failed.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bench-generation');
const wanted = process.argv.slice(2).map((name) => name.replace(/\.ts$/, ''));
const scripts = readdirSync(folder)
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
  .filter((file) => wanted.length === 0 || wanted.includes(file.replace(/\.ts$/, '')))
  .sort();

if (scripts.length === 0) {
  console.error(`no benchmark in ${folder}${wanted.length ? ` named ${wanted.join(', ')}` : ''}`);
  process.exit(1);
}

const failed: string[] = [];
for (const file of scripts) {
  console.log(`\n== ${file} ==`);
  const started = performance.now();
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(folder, file)], { stdio: 'inherit' });
    child.once('error', () => resolve(1));
    child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`== ${file}: ${code === 0 ? 'done' : `failed (exit ${code})`} in ${seconds} s ==`);
  if (code !== 0) failed.push(file);
}
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.join(', ')}`);
  process.exit(1);
}
