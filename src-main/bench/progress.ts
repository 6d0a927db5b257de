/** One progress line on stderr: rewritten in place on a terminal, one line each otherwise. */
export const progress = (text: string) =>
  process.stderr.isTTY ? process.stderr.write(`\r${text}\u001b[K`) : process.stderr.write(`${text}\n`);
export const progressDone = () => process.stderr.isTTY && process.stderr.write('\r\u001b[K');
