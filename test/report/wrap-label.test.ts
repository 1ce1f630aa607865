import { fightLabelLines } from '../../lib/report/html/timeline';
import { wrapLabel } from '../../lib/report/html/wrap-label';

describe('wrapLabel', () => {
  it.each([
    ['short name', 'checkout-api', 30, ['checkout-api']],
    ['exactly one line', 'a'.repeat(30), 30, ['a'.repeat(30)]],
    [
      'before a slot rather than inside it',
      'payments-db/pg-ledger [pg-ledger-2]',
      30,
      ['payments-db/pg-ledger', '[pg-ledger-2]'],
    ],
    [
      'after a space',
      'fight · mutatingwebhookconfigurations',
      30,
      ['fight ·', 'mutatingwebhookconfigurations'],
    ],
    [
      'after a name separator when no word break is near',
      'monitoring/statefulsets-vmstorage-longterm',
      30,
      ['monitoring/statefulsets-', 'vmstorage-longterm'],
    ],
    [
      'a run with no separator where the line is full',
      'x'.repeat(65),
      30,
      ['x'.repeat(30), 'x'.repeat(30), 'x'.repeat(5)],
    ],
    [
      'a word break too early yields to a name break',
      'ab [cdefghij-klmnopqrstuvwxyz-0123456789]',
      30,
      ['ab [cdefghij-klmnopqrstuvwxyz-', '0123456789]'],
    ],
  ])('%s', (_name, text, width, lines) => {
    expect(wrapLabel(text, width)).toEqual(lines);
  });

  it('loses no character but the spaces it breaks at, and keeps every line within the width', () => {
    const name = 'istio-system/istio-sidecar-injector-1-24-3.cluster.local/very_long_object-name [slot-7]';
    for (const width of [8, 13, 21, 30, 200]) {
      const lines = wrapLabel(name, width);
      for (const l of lines) expect([...l].length).toBeLessThanOrEqual(width);
      expect(lines.join('').replace(/ /g, '')).toBe(name.replace(/ /g, ''));
    }
  });
});

describe('fightLabelLines', () => {
  const fight = (namespace: string | null, resource: string, name: string, slot?: string) => ({
    namespace,
    target: { apiGroup: 'g', resource, name, ...(slot !== undefined ? { slot } : {}) },
  });

  it.each([
    [
      'a namespaced object',
      fight('checkout', 'deployments', 'checkout-api'),
      ['fight · deployments'],
      ['checkout/checkout-api'],
    ],
    [
      'a cluster-scoped object has no namespace',
      fight(null, 'instances', 'orders-db'),
      ['fight · instances'],
      ['orders-db'],
    ],
    [
      'a slot that differs from the name',
      fight('db', 'clusters', 'pg', 'pg-2'),
      ['fight · clusters'],
      ['db/pg [pg-2]'],
    ],
    [
      'a slot equal to the name is said once',
      fight('db', 'clusters', 'pg', 'pg'),
      ['fight · clusters'],
      ['db/pg'],
    ],
    [
      'a long resource wraps, muted',
      fight(null, 'mutatingwebhookconfigurations', 'vault'),
      ['fight ·', 'mutatingwebhookconfigurations'],
      ['vault'],
    ],
  ])('%s', (_name, f, muted, plain) => {
    const lines = fightLabelLines(f);
    expect(lines.filter((l) => l.muted).map((l) => l.text)).toEqual(muted);
    expect(lines.filter((l) => !l.muted).map((l) => l.text)).toEqual(plain);
  });
});
