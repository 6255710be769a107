// Draws the app icons of the web manifest from the logo: the mark on white, inside the
// central safe zone that launchers keep when they crop an icon to a circle or squircle.
// Run after changing apps/web/public/logo.svg: `node scripts/app-icons.mjs`; the PNGs are
// committed, so builds need no image tools.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const publicDir = fileURLToPath(new URL('../apps/web/public/', import.meta.url));

/** Icon pixels per side, by file name. */
const ICONS = { 'icon-192.png': 192, 'icon-512.png': 512, 'apple-touch-icon.png': 180 };

/** Maskable icons keep a circle of 80% of the side; the mark sits well inside it. */
const MARK_SHARE = 0.62;

const logo = await readFile(`${publicDir}logo.svg`, 'utf8');
const inner = /<svg[^>]*>([\s\S]*)<\/svg>/.exec(logo)?.[1];
if (!inner) throw new Error('logo.svg has no <svg> element');

const offset = (64 * (1 - MARK_SHARE)) / 2;
const icon = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">` +
    `<rect width="64" height="64" fill="#fff"/>` +
    `<g transform="translate(${offset} ${offset}) scale(${MARK_SHARE})">${inner}</g></svg>`,
);

for (const [name, size] of Object.entries(ICONS)) {
  await sharp(icon, { density: (72 * size) / 64 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(`${publicDir}${name}`);
  console.log(`wrote ${name} (${size}×${size})`);
}
