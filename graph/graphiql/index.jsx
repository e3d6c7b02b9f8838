// GraphiQL for GET /graphql. build.sh bundles this file, with React,
// GraphiQL and CodeMirror, into dist/graphiql.min.js and .css, which the
// Go binary embeds and serves under /graphql/assets/: the page loads
// nothing from anywhere else, and runs no inline script (its CSP allows
// none); this bundle mounts itself on #graphiql.
import { useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQLInterface, GraphiQLProvider } from 'graphiql';
import { useEditorContext } from '@graphiql/react';
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { buildSchema } from 'graphql';

import '@graphiql/react/font/roboto.css';
import '@graphiql/react/font/fira-code.css';
import '@graphiql/react/dist/style.css';
import 'graphiql/src/style.css';
import './page.css';

// Queries and mutations authenticate with the API secret in x-api-secret,
// as REST does; subscriptions go over a websocket on the same path, whose
// connection_init payload carries the same headers. The headers are never
// stored (shouldPersistHeaders is false).
const PLACEHOLDER = 'YOUR_SECRET';
const HEADERS = `{\n  "x-api-secret": "${PLACEHOLDER}"\n}`;

// The saved examples of the console this page replaced, one tab each.
const EXAMPLES = [
  {
    query: `# Put your API secret in the headers below (x-api-secret), then run with the
# button or Ctrl-Enter. Ctrl-Space completes fields; the book icon opens the docs.
query EndUsers {
  endUsers(first: 10) {
    edges { node { endUserId firstConnectedAt accounts(first: 5) { totalCount } } }
    pageInfo { hasNextPage endCursor }
  }
}
`,
  },
  {
    query: `query EndUserDashboard($id: ID!) {
  endUser(id: $id) {
    accounts(first: 10) {
      edges { node {
        id connected monitoringStatus
        platform { name }
        jobs(first: 5) { edges { node { name outcome timestamp } } }
        paystubs(first: 3) { edges { node { payDate netPay { formatted } } } }
        income { compensation { formatted } compensationUnit }
      } }
    }
  }
}
`,
    variables: '{\n  "id": "user-1"\n}',
  },
  {
    query: `query RecentJobs {
  jobs(first: 10) {
    edges { node { id name outcome timestamp account { id endUser { endUserId } } } }
  }
}
`,
  },
].map((tab) => ({ ...tab, headers: HEADERS }));

const fetcher = createGraphiQLFetcher({
  url: '/graphql',
  subscriptionUrl: `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`,
});

// GraphiQL keeps headers per tab. CarrySecret copies the headers last typed
// with a real secret into a tab that still has the placeholder when it is
// opened, so the secret is entered once per page, not once per tab.
function CarrySecret() {
  const { activeTabIndex, tabs, headerEditor } = useEditorContext({ nonNull: true });
  const last = useRef('');
  useEffect(() => {
    if (!headerEditor) return undefined;
    const remember = () => {
      const v = headerEditor.getValue();
      if (v.trim() && !v.includes(PLACEHOLDER)) last.current = v;
    };
    remember();
    headerEditor.on('change', remember);
    return () => headerEditor.off('change', remember);
  }, [headerEditor]);
  useEffect(() => {
    if (!headerEditor || !last.current) return;
    const v = headerEditor.getValue();
    if (!v.trim() || v.includes(PLACEHOLDER)) headerEditor.setValue(last.current);
  }, [activeTabIndex, tabs.length, headerEditor]);
  return null;
}

function App({ schema }) {
  return (
    <GraphiQLProvider
      fetcher={fetcher}
      schema={schema}
      defaultTabs={EXAMPLES}
      defaultQuery={EXAMPLES[0].query}
      defaultHeaders={HEADERS}
      shouldPersistHeaders={false}
    >
      <CarrySecret />
      <GraphiQLInterface
        isHeadersEditorEnabled
        showPersistHeadersSettings={false}
        defaultEditorToolsVisibility="headers"
      />
    </GraphiQLProvider>
  );
}

// The schema comes from /graphql/schema.graphql, which needs no secret, so
// the docs and completion work before a secret is typed, and with
// introspection off (--graphql-introspection=false). Should that fail,
// GraphiQL introspects with the headers instead.
async function loadSchema() {
  try {
    const res = await fetch('/graphql/schema.graphql');
    if (!res.ok) throw new Error(`GET /graphql/schema.graphql: ${res.status}`);
    return buildSchema(await res.text());
  } catch (err) {
    console.error(err);
    return undefined;
  }
}

function Root() {
  const [schema, setSchema] = useState(null);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    loadSchema().then((s) => {
      setSchema(s);
      setLoaded(true);
    });
  }, []);
  return loaded ? <App schema={schema} /> : null;
}

createRoot(document.getElementById('graphiql')).render(<Root />);
