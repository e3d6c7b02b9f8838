import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test('schema.d.ts is what docs/openapi.yaml generates (npm run generate)', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'payline-ts-')), 'schema.d.ts');
  execFileSync(process.execPath, [new URL('./generate.mjs', import.meta.url).pathname, out]);
  assert.ok(readFileSync(out, 'utf8') === readFileSync(new URL('./schema.d.ts', import.meta.url), 'utf8'),
    'schema.d.ts is stale: run `npm run generate` in sdk/typescript and commit it');
});
