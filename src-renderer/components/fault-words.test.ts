import { describe, expect, it } from 'vitest';
import { makeFault } from '../../src-shared/faults';
import { consoleFault } from '../api/api-error';
import { categoryOf, describeFault } from './fault-words';

describe('describeFault', () => {
  it('uses plain words for a known errCode and keeps the errCode', () => {
    const words = describeFault(makeFault('accessDenied', 'invalidCredentials'));
    expect(words.headline).toBe('The email or password is not correct.');
    expect(words.errCode).toBe('service.accessDenied.invalidCredentials');
    expect(words.status).toBe(403);
  });

  it('says a script error is the script failing, with its message as detail (not a service error)', () => {
    const words = describeFault(
      makeFault('invalidArgument', 'script', { message: 'Error: boom at 2', reason: 'boom at 2' }),
    );
    expect(words).toMatchObject({
      headline: 'The script threw an error.',
      detail: 'boom at 2',
      errCode: 'service.invalidArgument.script',
      status: 400,
    });
  });

  it('lets a known child fault explain its parent', () => {
    const locked = makeFault('accessDenied', 'accountLocked');
    const words = describeFault(makeFault('accessDenied', 'invalidCredentials', { faults: [locked] }));
    expect(words.headline).toMatch(/locked/);
    expect(words.errCode).toBe('service.accessDenied.invalidCredentials');
    expect(words.cause).toBe('service.accessDenied.accountLocked');
    expect(words.children).toEqual([]);
  });

  it('falls back to the category and shows the service reason and path as detail', () => {
    const words = describeFault(
      makeFault('validation', 'format', { message: 'Bad email.', reason: 'Not an email address', path: 'email' }),
    );
    expect(words.headline).toBe('Some values are not valid.');
    expect(words.detail).toBe('Not an email address');
    expect(words.path).toBe('email');
  });

  it('does not repeat the headline as detail', () => {
    const words = describeFault(consoleFault('network.unreachable', 0, 'The service could not be reached.'));
    expect(words.headline).toBe('The service could not be reached.');
    expect(words.detail).toBeUndefined();
  });

  it('lists child faults it has no words for, with their paths', () => {
    const tooLong = makeFault('validation', 'maxLength', { path: 'name.first', message: 'Too long.' });
    const badFormat = makeFault('validation', 'format', { path: 'email', message: 'Not an email.' });
    const words = describeFault(makeFault('validation', undefined, { faults: [tooLong, badFormat] }));
    expect(words.headline).toBe('Some values are not valid.');
    expect(words.children.map((child) => [child.path, child.detail])).toEqual([
      ['name.first', 'Too long.'],
      ['email', 'Not an email.'],
    ]);
  });
});

describe('categoryOf', () => {
  it('reads the category of service errCodes only', () => {
    expect(categoryOf('service.notFound.app')).toBe('notFound');
    expect(categoryOf('console.network.unreachable')).toBeUndefined();
  });
});
