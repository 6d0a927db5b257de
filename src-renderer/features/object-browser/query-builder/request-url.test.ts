import { describe, expect, it } from 'vitest';
import { driverCallCommand, requestUrl, scriptCall, signedCurlScript, tokenCurlCommand } from './request-url';

describe('requestUrl and curlCommand', () => {
  it('writes where and sort as URL-encoded JSON and paths as paths[]', () => {
    const url = requestUrl('http://127.0.0.1:7788', 'demo', 'accounts', {
      where: { 'name.last': { $regex: '/^s/i' } },
      sort: { 'name.last': 1 },
      skip: 0,
      limit: 5,
      paths: ['email', 'name'],
    });
    expect(url).toBe(
      'http://127.0.0.1:7788/demo/v2/accounts?where=%7B%22name.last%22%3A%7B%22%24regex%22%3A%22%2F%5Es%2Fi%22%7D%7D' +
        '&sort=%7B%22name.last%22%3A1%7D&limit=5&paths%5B%5D=email&paths%5B%5D=name',
    );
    const parsed = new URL(url);
    expect(JSON.parse(parsed.searchParams.get('where') ?? '')).toEqual({ 'name.last': { $regex: '/^s/i' } });
  });

  it('quotes for the shell; the person supplies a token, not a cookie jar', () => {
    expect(tokenCurlCommand("http://h/x?a='b'", 'KEY')).toBe(
      `curl -s -H 'Service-Client-Key: KEY' -H "Authorization: Bearer $TOKEN" 'http://h/x?a='\\''b'\\'''`,
    );
  });

  it('signs with version 2 over the command and canonical query of the shared canonicaliser', () => {
    const script = signedCurlScript('http://h:1/demo/v2/accounts?where=%7B%22a%22%3A1%7D&limit=5') ?? '';
    expect(script).toContain(`'/accounts'`);
    expect(script).toContain(`'limit=5&where=%7B%22a%22%3A1%7D'`);
    expect(script).toContain("-H 'Service-Client-Signature-Version: 2'");
    expect(script).not.toContain('cookies.txt');
  });

  it('stamps milliseconds portably: no GNU-only `date +%s%3N` (macOS prints a literal "3N")', () => {
    const script = signedCurlScript('http://h:1/demo/v2/accounts?limit=5') ?? '';
    expect(script).toContain('TS=$(($(date +%s) * 1000))');
    expect(script).not.toContain('%3N');
  });

  it('writes the query as a Scripts-screen cursor', () => {
    const url = requestUrl('http://h', 'demo', 'accounts', {
      where: { favorite: true },
      sort: { email: 1 },
      skip: 20,
      limit: 10,
      paths: ['email'],
    });
    expect(scriptCall(url, 'accounts')).toBe(
      'return org.objects.accounts.find({"favorite":true})\n  .sort({"email":1})\n  .skip(20)\n  .limit(10)\n  .paths(["email"])\n  .toArray();\n',
    );
  });

  it('builds a driver call: POST …/db/cursor with where, sort, skip, limit and paths as the JSON body', () => {
    const url = requestUrl('http://127.0.0.1:7788', 'demo', 'accounts', {
      where: { email: { $in: ["o'neil@x.test"] } },
      sort: { 'name.last': -1 },
      skip: 20,
      limit: 5,
      paths: ['email', 'name'],
    });
    const command = driverCallCommand(url, 'KEY');
    expect(command).toBe(
      `curl -s -b cookies.txt -H 'Service-Client-Key: KEY' -H "Service-Csrf-Token: $CSRF" ` +
        `-H 'Content-Type: application/json' ` +
        `--data '{"where":{"email":{"$in":["o'\\''neil@x.test"]}},"sort":{"name.last":-1},"skip":20,"limit":5,"paths":["email","name"]}' ` +
        `'http://127.0.0.1:7788/demo/v2/accounts/db/cursor'`,
    );
    expect(driverCallCommand('http://h:1/demo/v2/accounts', 'K')).toContain(
      `--data '{}' 'http://h:1/demo/v2/accounts/db/cursor'`,
    );
  });
});
