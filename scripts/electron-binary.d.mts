export function findElectronBinary(env?: NodeJS.ProcessEnv): { path: string } | { missing: string };
export function electronVersion(): string;
