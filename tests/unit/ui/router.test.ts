import { beforeAll, describe, expect, it } from 'vitest';

// The router reads `location.hash` and listens on `window`: stand-ins for Node.
const fakeLocation = { hash: '#/memory' };
const fakeWindow = new EventTarget();
beforeAll(() => {
  Object.assign(globalThis, { location: fakeLocation, window: fakeWindow });
});
const { Router, parse, ROUTES } = await import('../../../src/ui/router.svelte');

describe('hash router', () => {
  it('names a page by its hash; anything else is the Data page', () => {
    expect(ROUTES.map((r) => parse(`#/${r}`))).toEqual([...ROUTES]);
    expect(parse('#/evaluate?run=3')).toBe('evaluate');
    expect(parse('#memory/x')).toBe('memory');
    for (const odd of ['', '#', '#/', '#/nowhere', '#/__proto__', '#/constructor', '#/Data']) expect(parse(odd), odd).toBe('data');
  });

  it('starts on the page of the hash, follows hash changes, and go() sets the hash', () => {
    const r = new Router();
    expect(r.current).toBe('memory');
    fakeLocation.hash = '#/label';
    fakeWindow.dispatchEvent(new Event('hashchange'));
    expect(r.current).toBe('label');
    r.go('tools');
    expect(fakeLocation.hash).toBe('#/tools');
    fakeWindow.dispatchEvent(new Event('hashchange'));
    expect(r.current).toBe('tools');
  });
});
