import { closeSync, fdatasyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { ensurePrivateFile } from '../../db/private-files.js';

/** One remembered nonce, as the journal stores it (`nonce` already lower-case). */
export interface JournalEntry {
  appId: number;
  nonce: string;
  expires: number;
}

/** A line of the log: `<expires> <appId> <nonce>\n`, the nonce's key form (16 lower-case letters/digits). */
const LINE = /^(\d{1,16}) (\d{1,16}) ([a-z0-9]{16})$/;

/** The text of entries as log lines. */
export function logLines(entries: readonly JournalEntry[]): string {
  let text = '';
  for (const e of entries) text += `${e.expires} ${e.appId} ${e.nonce}\n`;
  return text;
}

/**
 * The entries of a log's text. A line that does not parse is skipped: what a write cut short left
 * (by a power cut at the end of the log; by a failed write anywhere, which `NonceLog.write` ends
 * with a newline before writing again). A cut line parses only when nothing but its newline is
 * missing, and then it is whole.
 */
export function parseLogLines(text: string): JournalEntry[] {
  const entries: JournalEntry[] = [];
  const lines = text.split('\n');
  lines.pop(); // what follows the last newline is empty, or a line whose write did not finish
  for (const line of lines) {
    const m = LINE.exec(line);
    if (m) entries.push({ expires: Number(m[1]), appId: Number(m[2]), nonce: m[3]! });
  }
  return entries;
}

/**
 * The append-only half of the replay journal (replay-journal.ts): the nonces accepted since the
 * journal's database last took them in, one line each, written with a single `write` on an
 * `O_APPEND` descriptor before their requests are answered.
 *
 * Why a plain file in front of the database: a database commit per event-loop turn cost a signed
 * request about 40 µs of service CPU (B-tree insert, WAL frame header and page, commit
 * bookkeeping); a line appended here is one small system call. The database still holds the
 * window's nonces in an order it can prune; the journal moves the log into it in bulk
 * (`ReplayJournal.checkpoint`) and empties the log.
 *
 * Only the process holding the journal database's exclusive lock opens the log, so writes never
 * interleave between processes. `durable` makes every write reach the disk before it returns
 * (`fdatasync`), for a service whose database runs at `synchronous = FULL`.
 */
export class NonceLog {
  /** The last write failed, perhaps after part of a line: the next one starts on a new line. */
  private torn = false;

  private constructor(
    private readonly file: string,
    private fd: number,
    private readonly durable: boolean,
    private readonly writeBytes: typeof writeSync,
  ) {}

  /** `writeBytes` is `fs.writeSync` but in tests, which make writes fail part-way. */
  static open(file: string, durable: boolean, writeBytes: typeof writeSync = writeSync): NonceLog {
    ensurePrivateFile(file);
    return new NonceLog(file, openSync(file, 'a'), durable, writeBytes);
  }

  /**
   * Appends text that `logLines` made; throws when the write fails (the requests then fail). A
   * write that fails after part of its text leaves a fragment, which must not run into the next
   * write's first line (that line's nonce would then be lost when the log is read back).
   */
  write(text: string): void {
    const bytes = Buffer.from(this.torn ? `\n${text}` : text, 'latin1'); // the lines are ASCII
    this.torn = true;
    let at = 0;
    while (at < bytes.length) at += this.writeBytes(this.fd, bytes, at, bytes.length - at);
    if (this.durable) fdatasyncSync(this.fd);
    this.torn = false;
  }

  /** The entries the log holds now. */
  entries(): JournalEntry[] {
    return parseLogLines(readFileSync(this.file, 'latin1'));
  }

  /** Empties the log, once the database holds what it had (and has it on disk when `durable`). */
  truncate(): void {
    ftruncateSync(this.fd, 0);
    if (this.durable) fdatasyncSync(this.fd);
  }

  close(): void {
    if (this.fd < 0) return;
    closeSync(this.fd);
    this.fd = -1;
  }
}
