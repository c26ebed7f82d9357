// Subcommands of the command line besides starting the service:
// `npm run cli -- <name> ...`. Each tool is one module with a run function.
import { fwpkgTool } from './fwpkg.js';
import { licenseTool } from './license.js';
import type { Tool } from './tool.js';

export const TOOLS: Record<string, Tool> = {
  fwpkg: fwpkgTool,
  license: licenseTool,
};
