/** Response bodies streamed from a source that holds something (a connection, a snapshot) while it waits. */
import { Readable } from 'node:stream';

export class StalledReaderError extends Error {
  override name = 'StalledReaderError';
  constructor(stallMs: number) {
    super(`the client read nothing for ${stallMs} ms`);
  }
}

/**
 * A Readable of `source` that destroys itself (which ends the source, releasing what it holds)
 * once its reader has taken nothing for `stallMs`: a client that stops reading must not keep a
 * database connection busy forever. Time spent waiting for the source itself does not count.
 */
export function watchedReadable(source: AsyncIterable<Buffer | string>, stallMs: number): Readable {
  // The clock runs from the start: a stream that is never read at all is let go too.
  let waitingForReaderSince: number | null = Date.now();
  async function* watched(): AsyncGenerator<Buffer | string> {
    waitingForReaderSince = null;
    for await (const chunk of source) {
      waitingForReaderSince = Date.now();
      yield chunk;
      waitingForReaderSince = null;
    }
  }
  const stream = Readable.from(watched(), { objectMode: false });
  const timer = setInterval(
    () => {
      if (waitingForReaderSince !== null && Date.now() - waitingForReaderSince >= stallMs) {
        stream.destroy(new StalledReaderError(stallMs));
      }
    },
    Math.max(10, Math.floor(stallMs / 4)),
  );
  // Kept referenced: the timer is what ends a stream nobody reads, and it stops at 'close'.
  stream.on('close', () => clearInterval(timer));
  return stream;
}
