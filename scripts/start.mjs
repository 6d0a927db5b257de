// `npm start`: the desktop app where Electron's binary exists; otherwise says so and runs headless
// mode, which serves the same console at a printed URL.
import { spawn } from 'node:child_process';
import { findElectronBinary } from './electron-binary.mjs';

const found = findElectronBinary();
const args = process.argv.slice(2);

if ('path' in found) {
  const { ensureElectronNative } = await import('./electron-native.mjs');
  ensureElectronNative();
  const child = spawn(found.path, ['.', ...args], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log(`Electron is not available here: ${found.missing}.`);
  console.log('Running headless mode instead; open the console URL below in a browser.');
  const child = spawn(process.execPath, ['dist/main/cli.js', 'serve', ...args], { stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code) => process.exit(code ?? 0));
}
