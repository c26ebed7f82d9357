// The layer rules of docs/ARCHITECTURE.md, checked by `npm run lint`.
// Imports go down: api -> protocol | domain | platform -> messages | store -> lib.
const layer = (name) => `^src/${name}/`;
const forbid = (from, to, comment) => ({
  name: `${from}-not-to-${to.join('-')}`,
  comment,
  severity: 'error',
  from: { path: layer(from) },
  to: { path: `^src/(${to.join('|')})/|^src/(app|cli|config)\\.ts$` },
});

module.exports = {
  forbidden: [
    forbid('lib', ['api', 'protocol', 'domain', 'platform', 'messages', 'store', 'http', 'tools'], 'lib is dependency-free'),
    forbid('store', ['api', 'protocol', 'domain', 'platform', 'messages', 'http', 'tools'], 'store knows only SQLite and lib'),
    forbid('messages', ['api', 'protocol', 'domain', 'platform', 'store', 'http', 'tools'], 'registries are data'),
    forbid('platform', ['api', 'protocol', 'domain', 'http', 'tools'], 'the simulated hardware does not know the API or the service state machines'),
    forbid('domain', ['api', 'protocol', 'http', 'tools'], 'the service state machines do not know HTTP or Redfish routing'),
    forbid('protocol', ['api', 'domain', 'http', 'tools'], 'the protocol layer is written once, for every area'),
    forbid('api', ['http', 'tools'], 'areas do not know the listener'),
    forbid('http', ['api', 'domain', 'tools'], 'the listener carries bytes only'),
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
