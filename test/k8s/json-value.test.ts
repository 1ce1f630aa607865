import { nonEmptyString, stringAt } from '../../lib/k8s/json-value';

describe('nonEmptyString', () => {
  it.each<[unknown, string | null]>([
    ['kafka', 'kafka'],
    ['', null],
    [null, null],
    [undefined, null],
    [3, null],
    [{ a: 'b' }, null],
  ])('%p → %p', (v, want) => {
    expect(nonEmptyString(v)).toBe(want);
  });
});

describe('stringAt', () => {
  const event = { metadata: { name: 'events-kafka-1-x7k2p', uid: '' }, spec: ['x'] };
  it.each<[string[], string | null]>([
    [['metadata', 'name'], 'events-kafka-1-x7k2p'],
    [['metadata', 'uid'], null], // empty: no uid
    [['metadata', 'missing'], null],
    [['spec', '0'], null], // lists are not walked
    [[], null], // the value itself is no string
  ])('%p → %p', (keys, want) => {
    expect(stringAt(event, ...keys)).toBe(want);
  });
});
