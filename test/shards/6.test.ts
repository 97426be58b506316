import { runShard } from './shard.ts';

runShard(import.meta.url);
