// Writes schema.d.ts, the API's types, from docs/openapi.yaml with
// openapi-typescript: `npm run generate`. `node generate.mjs FILE` writes
// FILE instead (generate.test.js compares the two).
//
// Service-Version is left out of each operation's parameters: the client
// sends the version it pins on every request.
import { readFileSync, writeFileSync } from 'node:fs';
import yaml from 'js-yaml';
import openapiTS, { astToString } from 'openapi-typescript';

const doc = yaml.load(readFileSync(new URL('../../docs/openapi.yaml', import.meta.url), 'utf8'));
const notVersion = (p) => p.$ref !== '#/components/parameters/ServiceVersion';
for (const item of Object.values(doc.paths)) {
  for (const part of [item, ...Object.values(item)]) {
    if (part && Array.isArray(part.parameters)) part.parameters = part.parameters.filter(notVersion);
  }
}
const out = process.argv[2] ?? new URL('./schema.d.ts', import.meta.url);
const header = `// Generated from docs/openapi.yaml (API version ${doc.info.version}) by generate.mjs with openapi-typescript. DO NOT EDIT.\n\n`;
writeFileSync(out, header + astToString(await openapiTS(doc)));
