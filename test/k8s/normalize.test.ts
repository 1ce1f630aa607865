import { stripNulls } from '../../lib/k8s/normalize';

// objectmatcher v1.8.0 deletenull.go: objects and lists are cleaned by different rules.
describe('stripNulls', () => {
  it.each<[string, unknown, unknown]>([
    ['drops null members', { a: null, b: 1 }, { b: 1 }],
    ['drops "" members', { a: '', b: 'x' }, { b: 'x' }],
    ['keeps false and 0', { a: false, b: 0 }, { a: false, b: 0 }],
    ['keeps {} that was {}', { a: {} }, { a: {} }],
    ['drops an object emptied by cleaning', { a: { b: null, c: '' } }, {}],
    ['keeps [] ', { a: [] }, { a: [] }],
    ['keeps null elements of a list', { a: [null, 1] }, { a: [null, 1] }],
    ['keeps "" elements of a list', { a: ['', 'x'] }, { a: ['', 'x'] }],
    [
      'cleans object elements but keeps them when emptied',
      { a: [{ b: null }, { c: '', d: 1 }] },
      { a: [{}, { d: 1 }] },
    ],
    ['recurses into nested lists', { a: [[{ b: null }]] }, { a: [[{}]] }],
    [
      'typical pod noise',
      {
        metadata: { creationTimestamp: null, labels: { app: 'kafka' } },
        spec: { containers: [{ name: 'k', resources: {} }] },
        status: {},
      },
      {
        metadata: { labels: { app: 'kafka' } },
        spec: { containers: [{ name: 'k', resources: {} }] },
        status: {},
      },
    ],
  ])('%s', (_name, input, expected) => {
    expect(stripNulls(input)).toEqual(expected);
  });

  it('does not mutate its input', () => {
    const input = { a: null, b: { c: '' } };
    stripNulls(input);
    expect(input).toEqual({ a: null, b: { c: '' } });
  });
});
