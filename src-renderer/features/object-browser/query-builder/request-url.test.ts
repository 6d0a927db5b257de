import { describe, expect, it } from 'vitest';
import { curlCommand, driverCallCommand, requestUrl } from './request-url';

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

  it('quotes for the shell', () => {
    expect(curlCommand("http://h/x?a='b'", 'KEY')).toBe(
      `curl -s -b cookies.txt -H 'Service-Client-Key: KEY' 'http://h/x?a='\\''b'\\'''`,
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
