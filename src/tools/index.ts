// Subcommands of the command line besides starting the service:
// `npm run cli -- <name> ...`. Each tool is one module with a run function.
export interface Tool {
  summary: string;
  run(argv: string[]): Promise<void>;
}

export const TOOLS: Record<string, Tool> = {};
