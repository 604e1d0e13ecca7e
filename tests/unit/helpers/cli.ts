/** The CLI run in-process, through the same entry as bin/toolmem.mjs (fast; no child process). */
import { main } from '../../../src/cli/main';

export interface CliRun {
  code: number;
  /** Every line printed to stdout, each ending in a newline. */
  stdout: string;
  stderr: string;
}

export async function toolmem(args: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { out: (t) => void (stdout += `${t}\n`), err: (t) => void (stderr += `${t}\n`) });
  return { code, stdout, stderr };
}
