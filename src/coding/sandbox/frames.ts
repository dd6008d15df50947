// Frames on the one pipe between the network bridge inside the sandbox and wield outside it:
// many TCP connections share it, each frame saying which one it belongs to.
//   type (1 byte) · stream id (uint32 BE) · payload length (uint32 BE) · payload
// The codec is one self-contained function (no imports, no outside names) because the bridge's
// source is generated from it (bridge.ts): wield and the bridge decode with the same code.

export function frameCodec() {
  const OPEN = 1;
  const DATA = 2;
  const CLOSE = 3;
  const HEADER_BYTES = 9;
  /** Larger frames are a broken or hostile peer, not data: TCP reads are far smaller. */
  const MAX_PAYLOAD = 1 << 20;

  function encode(type: number, id: number, payload: Buffer = Buffer.alloc(0)): Buffer {
    const frame = Buffer.allocUnsafe(HEADER_BYTES + payload.length);
    frame.writeUInt8(type, 0);
    frame.writeUInt32BE(id >>> 0, 1);
    frame.writeUInt32BE(payload.length, 5);
    payload.copy(frame, HEADER_BYTES);
    return frame;
  }

  /**
   * A push decoder: feed it chunks as they arrive (frames may be split or joined anywhere);
   * each whole frame goes to `onFrame`. Returns false, and ignores all later input, once the
   * stream is corrupt (unknown type or an oversized frame).
   */
  function decoder(onFrame: (type: number, id: number, payload: Buffer) => void): (chunk: Buffer) => boolean {
    let pending: Buffer = Buffer.alloc(0);
    let corrupt = false;
    return (chunk) => {
      if (corrupt) return false;
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      while (pending.length >= HEADER_BYTES) {
        const type = pending.readUInt8(0);
        const length = pending.readUInt32BE(5);
        if (type < OPEN || type > CLOSE || length > MAX_PAYLOAD) {
          corrupt = true;
          pending = Buffer.alloc(0);
          return false;
        }
        if (pending.length < HEADER_BYTES + length) break;
        const payload = pending.subarray(HEADER_BYTES, HEADER_BYTES + length);
        const id = pending.readUInt32BE(1);
        pending = pending.subarray(HEADER_BYTES + length);
        onFrame(type, id, payload);
      }
      return true;
    };
  }

  return { OPEN, DATA, CLOSE, MAX_PAYLOAD, encode, decoder };
}

export type FrameCodec = ReturnType<typeof frameCodec>;
