// Generated product shots for the demo listings (nothing is downloaded): the item's lucide icon drawn
// as a solid object on a lit backdrop with a table edge, a soft shadow and a little grain, so the
// cards look like photos of things rather than empty boxes.

import { type DemoIcon, iconNode } from './icons.ts';

function attributes(attrs: Record<string, string | number>): string {
  return Object.entries(attrs)
    .filter(([key]) => key !== 'key')
    .map(([key, value]) => `${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${value}"`)
    .join(' ');
}

/** Deterministic pseudo-random numbers, so the same demo item always gets the same photo. */
function random(seed: number) {
  let s = seed % 2147483647 || 1;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
}

export async function demoPhoto(icon: DemoIcon, hue: number, variant: number): Promise<Buffer> {
  const node = iconNode(icon);
  const rand = random(hue * 31 + variant * 7 + icon.length);
  const width = 960;
  const height = 720;
  const wallHue = (hue + 30 + variant * 40) % 360;
  const tilt = (rand() - 0.5) * (variant ? 18 : 8);
  const scale = variant ? 22 : 18;
  const cx = width / 2 + (rand() - 0.5) * 120;
  const cy = height * 0.5;
  const shapes = node.map(([tag, attrs]) => `<${tag} ${attributes(attrs)}/>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs>
    <radialGradient id="light" cx="45%" cy="30%" r="80%">
      <stop offset="0" stop-color="hsl(${wallHue} 35% 94%)"/>
      <stop offset="1" stop-color="hsl(${wallHue} 25% 72%)"/>
    </radialGradient>
    <linearGradient id="table" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="hsl(30 25% 62%)"/>
      <stop offset="1" stop-color="hsl(28 30% 40%)"/>
    </linearGradient>
    <linearGradient id="body" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue} 70% 62%)"/>
      <stop offset="1" stop-color="hsl(${hue} 65% 34%)"/>
    </linearGradient>
    <filter id="blur"><feGaussianBlur stdDeviation="18"/></filter>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#light)"/>
  <rect y="${height * 0.68}" width="${width}" height="${height * 0.32}" fill="url(#table)"/>
  <rect y="${height * 0.68}" width="${width}" height="6" fill="hsl(30 30% 78%)" opacity="0.7"/>
  <ellipse cx="${cx + 30}" cy="${height * 0.73}" rx="${scale * 11}" ry="${scale * 2}" fill="#000" opacity="0.35" filter="url(#blur)"/>
  <g transform="translate(${cx} ${cy}) rotate(${tilt}) scale(${scale}) translate(-12 -12)">
    <g fill="url(#body)" fill-opacity="0.9" stroke="hsl(${hue} 60% 22%)" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round">${shapes}</g>
    <g fill="none" stroke="#fff" stroke-opacity="0.35" stroke-width="0.5" transform="translate(-0.35 -0.35)">${shapes}</g>
  </g>
</svg>`;
  // Loaded here, not at start: only seeding draws photos (images.ts says why).
  const { default: sharp } = await import('sharp');
  const base = await sharp(Buffer.from(svg)).png().toBuffer();
  // A fine grain, as a camera sensor would add: keeps the flat colours from looking drawn.
  const grain = Buffer.alloc(width * height);
  for (let i = 0; i < grain.length; i++) grain[i] = 118 + Math.floor(rand() * 20);
  return sharp(base)
    .composite([{ input: grain, raw: { width, height, channels: 1 }, blend: 'overlay' }])
    .jpeg({ quality: 90 })
    .toBuffer();
}
