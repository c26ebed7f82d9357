// Subcommands of the command line besides starting the service:
// `npm run cli -- <name> ...`. Each tool is one module with a run function,
// loaded only when asked for: starting the service does not pay for their
// HTTP client and progress bars.
import type { Tool } from './tool.js';

export const TOOLS: Record<string, () => Promise<Tool>> = {
  control: async () => (await import('./control.js')).controlTool,
  faults: async () => (await import('./faults.js')).faultsTool,
  fwpkg: async () => (await import('./fwpkg.js')).fwpkgTool,
  license: async () => (await import('./license.js')).licenseTool,
  upload: async () => (await import('./upload.js')).uploadTool,
};
