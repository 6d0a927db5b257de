import { describe, expect, it } from 'vitest';
import { parseConnectionDraft, parseConnectionId, parseServiceUrl } from './connection-input.js';

const TOKEN = 'eyJhbGciOiJQUzUxMiJ9.eyJzdWIiOiJhbGljZSJ9.c2ln';

describe('IPC arguments from the console', () => {
  it('accepts an origin and normalises it; refuses paths, credentials and other schemes', () => {
    expect(parseServiceUrl(' http://10.0.0.5:7788/ ')).toEqual({ ok: true, value: 'http://10.0.0.5:7788' });
    expect(parseServiceUrl('https://svc.example')).toEqual({ ok: true, value: 'https://svc.example' });
    for (const bad of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'http://u:p@h:1',
      'http://h:1/demo/v2',
      'http://h?x=1',
      '',
      42,
      null,
    ]) {
      expect(parseServiceUrl(bad).ok, String(bad)).toBe(false);
    }
  });

  it('accepts only short opaque ids', () => {
    expect(parseConnectionId('0b6c7a1e-2f3d-4b5c-8d9e-0f1a2b3c4d5e').ok).toBe(true);
    for (const bad of ['', '../x', 'A B', 'x'.repeat(65), 7, {}, undefined])
      expect(parseConnectionId(bad).ok).toBe(false);
  });

  it('accepts a complete draft for each kind', () => {
    expect(parseConnectionDraft({ name: ' Lab ', url: 'http://h:1', kind: 'session' })).toEqual({
      ok: true,
      value: { name: 'Lab', url: 'http://h:1', kind: 'session' },
    });
    expect(parseConnectionDraft({ name: 'T', url: 'http://h:1', kind: 'token', secret: TOKEN }).ok).toBe(true);
    expect(
      parseConnectionDraft({ name: 'S', url: 'http://h:1', kind: 'signing', appKey: 'k', principal: '', secret: 's' }),
    ).toEqual({ ok: true, value: { name: 'S', url: 'http://h:1', kind: 'signing', appKey: 'k', secret: 's' } });
  });

  it('refuses what does not fit the kind, unknown fields, wrong types and oversize values', () => {
    const refused = [
      null,
      [],
      'x',
      { name: 'A', url: 'http://h:1', kind: 'session', secret: 'pw' },
      { name: 'A', url: 'http://h:1', kind: 'token' },
      { name: 'A', url: 'http://h:1', kind: 'token', secret: 'not-a-jwt' },
      { name: 'A', url: 'http://h:1', kind: 'signing', secret: 's' },
      { name: 'A', url: 'http://h:1', kind: 'root' },
      { name: '', url: 'http://h:1', kind: 'session' },
      { name: 'x'.repeat(81), url: 'http://h:1', kind: 'session' },
      { name: 'A', url: 'http://h:1', kind: 'session', __proto__x: 1 },
      { name: 'A', url: 'http://h:1', kind: 'token', secret: 'x'.repeat(9000) },
      { name: 7, url: 'http://h:1', kind: 'session' },
      { id: '../etc', name: 'A', url: 'http://h:1', kind: 'session' },
    ];
    for (const input of refused) expect(parseConnectionDraft(input).ok, JSON.stringify(input)).toBe(false);
  });

  it('lets an edit keep the stored secret (no secret with an id)', () => {
    expect(parseConnectionDraft({ id: 'conn-1', name: 'T', url: 'http://h:1', kind: 'token' }).ok).toBe(true);
  });
});
