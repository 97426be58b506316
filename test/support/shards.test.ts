/**
 * How `npm test` deals its files into shards (test/shards/shard.ts): every file in exactly one
 * shard, the heaviest file first to the lightest share.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deal, shardFiles, testFiles, weightOf } from '../shards/shard.ts';

describe('the shards of npm test', () => {
  it('should deal every test file to exactly one shard, this one included', () => {
    const files = testFiles();
    const shares = deal(files, shardFiles().length, weightOf);
    assert.equal(shares.length, shardFiles().length);
    assert.deepEqual(shares.flat().sort(), files);
    assert.ok(files.includes('test/support/shards.test.ts'));
    assert.ok(!files.some((file) => file.startsWith('test/shards/')), 'the shards do not run themselves');
  });

  it('should give the heaviest file first to the lightest share, and list the heaviest share first', () => {
    const weights: Record<string, number> = { 'a.test.ts': 70, 'b.test.ts': 42, 'c.test.ts': 40, 'd.test.ts': 36, 'e.test.ts': 3 };
    // 70 to the first; 42 and 40 to the second (82); 36 to the first (106); 3 to the second (85).
    assert.deepEqual(
      deal(Object.keys(weights), 2, (file) => weights[file]!),
      [
        ['a.test.ts', 'd.test.ts'],
        ['b.test.ts', 'c.test.ts', 'e.test.ts'],
      ],
    );
  });
});
