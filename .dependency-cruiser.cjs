// The structure rules of docs/architecture.md ("Structure rules"), checked by `npm run lint` with
// dependency-cruiser over src/. tests/structure/structure-rules.test.ts runs this file against a fixture
// that breaks each rule once, so a rule that stops biting fails a test.
// There are no exceptions. One that becomes unavoidable goes in the rule's pathNot, with a comment on why.

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Modules that import each other, directly or round a loop, cannot be read, tested or moved apart, and ' +
        'their load order decides what is undefined at start. Type-only imports count: a loop of types is ' +
        'still two modules that must change together.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'web-not-to-server',
      severity: 'error',
      comment:
        'The browser app talks to the server over HTTP and the socket only; server code in the bundle would ' +
        'ship secrets and Node modules to every visitor. What both sides need lives in src/shared.',
      from: { path: '^src/web/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'shared-only-shared',
      severity: 'error',
      comment:
        'src/shared runs on both sides, so it imports nothing of ours outside src/shared (packages are fine).',
      from: { path: '^src/shared/' },
      to: { pathNot: ['^src/shared/', '(^|/)node_modules/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'shared-no-node',
      severity: 'error',
      comment: 'src/shared runs in the browser too: no node: modules.',
      from: { path: '^src/shared/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'composition-on-top',
      severity: 'error',
      comment:
        'src/server/composition wires the app together (app.ts, the /api routes, the timed jobs, the web ' +
        'pages): it may import anything, and only the entry points (main.ts, backup.ts) import it. A feature ' +
        'or a piece of infrastructure that imported it would depend on every feature at once (decision 046).',
      from: {
        path: '^src/server/',
        pathNot: ['^src/server/composition/', '^src/server/(main|backup)\\.ts$'],
      },
      to: { path: '^src/server/composition/' },
    },
    {
      name: 'infrastructure-below-features',
      severity: 'error',
      comment:
        'The infrastructure (http/, db/, adapters/, cache/, jobs/, metrics/ and the files at the top of ' +
        'src/server) serves every feature and knows none: what it needs from one (who a session is, a ' +
        "figure for /metrics) the composition passes in. Otherwise a change to a feature's service could " +
        'break the request pipeline or a loop could form through it (decision 046). demo/ seeds the demo ' +
        'campus through the features, as main.ts does, and is not infrastructure.',
      from: {
        path: '^src/server/',
        pathNot: ['^src/server/(features|composition|demo)/', '^src/server/(main|backup)\\.ts$'],
      },
      to: { path: '^src/server/features/' },
    },
    {
      name: 'below-http-not-to-http',
      severity: 'error',
      comment:
        'db/, adapters/, cache/, jobs/, metrics/ and the files at the top of src/server serve the request ' +
        'pipeline (http/) and code that runs without a request (jobs, scripts, backups): they import ' +
        'nothing of http/, so a job or a backup does not load Fastify plugins it never runs (decision 046).',
      from: {
        path: '^src/server/',
        pathNot: ['^src/server/(http|features|composition|demo)/', '^src/server/(main|backup)\\.ts$'],
      },
      to: { path: '^src/server/http/' },
    },
    {
      name: 'feature-through-service',
      severity: 'error',
      comment:
        'A server feature uses another feature only through its service.ts: the rest (queries, routes, rules) ' +
        'may change without the other features knowing. Type-only imports too: a type from queries.ts is a ' +
        'detail of the storage; the service exports the types others may use. Code that belongs to two ' +
        'features goes below both (db/, adapters/), not into one of them.',
      from: { path: '^src/server/features/([^/]+)/' },
      to: {
        path: '^src/server/features/[^/]+/',
        pathNot: ['^src/server/features/$1/', '^src/server/features/[^/]+/service\\.ts$'],
      },
    },
    {
      name: 'web-feature-through-api',
      severity: 'error',
      comment:
        'A web feature uses another only through its api.ts, the list of what it offers others (hooks, cache ' +
        'keys, components meant for reuse): the rest of the feature may change without the others knowing. ' +
        'What two features both need goes below them (src/web/lib, src/web/components), not into one of them; ' +
        'pages (src/web/routes) and the app shell put several features together (decision 047).',
      from: { path: '^src/web/features/([^/]+)/' },
      to: {
        path: '^src/web/features/[^/]+/',
        pathNot: ['^src/web/features/$1/', '^src/web/features/[^/]+/api\\.ts$'],
      },
    },
    {
      name: 'web-feature-not-to-pages',
      severity: 'error',
      comment:
        'Pages (src/web/routes) and the app shell (src/web/shell) put features together; a feature that ' +
        'imported them would depend on everything they hold, and on itself round the loop (decision 047).',
      from: { path: '^src/web/features/' },
      to: { path: '^src/web/(routes|shell)/' },
    },
    {
      name: 'web-lib-no-feature',
      severity: 'error',
      comment:
        'src/web/lib and src/web/components are what every feature may use, so they use no feature, page or ' +
        'shell: a helper that needs a feature belongs to that feature, or to the page that composes it ' +
        '(decision 047).',
      from: { path: '^src/web/(lib|components)/' },
      to: { path: '^src/web/(features|routes|shell)/' },
    },
    {
      name: 'resolvable',
      severity: 'error',
      comment:
        'An import the checker cannot follow is one it cannot judge either; TypeScript would refuse most, ' +
        'and this keeps an alias the checker misreads from hiding a broken rule.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: '(^|/)node_modules/' },
    // Type-only imports are seen too (TypeScript erases them before the checker would see the code).
    tsPreCompilationDeps: true,
    // The #shared/*, #server/* and #web/* aliases are package.json "imports", resolved natively.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
