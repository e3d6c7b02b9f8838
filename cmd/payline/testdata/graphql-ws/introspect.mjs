// Introspects a running Payline with graphql-js's own introspection
// query, builds the client schema from the answer, and compares it with
// docs/schema.graphql, both printed sorted (cmd/payline
// TestNodeIntrospection). Prints {"ok": true} or {"ok": false, "error"}.
import { readFileSync } from 'node:fs';
import { GraphQLSchema, buildClientSchema, buildSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema } from 'graphql';

const { API_URL, SECRET, SCHEMA_FILE } = process.env;
try {
  const res = await fetch(API_URL + '/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-secret': SECRET },
    body: JSON.stringify({ query: getIntrospectionQuery() }),
  });
  const body = await res.json();
  if (res.status !== 200 || body.errors) throw new Error(`introspection answered ${res.status}: ${JSON.stringify(body.errors)}`);
  // Descriptions are compared without the surrounding whitespace the
  // schema files' block strings leave in them.
  const trim = (o) => {
    if (Array.isArray(o)) return o.forEach(trim);
    if (o && typeof o === 'object') {
      for (const [k, v] of Object.entries(o)) {
        if (k === 'description' && typeof v === 'string') o[k] = v.trim();
        else trim(v);
      }
    }
  };
  trim(body.data);
  const docSchema = buildSchema(readFileSync(SCHEMA_FILE, 'utf8'));
  // gqlgen also serves the executor's built-in directives (@defer,
  // @oneOf, ...), which the SDL file does not spell out.
  const client = buildClientSchema(body.data);
  const servedSchema = new GraphQLSchema({ ...client.toConfig(), directives: client.getDirectives().filter((d) => docSchema.getDirective(d.name)) });
  const served = printSchema(lexicographicSortSchema(servedSchema));
  const documented = printSchema(lexicographicSortSchema(docSchema));
  if (served !== documented) {
    const a = served.split('\n'), b = documented.split('\n');
    const i = a.findIndex((line, n) => line !== b[n]);
    throw new Error(`the introspected schema differs from docs/schema.graphql at line ${i + 1}:\n${a.slice(Math.max(0, i - 2), i + 4).join('\n')}\nvs\n${b.slice(Math.max(0, i - 2), i + 4).join('\n')}`);
  }
  console.log(JSON.stringify({ ok: true, types: Object.keys(buildClientSchema(body.data).getTypeMap()).length }));
} catch (e) {
  console.log(JSON.stringify({ ok: false, error: String(e && e.message || e) }));
}
