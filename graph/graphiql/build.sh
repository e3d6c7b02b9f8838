#!/usr/bin/env bash
# Rebuilds dist/, the GraphiQL page's bundle that the Go binary embeds
# (graph/graphiql.go), from the exact packages of package-lock.json:
#
#   dist/graphiql.min.js   index.jsx with React, GraphiQL, CodeMirror, graphql-js
#   dist/graphiql.min.css  their styles (fonts inlined as data: URLs)
#   dist/LICENSES.txt      the licence of every package in the two files
#
# The output depends only on the lockfile, the sources here and esbuild's
# version, so running it twice gives the same bytes; CI (.ci/run) runs it
# and fails when dist/ differs from what is committed. After changing a
# version in package.json: npm install, then this script, then commit
# package-lock.json and dist/ together.
set -euo pipefail
cd "$(dirname "$0")"

npm ci --no-audit --no-fund

meta="$(mktemp)"
trap 'rm -f "$meta"' EXIT
mkdir -p dist
rm -f dist/graphiql.min.js dist/graphiql.min.css dist/LICENSES.txt
banner='/*! Payline GraphiQL page: GraphiQL, React, CodeMirror and more; their licences are at /graphql/assets/LICENSES.txt (graph/graphiql/dist/LICENSES.txt) */'
node_modules/.bin/esbuild index.jsx \
    --bundle --minify \
    --format=iife --platform=browser --target=es2020 \
    --jsx=automatic \
    --define:process.env.NODE_ENV='"production"' \
    --legal-comments=none \
    --banner:js="$banner" --banner:css="$banner" \
    --charset=utf8 \
    --log-level=warning \
    --metafile="$meta" \
    --outfile=dist/graphiql.min.js
node licenses.mjs "$meta" > dist/LICENSES.txt
ls -l dist
