import { crc32, deflateSync } from "node:zlib";
import QRCode from "qrcode";

// The `qrcode` package computes the QR matrix; its own PNG writer (RGBA pixels through pngjs) takes
// ~5 ms per code and capped charge creation near 200/s, so the matrix is written here as a
// 1-bit grayscale PNG with the native deflate (~0.2 ms). For the same reason the matrix is built
// from one byte-mode segment with a fixed mask: the optimal segmentation and the eight-mask penalty
// search cost ~1.5 ms and only make the symbol a little smaller; every mask is valid for readers.
const moduleSizePx = 4;
const quietZoneModules = 4;
const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

function qrCodePng(text: string): Buffer {
  const { modules } = QRCode.create([{ data: Buffer.from(text, "utf8"), mode: "byte" }], {
    errorCorrectionLevel: "M",
    maskPattern: 0,
  });
  const sizePx = (modules.size + 2 * quietZoneModules) * moduleSizePx;
  const rowBytes = Math.ceil(sizePx / 8);
  // One filter byte (0 = none) then the packed row; bit 1 is white, so start all white.
  const raw = Buffer.alloc((rowBytes + 1) * sizePx, 0xff);
  for (let y = 0; y < sizePx; y += 1) {
    const rowStart = y * (rowBytes + 1);
    raw[rowStart] = 0;
    const moduleY = Math.floor(y / moduleSizePx) - quietZoneModules;
    if (moduleY < 0 || moduleY >= modules.size) continue;
    for (let x = 0; x < sizePx; x += 1) {
      const moduleX = Math.floor(x / moduleSizePx) - quietZoneModules;
      if (moduleX < 0 || moduleX >= modules.size || !modules.get(moduleY, moduleX)) continue;
      const index = rowStart + 1 + (x >> 3);
      raw[index] = raw[index]! & ~(0x80 >> (x & 7));
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(sizePx, 0);
  header.writeUInt32BE(sizePx, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, grayscale, deflate, adaptive filtering, no interlace
  return Buffer.concat([
    pngSignature,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

export function qrCodePngBase64(text: string): string {
  return qrCodePng(text).toString("base64");
}
