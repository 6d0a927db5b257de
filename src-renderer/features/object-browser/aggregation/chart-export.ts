/**
 * The chart as a file: SVG as drawn, with the colours and fonts the console's CSS gave it written
 * into each element (a file has no stylesheet, and the theme's custom properties mean nothing
 * outside the page), on the theme's background; PNG by drawing that SVG on a canvas at twice
 * the size. The chart's CSV comes from chart-data.ts.
 */
import { downloadBlob } from '../../../components/download';

const STYLED = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
] as const;
const SVG_NS = 'http://www.w3.org/2000/svg';

/** A standalone SVG document of the chart, as drawn now (theme included). */
export function standaloneSvg(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const source = [svg, ...svg.querySelectorAll<SVGElement>('*')];
  const target = [clone, ...clone.querySelectorAll<SVGElement>('*')];
  source.forEach((element, i) => {
    const copy = target[i];
    if (!copy) return;
    const style = getComputedStyle(element);
    for (const name of STYLED) copy.style.setProperty(name, style.getPropertyValue(name));
    copy.removeAttribute('class');
    copy.removeAttribute('data-testid');
  });
  clone.setAttribute('xmlns', SVG_NS);
  const background = document.createElementNS(SVG_NS, 'rect');
  background.setAttribute('width', '100%');
  background.setAttribute('height', '100%');
  background.setAttribute('fill', getComputedStyle(document.documentElement).getPropertyValue('--surface').trim());
  // After the title and description, under every mark.
  const desc = clone.querySelector('desc');
  clone.insertBefore(background, desc ? desc.nextSibling : clone.firstChild);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(clone)}\n`;
}

export function downloadSvg(svg: SVGSVGElement, fileName: string): void {
  downloadBlob(new Blob([standaloneSvg(svg)], { type: 'image/svg+xml' }), fileName);
}

/** Draws the standalone SVG on a canvas (2× for sharp text) and saves it as PNG. */
export async function downloadPng(svg: SVGSVGElement, fileName: string): Promise<void> {
  const width = svg.width.baseVal.value;
  const height = svg.height.baseVal.value;
  const image = new Image();
  // A data: URL (the console's CSP allows data: images, not blob: ones).
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(standaloneSvg(svg))}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = width * 2;
  canvas.height = height * 2;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This browser cannot draw the chart to an image.');
  context.scale(2, 2);
  context.drawImage(image, 0, 0, width, height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('The chart could not be turned into a PNG.');
  downloadBlob(blob, fileName);
}

export function downloadCsv(csv: string, fileName: string): void {
  downloadBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), fileName);
}

/** `accounts-bar-20250102-1304.png`: the collection, the chart and the local time. */
export function chartFileName(collection: string, kind: string, extension: string, now: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${two(now.getMonth() + 1)}${two(now.getDate())}-${two(now.getHours())}${two(now.getMinutes())}`;
  return `${collection}-${kind}-${stamp}.${extension}`;
}
