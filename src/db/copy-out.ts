/**
 * `COPY (query) TO STDOUT` on PostgreSQL, read as it is consumed: one statement, one snapshot,
 * the plan PostgreSQL gives `\copy` (parallel workers included), and backpressure down to the
 * server (pg-copy-streams reads the socket only when the reader asks for more).
 *
 * Each COPY holds a pooled connection until its last byte is read, so only a few may run at
 * once: past that, `tryCopy` answers null and the caller reads another way.
 */
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

export interface CopyOut {
  /**
   * The raw COPY output of `statement`, or null when every COPY slot is taken. The slot is
   * freed when the generator finishes, fails or is returned after its first `next()`: a caller
   * must start it (`globalMemberListStream` reads the first chunk before answering).
   */
  tryCopy(statement: string): AsyncGenerator<Buffer> | null;
}

export function createCopyOut(pool: pg.Pool, maxConcurrent: number): CopyOut {
  let running = 0;
  async function* copy(statement: string): AsyncGenerator<Buffer> {
    try {
      const client = await pool.connect();
      // Unless the COPY ran to its end, the connection is closed rather than returned: it is
      // still in the middle of the COPY, and closing it is what stops PostgreSQL.
      let finished = false;
      try {
        for await (const chunk of client.query(copyTo(statement))) yield chunk as Buffer;
        finished = true;
      } finally {
        client.release(!finished);
      }
    } finally {
      running--;
    }
  }
  return {
    tryCopy(statement) {
      if (running >= maxConcurrent) return null;
      running++;
      return copy(statement);
    },
  };
}
