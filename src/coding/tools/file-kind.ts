// What kind of content a file holds, from its first bytes (magic numbers, NUL bytes).

export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

const ascii = (bytes: Uint8Array, start: number, text: string) => text.split('').every((ch, i) => bytes[start + i] === ch.charCodeAt(0));

/** Image type by magic bytes (PNG, JPEG, GIF87a/89a, RIFF…WEBP), whatever the file's extension. */
export function sniffImage(head: Uint8Array): ImageType | undefined {
  if (head.length >= 8 && head[0] === 0x89 && ascii(head, 1, 'PNG\r\n\x1a\n')) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 6 && (ascii(head, 0, 'GIF87a') || ascii(head, 0, 'GIF89a'))) return 'image/gif';
  if (head.length >= 12 && ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP')) return 'image/webp';
  return undefined;
}

/**
 * Binary when the first 8,000 bytes hold a NUL byte (git's heuristic, buffer_is_binary in
 * xdiff-interface.c). UTF-16 text with a BOM is text that we cannot page by lines; call it binary.
 */
export function looksBinary(head: Uint8Array): boolean {
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) return true;
  return head.subarray(0, 8000).includes(0);
}
