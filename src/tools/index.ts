// Subcommands of the command line besides starting the service:
// `npm run cli -- <name> ...`. Each tool is one module with a run function.
import { controlTool } from './control.js';
import { fwpkgTool } from './fwpkg.js';
import { licenseTool } from './license.js';
import type { Tool } from './tool.js';
import { uploadTool } from './upload.js';

export const TOOLS: Record<string, Tool> = {
  control: controlTool,
  fwpkg: fwpkgTool,
  license: licenseTool,
  upload: uploadTool,
};
