// Just enough of PNG to read a browser's screenshot: 8-bit RGB or RGBA,
// non-interlaced, decoded with node:zlib (no dependency).
import { inflateSync } from 'node:zlib';

export interface Image {
  readonly width: number;
  readonly height: number;
  /** [r, g, b] of a pixel. */
  pixel(x: number, y: number): readonly [number, number, number];
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Undoes each scanline's filter in place (PNG spec, section 9). */
function unfilter(raw: Buffer, width: number, height: number, channels: number): Buffer {
  const stride = width * channels;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? out[y * stride + i - channels]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + i]! : 0;
      const c = y > 0 && i >= channels ? out[(y - 1) * stride + i - channels]! : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter]!;
      out[y * stride + i] = (line[i]! + predictor) & 0xff;
    }
  }
  return out;
}

export function decodePng(png: Buffer): Image {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let offset = 8;
  let header: { width: number; height: number; depth: number; type: number; interlace: number } | undefined;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      header = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), depth: body[8]!, type: body[9]!,
        interlace: body[12]! };
    }
    if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  if (!header || header.depth !== 8 || ![2, 6].includes(header.type) || header.interlace !== 0) {
    throw new Error(`unsupported PNG: ${JSON.stringify(header)}`);
  }
  const channels = header.type === 6 ? 4 : 3;
  const { width, height } = header;
  const pixels = unfilter(inflateSync(Buffer.concat(data)), width, height, channels);
  return {
    width,
    height,
    pixel: (x, y) => {
      const at = (y * width + x) * channels;
      return [pixels[at]!, pixels[at + 1]!, pixels[at + 2]!];
    },
  };
}
