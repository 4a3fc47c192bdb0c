import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import type { Plugin } from 'vite';

// The installable app's icons, drawn at build time from the one source of the mark,
// src/web/public/favicon.svg (the same shape as components/layout/logo.tsx), so a change of the logo
// changes every icon. sharp renders the SVG; nothing is committed but the SVG.
//
// - `any` icons: the favicon as it is (rounded square), at 192 and 512 px, the sizes browsers install
//   from, plus Apple's 180 px touch icon and a 96 px one for the manifest's shortcuts.
// - `maskable`: the platform crops it to its own shape (circle, squircle), keeping only the middle 80 %
//   (the "safe zone", a circle of radius 12.8 of the 32 units), so the background fills the whole square;
//   the loop reaches about 10 units from the middle (stroke included), inside it as drawn.

export interface IconFile {
  fileName: string;
  size: number;
  purpose: 'any' | 'maskable';
}

export const PWA_ICONS: IconFile[] = [
  { fileName: 'icons/icon-192.png', size: 192, purpose: 'any' },
  { fileName: 'icons/icon-512.png', size: 512, purpose: 'any' },
  { fileName: 'icons/maskable-192.png', size: 192, purpose: 'maskable' },
  { fileName: 'icons/maskable-512.png', size: 512, purpose: 'maskable' },
];
export const APPLE_TOUCH_ICON = 'icons/apple-touch-icon.png';
export const SHORTCUT_ICON = 'icons/shortcut-96.png';

/** The maskable variant of the mark: full-bleed background (no rounded corners), the strokes as they are. */
export function maskableSvg(favicon: string): string {
  const background = /<rect[^>]*fill="([^"]+)"/.exec(favicon)?.[1];
  const strokes = favicon.match(/<path[^>]*\/>/g);
  if (!background || !strokes?.length) {
    throw new Error('favicon.svg no longer has the rect and paths the maskable icon is drawn from');
  }
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
    `<rect width="32" height="32" fill="${background}"/>` +
    `${strokes.join('')}</svg>`
  );
}

async function png(svg: string, size: number): Promise<Buffer> {
  // The SVG is 32 units wide: rendered at the density that makes it `size` pixels, so it stays sharp.
  return sharp(Buffer.from(svg), { density: Math.ceil((72 * size) / 32) })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** Every icon file the build writes, by its path under dist/web. */
export async function renderIcons(faviconPath: string): Promise<Map<string, Buffer>> {
  const favicon = readFileSync(faviconPath, 'utf8');
  const maskable = maskableSvg(favicon);
  const files = new Map<string, Buffer>();
  for (const icon of PWA_ICONS) {
    files.set(icon.fileName, await png(icon.purpose === 'maskable' ? maskable : favicon, icon.size));
  }
  // iOS draws its own rounded corners over an opaque square: the maskable art fits it.
  files.set(APPLE_TOUCH_ICON, await png(maskable, 180));
  files.set(SHORTCUT_ICON, await png(favicon, 96));
  return files;
}

/** Emits the icons into the browser's build (before the service worker's precache list is made). */
export function pwaIcons(faviconPath: string): Plugin {
  return {
    name: 'campusloop:pwa-icons',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    async generateBundle() {
      for (const [fileName, source] of await renderIcons(faviconPath)) {
        this.emitFile({ type: 'asset', fileName, source });
      }
    },
  };
}
