import type { LiveMessageInput } from '../../src/domain/live-message';

/** RFC 6455 §5.2: the header of a final, unmasked text frame (server to client) of `length` bytes. */
function frameHeaderBytes(length: number): number {
  return length <= 125 ? 2 : length <= 0xffff ? 4 : 10;
}

/**
 * A final, unmasked text frame (server to client) of `payload`, header and UTF-8 bytes, ready to
 * be copied into a socket's write. A frame is encoded once however many sockets it goes to.
 */
export function encodeTextFrame(payload: string): Buffer {
  const length = Buffer.byteLength(payload);
  const header = frameHeaderBytes(length);
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81; // FIN, text
  if (length <= 125) frame[1] = length;
  else if (length <= 0xffff) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  frame.write(payload, header, length, 'utf8');
  return frame;
}

/** A control frame (welcome, ping, confirmations, notices). */
export const jsonFrame = (value: object): Buffer => encodeTextFrame(JSON.stringify(value));

/**
 * One bus message goes to many sockets: it is serialized once, and its frame encoded once per
 * identifier it goes out under (every dashboard of an organization subscribes with the same one),
 * not once per socket. The bus hands a message to all its subscribers in one go, so the last
 * message's frames are all there is to keep.
 */
export class MessageFrames {
  private framedMessage: LiveMessageInput | null = null;
  private framedJson = '';
  private readonly framesByPrefix = new Map<string, Buffer>();

  /** The message's JSON text (for a socket that takes batches). */
  json(message: LiveMessageInput): string {
    if (message !== this.framedMessage) {
      this.framedMessage = message;
      this.framedJson = JSON.stringify(message);
      this.framesByPrefix.clear();
    }
    return this.framedJson;
  }

  /** The message's frame under `framePrefix` (`{"identifier":…,"message":`). */
  frame(framePrefix: string, message: LiveMessageInput): Buffer {
    this.json(message);
    let frame = this.framesByPrefix.get(framePrefix);
    if (!frame) {
      frame = encodeTextFrame(`${framePrefix}${this.framedJson}}`);
      this.framesByPrefix.set(framePrefix, frame);
    }
    return frame;
  }
}
