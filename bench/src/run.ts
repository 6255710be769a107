import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { FIRST_LOAD_BUDGET_BYTES, measureFirstLoad } from './web-first-load.js';

/**
 * Runs the benchmarks and prints one `RESULT` line each. Baselines are measured in the
 * same run (PERFORMANCE.md); ratios are what to compare between runs.
 */
const distDir = fileURLToPath(new URL('../../apps/web/dist', import.meta.url));

console.log(`cores=${cpus().length} node=${process.version}`);

const firstLoad = await measureFirstLoad(distDir);
for (const file of firstLoad.files)
  console.log(`  ${file.name} ${(file.gzipBytes / 1024).toFixed(1)} KB gz`);
const kb = firstLoad.gzipBytes / 1024;
console.log(
  `RESULT web-first-load ratio=${(firstLoad.gzipBytes / FIRST_LOAD_BUDGET_BYTES).toFixed(3)} gzip_kb=${kb.toFixed(1)} budget_kb=${FIRST_LOAD_BUDGET_BYTES / 1024}`,
);
