// The layer rules of docs/ARCHITECTURE.md, checked by `npm run lint`.
// Imports go down: api -> protocol | domain | platform -> messages | store -> lib.
// No layer imports the top-level files (app, cli, config), except that api may
// read the configuration. test/ may import anything; src/ never imports test/.
const layer = (name) => `^src/${name}/`;
const TOP_LEVEL = ['app', 'cli', 'config'];
const forbid = (from, to, comment, topLevel = TOP_LEVEL) => ({
  name: `${from}-not-to-${to.join('-')}`,
  comment,
  severity: 'error',
  from: { path: layer(from) },
  to: { path: `^src/(${to.join('|')})/|^src/(${topLevel.join('|')})\\.ts$` },
});

module.exports = {
  forbidden: [
    forbid('lib', ['api', 'protocol', 'domain', 'platform', 'messages', 'store', 'http', 'tools', 'discovery'], 'lib is dependency-free'),
    forbid('store', ['api', 'protocol', 'domain', 'platform', 'messages', 'http', 'tools'], 'store knows only SQLite and lib'),
    forbid('messages', ['api', 'protocol', 'domain', 'platform', 'store', 'http', 'tools'], 'registries are data'),
    forbid(
      'platform',
      ['api', 'protocol', 'domain', 'http', 'tools'],
      'the simulated hardware does not know the API or the service state machines',
    ),
    forbid('domain', ['api', 'protocol', 'http', 'tools'], 'the service state machines do not know HTTP or Redfish routing'),
    forbid('protocol', ['api', 'domain', 'http', 'tools'], 'the protocol layer is written once, for every area'),
    forbid('api', ['http', 'tools'], 'areas do not know the listener; they may read the configuration (config.ts)', ['app', 'cli']),
    forbid('http', ['api', 'domain', 'tools', 'discovery'], 'the listener carries bytes only'),
    forbid('discovery', ['api', 'domain', 'protocol', 'http', 'tools'], 'SSDP answers from what it is handed'),
    {
      name: 'domain-platform-not-to-resource-uris',
      comment: 'the domain and the simulator do not know Redfish routing: the composition root hands them the URIs they name',
      severity: 'error',
      from: { path: '^src/(domain|platform)/' },
      to: { path: '^src/lib/resource-uris\\.ts$' },
    },
    {
      name: 'only-cli-to-fleet',
      comment: 'a fleet is built from whole controllers (app.ts): only the command line starts one',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(fleet/|cli\\.ts$)' },
      to: { path: '^src/fleet/' },
    },
    {
      name: 'only-app-to-compose',
      comment: "the composition root's steps (src/compose/) are run by app.ts only; no part reaches back into them",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(compose/|app\\.ts$)' },
      to: { path: '^src/compose/' },
    },
    {
      name: 'src-not-to-test',
      comment: 'the service never depends on test code (tests may import anything)',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^test/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-circular-folders',
      comment:
        'folders depend on each other one way only (api/systems may use api/chassis, not both): a piece two folders share moves down, or into the folder it belongs to',
      severity: 'error',
      scope: 'folder',
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
