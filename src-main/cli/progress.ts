/**
 * A progress line on stderr: rewritten in place on a terminal, one line per 10% otherwise (logs
 * and CI stay readable).
 */
export function progressReporter(label: string, stream: NodeJS.WriteStream = process.stderr) {
  const started = Date.now();
  let lastDecile = -1;
  return (done: number, total?: number) => {
    const secs = ((Date.now() - started) / 1000).toFixed(1);
    const pct = total ? Math.floor((done / total) * 100) : undefined;
    const text = `${label} ${done.toLocaleString('en-US')}${total ? `/${total.toLocaleString('en-US')} (${pct}%)` : ''} ${secs}s`;
    if (stream.isTTY) {
      stream.write(`\r${text}\u001b[K`);
      if (total && done >= total) stream.write('\n');
    } else {
      const decile = pct === undefined ? Math.floor(done / 10000) : Math.floor(pct / 10);
      if (decile !== lastDecile) {
        lastDecile = decile;
        stream.write(`${text}\n`);
      }
    }
  };
}
