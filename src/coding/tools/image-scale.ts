// Images the model API would reject, or that cost more tokens than they are worth, are scaled
// down with sharp (libvips, prebuilt binaries shipped in npm), loaded on the first large image.
import { ToolError } from '../../runtime/tool/types.js';

/**
 * Anthropic's vision guidance: images over 1568 px on the long edge are resized by the API
 * anyway, so larger ones only add latency; its API rejects images over 5 MB. base64 grows data
 * by 4/3, so 3.75 MB raw is the most that fits.
 */
export const IMAGE_MAX_EDGE = 1568;
export const IMAGE_MAX_BYTES = Math.floor((5 * 1024 * 1024 * 3) / 4);
/** Larger files are refused before decoding, so one image cannot take the process's memory. */
export const IMAGE_MAX_INPUT_BYTES = 50 * 1024 * 1024;

export interface FittedImage {
  data: Buffer;
  mediaType: string;
  /** Set when the image was scaled: original and new size in pixels. */
  scaled?: { from: [number, number]; to: [number, number] };
}

type Sharp = typeof import('sharp')['default'];
let sharpModule: Promise<Sharp | undefined> | undefined;

/** undefined when the native library cannot load here (an unsupported platform). */
function loadSharp(): Promise<Sharp | undefined> {
  sharpModule ??= import('sharp').then(
    (module) => module.default,
    () => undefined,
  );
  return sharpModule;
}

export async function fitImage(data: Buffer, mediaType: string, display: string): Promise<FittedImage> {
  if (data.length <= IMAGE_MAX_BYTES && data.length <= 512 * 1024) return { data, mediaType }; // small: never decoded
  const sharp = await loadSharp();
  if (!sharp) {
    if (data.length <= IMAGE_MAX_BYTES) return { data, mediaType };
    throw new ToolError(
      `${display} is a ${(data.length / 2 ** 20).toFixed(1)} MB image, over the model API's 5 MB limit, and the image library could not be loaded to scale it. Convert it to a smaller file first.`,
    );
  }
  let meta: { width?: number; height?: number };
  try {
    meta = await sharp(data).metadata();
  } catch (error) {
    throw new ToolError(
      `${display} looks like ${mediaType} but cannot be decoded (${(error as Error).message}); it may be truncated or corrupt.`,
    );
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (Math.max(width, height) <= IMAGE_MAX_EDGE && data.length <= IMAGE_MAX_BYTES) return { data, mediaType };
  const resized = sharp(data, { animated: false }).resize({
    width: IMAGE_MAX_EDGE,
    height: IMAGE_MAX_EDGE,
    fit: 'inside',
    withoutEnlargement: true,
  });
  // PNG keeps text and line art sharp; photos that stay too large as PNG become JPEG.
  let out = await resized.clone().png({ compressionLevel: 9 }).toBuffer({ resolveWithObject: true });
  let outType = 'image/png';
  if (out.data.length > IMAGE_MAX_BYTES || mediaType === 'image/jpeg') {
    out = await resized.clone().jpeg({ quality: 80 }).toBuffer({ resolveWithObject: true });
    outType = 'image/jpeg';
  }
  return { data: out.data, mediaType: outType, scaled: { from: [width, height], to: [out.info.width, out.info.height] } };
}
