// A subcommand of the command line: one module per tool, listed in tools/index.ts.
export interface Tool {
  summary: string;
  run(argv: string[]): Promise<void>;
}
