/** Child processes of the benches (the service, the floor): started, and ready when they say so. */
import { spawn, type ChildProcess } from 'node:child_process';

/** Starts `node <args>` and resolves once its stdout matches `ready` (e.g. the port it printed). */
export function startChild(
  args: string[],
  ready: RegExp,
  env?: Record<string, string>,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    ...(env ? { env: { ...process.env, ...env } } : {}),
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = ready.exec(out);
      if (m) resolve({ child, match: m });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${out}`)));
  });
}

/** The same, for a child that prints its port as the first group of `ready`. */
export async function startListeningChild(
  args: string[],
  ready: RegExp,
  env?: Record<string, string>,
): Promise<{ child: ChildProcess; port: number }> {
  const { child, match } = await startChild(args, ready, env);
  return { child, port: Number(match[1]) };
}
