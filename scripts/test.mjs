// @ts-check
// `npm test`: every check, then a table of how long each stage took, so a stage that grows is seen the
// day it grows (decision 041). Typecheck and lint run side by side: tsc uses one core and the lint's
// tools mostly one, and the machine has two. The test stages run one after the other, each using both.
// Every stage runs even when an earlier one failed (the report says all that is wrong at once); the exit
// code is 1 when any failed. The last line is "N passed, N failed": the tests of both Vitest stages, and
// each failed non-Vitest stage counted as one failure, so the line never says 0 failed when the run failed.
//
//   node scripts/test.mjs            typecheck + lint, unit/API/component tests, browser journeys
//   node scripts/test.mjs unit e2e   only the stages named (typecheck, lint, unit, e2e)

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const reports = mkdtempSync(path.join(os.tmpdir(), 'campusloop-test-run-'));

/**
 * @typedef {{ name: string, steps: string[][], buffered?: boolean, vitestReport?: string }} Stage
 * `steps` run in order and stop at the first that fails; `buffered`: its output is printed in one piece
 * when it ends, so two stages running together do not interleave their lines.
 */

/**
 * Each stage is its package.json script, so a change to one (`test:e2e`'s build step) is a change to
 * `npm test` too. The Vitest stages add a JSON report beside the usual output, for the counts below.
 * @param {string} script @returns {Pick<Stage, 'steps' | 'vitestReport'>}
 */
const vitestScript = (script) => {
  const report = path.join(reports, `${script}.json`);
  return {
    steps: [
      [
        npm,
        'run',
        '--silent',
        script,
        '--',
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${report}`,
      ],
    ],
    vitestReport: report,
  };
};

/** @type {Record<string, Stage>} */
const stages = {
  typecheck: { name: 'typecheck', steps: [[npm, 'run', '--silent', 'typecheck']], buffered: true },
  lint: { name: 'lint', steps: [[npm, 'run', '--silent', 'lint']], buffered: true },
  unit: { name: 'unit/API/component', ...vitestScript('test:unit') },
  e2e: { name: 'browser journeys', ...vitestScript('test:e2e') },
};

/** Stages in one inner list run at the same time. */
const plan = [['typecheck', 'lint'], ['unit'], ['e2e']];
const wanted = process.argv.slice(2);
for (const name of wanted) {
  if (!(name in stages)) {
    console.error(`unknown stage "${name}": one of ${Object.keys(stages).join(', ')}`);
    process.exit(2);
  }
}

/** @param {string[]} command @param {boolean} buffered @returns {Promise<{ code: number, output: string }>} */
function run(command, buffered) {
  return new Promise((resolve) => {
    const [file, ...args] = command;
    const child = spawn(file, args, {
      cwd: root,
      stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? '1' : '0') },
    });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

/** @param {Stage} stage */
async function runStage(stage) {
  const started = performance.now();
  let ok = true;
  for (const step of stage.steps) {
    if (!stage.buffered) console.log(`\n> ${step.join(' ')}`);
    const { code, output } = await run(step, Boolean(stage.buffered));
    if (stage.buffered) {
      process.stdout.write(`\n> ${step.join(' ')}\n${output}`);
    }
    if (code !== 0) {
      ok = false;
      break;
    }
  }
  return { stage, ok, seconds: (performance.now() - started) / 1000 };
}

/** @param {string | undefined} file */
function vitestCounts(file) {
  if (!file) return undefined;
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    return {
      passed: report.numPassedTests ?? 0,
      failed: report.numFailedTests ?? 0,
      failures: failuresIn(report),
    };
  } catch {
    return undefined;
  }
}

/**
 * An error's message and the first place in our own code it passed through, without the rest of the stack.
 * @param {string} text
 */
function briefly(text) {
  const lines = text.split('\n');
  const message = lines.filter((l) => !l.trim().startsWith('at ')).slice(0, 8);
  const ours = lines.find((l) => l.trim().startsWith('at ') && !l.includes('node_modules'));
  return [...message, ...(ours ? [ours.trim()] : [])].join('\n      ');
}

/**
 * The failed tests of a Vitest JSON report, each with the first lines of its error: CI keeps only the
 * tail of the output, so the summary must name what failed, not only count it.
 * @param {any} report
 */
function failuresIn(report) {
  /** @type {string[]} */
  const out = [];
  for (const file of report.testResults ?? []) {
    const where = path.relative(process.cwd(), file.name ?? '');
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      out.push(`  - ${where} > ${test.fullName}\n      ${briefly((test.failureMessages ?? []).join('\n'))}`);
    }
    // A file that failed to load has no failed test, only a message.
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed')) {
      out.push(`  - ${where}\n      ${briefly(String(file.message ?? ''))}`);
    }
  }
  return out;
}

const started = performance.now();
/** @type {Awaited<ReturnType<typeof runStage>>[]} */
const results = [];
for (const group of plan) {
  const chosen = group.filter((name) => wanted.length === 0 || wanted.includes(name));
  results.push(...(await Promise.all(chosen.map((name) => runStage(stages[name])))));
}
const total = (performance.now() - started) / 1000;

let passed = 0;
let failed = 0;
/** @type {string[]} */
const failures = [];
const rows = results.map(({ stage, ok, seconds }) => {
  const counts = vitestCounts(stage.vitestReport);
  if (counts) {
    passed += counts.passed;
    failed += counts.failed;
    failures.push(...counts.failures);
  }
  // A stage that failed without a failed test (a type error, a crashed run) still counts as one.
  if (!ok && !counts?.failed) failed += 1;
  const tests = counts ? `${counts.passed} passed, ${counts.failed} failed` : '';
  return [stage.name, seconds.toFixed(1), ok ? 'ok' : 'FAILED', tests];
});
rmSync(reports, { recursive: true, force: true });

const header = ['stage', 'seconds', 'result', 'tests'];
const table = [
  header,
  ...rows,
  ['total (wall)', total.toFixed(1), results.every((r) => r.ok) ? 'ok' : 'FAILED', ''],
];
const widths = header.map((_, i) => Math.max(...table.map((row) => row[i].length)));
const line = (/** @type {string[]} */ row) =>
  row
    .map((cell, i) => (i === 1 ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
    .join('  ')
    .trimEnd();
console.log(`\n${line(table[0])}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
for (const row of table.slice(1)) console.log(line(row));
if (failures.length > 0) console.log(`\nfailed:\n${failures.join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
