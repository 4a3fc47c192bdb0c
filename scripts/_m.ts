import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
const [out, width, ...files] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless','--no-sandbox','--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: Number(width), height: 800 } });
const imgs = files.map((f) => `<figure style="margin:4px;display:inline-block;vertical-align:top;width:${Math.floor(Number(width)/Math.min(files.length,4))-10}px"><figcaption style="font:12px sans-serif">${f.split('/').pop()}</figcaption><img style="width:100%;border:1px solid #ccc" src="data:image/png;base64,${readFileSync(f).toString('base64')}"></figure>`).join('');
await page.setContent(`<body style="margin:0">${imgs}</body>`);
await page.screenshot({ path: out, fullPage: true });
await browser.close();
