import { spawn } from 'node:child_process';

// `npm run dev`: the API with restart-on-change on API_PORT (5001) and Vite with hot reload on PORT
// (5000), which proxies /api, /uploads and /ws to it. One command, both stop together.

const apiPort = process.env.API_PORT ?? '5001';
const webPort = process.env.PORT ?? '5000';
// Links in e-mails (verification) open the page the developer is using, Vite's, not the API's port.
const env = {
  ...process.env,
  API_PORT: apiPort,
  APP_URL: process.env.APP_URL ?? `http://localhost:${webPort}`,
};
const children = [
  spawn(
    process.execPath,
    ['--import', './scripts/lingui-register.mjs', '--import', 'tsx', '--watch', 'src/server/main.ts'],
    {
      stdio: 'inherit',
      env: { ...env, PORT: apiPort, HOST: '127.0.0.1', NODE_ENV: 'development' },
    },
  ),
  spawn('npx', ['vite'], { stdio: 'inherit', env }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) {
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
}
