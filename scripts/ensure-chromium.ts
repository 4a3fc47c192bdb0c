import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CHROMIUM_PATH } from '../tests/e2e/browser.ts';

// The browser journeys drive Debian's Chromium (Playwright's own download cannot work here).
// Installs it when missing and this user may; otherwise says exactly what to install.

if (existsSync(CHROMIUM_PATH)) process.exit(0);

const isRoot = process.getuid?.() === 0;
if (isRoot && existsSync('/usr/bin/apt-get')) {
  console.log('Chromium is missing: installing Debian’s chromium package for the browser tests…');
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
    stdio: 'inherit',
  });
  if (existsSync(CHROMIUM_PATH)) process.exit(0);
}
console.error(
  `The browser tests need Chromium at ${CHROMIUM_PATH}.\n` +
    'Install it with: sudo apt-get install -y chromium   (or set CHROMIUM_PATH to another Chromium).',
);
process.exit(1);
