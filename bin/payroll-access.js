#!/usr/bin/env node
// The package's command line (CONTRACT 3). TypeScript runs through tsx: no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
