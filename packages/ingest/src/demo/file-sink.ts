import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';

const FLUSH_AT = 1 << 16;

/**
 * A text file written in 64 KB chunks that waits for 'drain' when the stream's buffer is full,
 * so that a multi-gigabyte file never sits in memory.
 */
export class FileSink {
  /** Bytes handed to the sink so far (flushed or not). */
  bytes = 0;
  private pending: string[] = [];
  private pendingChars = 0;
  private failure: Error | null = null;
  private readonly stream: WriteStream;

  constructor(
    path: string,
    private readonly onFlush: (bytes: number) => void = () => {},
  ) {
    this.stream = createWriteStream(path);
    this.stream.on('error', (error) => {
      this.failure = error;
    });
  }

  async write(text: string): Promise<void> {
    this.pending.push(text);
    this.pendingChars += text.length;
    this.bytes += Buffer.byteLength(text);
    if (this.pendingChars >= FLUSH_AT) await this.flush();
  }

  async close(): Promise<void> {
    await this.flush();
    this.stream.end();
    await finished(this.stream);
    if (this.failure !== null) throw this.failure;
  }

  private async flush(): Promise<void> {
    if (this.failure !== null) throw this.failure;
    if (this.pending.length === 0) return;
    const chunk = this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
    this.onFlush(this.bytes);
  }
}
