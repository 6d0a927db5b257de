import type { ServerResponse } from 'node:http';
import type { Clock } from '../clock.js';
import type { HeaderSink } from '../http/context.js';
import { GUARD_HEADERS, SERVER_TIME_HEADER } from '../http/faults-plugin.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const SERVER_TIME_HEADER_NAME = SERVER_TIME_HEADER.toLowerCase();

/** The headers of a direct answer (direct-reads.ts), in the order Fastify's would come: the guard's, the steps', the body's. */
export class ResponseHeaders implements HeaderSink {
  /** Names and values alternating, as `writeHead` takes them: no object with per-request keys. */
  private readonly fields: string[];

  constructor(clock: Clock) {
    this.fields = [SERVER_TIME_HEADER_NAME, String(clock.now())];
    for (const [name, value] of GUARD_HEADERS) this.fields.push(name, value);
  }

  header(name: string, value: string): void {
    // Fastify's reply keeps header names in lower case, and a repeated one replaces the earlier.
    const key = name.toLowerCase();
    for (let i = 0; i < this.fields.length; i += 2) {
      if (this.fields[i] === key) {
        this.fields[i + 1] = value;
        return;
      }
    }
    this.fields.push(key, value);
  }

  send(res: ServerResponse, status: number, body: string): void {
    const length = String(Buffer.byteLength(body));
    // A copy: a fault answered after a failed send starts from the same headers.
    res.writeHead(status, [...this.fields, 'content-type', JSON_TYPE, 'content-length', length]);
    res.end(body);
  }
}
