import { renderReport } from '../../lib/report';
import { CLASSIFICATIONS } from '../../lib/model/findings';
import { CLASS_STYLES } from '../../lib/report/colors';
import { buildFixture, FIXTURE_OPTIONS } from './fixture';

// eslint-disable-next-line no-control-regex -- matching ESC is the point
const ANSI = /\u001b\[[0-9;]*m/g;

describe('table report', () => {
  const doc = buildFixture();
  const plain = renderReport(doc, 'table', { color: false, ...FIXTURE_OPTIONS });
  const colored = renderReport(doc, 'table', { color: true, ...FIXTURE_OPTIONS });

  it('matches the snapshot without colour', () => {
    expect(plain).toMatchSnapshot();
  });

  it('matches the snapshot with colour', () => {
    expect(colored).toMatchSnapshot();
  });

  it('has no escape sequence at all without colour', () => {
    expect(plain).not.toContain('\u001b');
  });

  it('with colour, is the plain text plus SGR sequences only', () => {
    expect(colored.replace(ANSI, '')).toBe(plain);
  });

  it('paints each class in its palette colour', () => {
    for (const c of CLASSIFICATIONS) {
      expect(colored).toContain(`\u001b[${CLASS_STYLES[c].ansi}m${c}\u001b[0m`);
    }
  });

  it('lists loops before recreations, and recreations grouped by broker', () => {
    const loops = plain.indexOf('Loops (2)');
    const recreations = plain.indexOf('Recreations (16)');
    const inputs = plain.indexOf('\nInputs\n');
    expect(loops).toBeGreaterThan(0);
    expect(recreations).toBeGreaterThan(loops);
    expect(inputs).toBeGreaterThan(recreations);
    const pipeline = plain.indexOf('kafka/pipeline-kafka #4  5 recreations');
    expect(pipeline).toBeGreaterThan(recreations);
    expect(plain.slice(pipeline).split('\n').slice(1, 11).join('\n')).toMatch(
      /pipeline-kafka-4-a1b2c → pipeline-kafka-4-d3e4f/,
    );
  });

  it('aligns columns where the table fits: every loop row starts its cells at the header offsets', () => {
    const wide = renderReport(doc, 'table', { color: false, ...FIXTURE_OPTIONS, width: 200 });
    const lines = wide.split('\n');
    const header = lines.find((l) => l.includes('broker') && l.includes('state'));
    expect(header).toBeDefined();
    const classAt = header!.indexOf('class');
    const rows = lines.filter((l) => l.includes('external-mutation-revert') && l.includes('#'));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows.slice(0, 2)) expect(row.indexOf('external-mutation-revert')).toBe(classAt);
  });

  it('shows a downscale with no created pod and an unknown deleter', () => {
    expect(plain).toContain('orders-kafka-3-p4q8z → (none)');
    expect(plain).toMatch(/unknown\n\s+logs-kafka-0-9zz8y → logs-kafka-0-c4d5e {2}by \?/);
  });

  it('marks the active loop and the ended one, and says active is at the end of the logs', () => {
    expect(plain).toMatch(/kafka\/pipeline-kafka #4 .*ACTIVE /);
    expect(plain).toMatch(/kafka\/events-kafka #5 .*ended /);
    expect(plain).toContain('ACTIVE = still looping at the end of the logs, 2026-11-02 11:24:04 UTC');
  });

  it.each([60, 80, 100, 120, 200])('fits %i columns: no line is as wide as the terminal', (width) => {
    const out = renderReport(doc, 'table', { color: false, ...FIXTURE_OPTIONS, width });
    const widest = Math.max(...out.split('\n').map((l) => [...l].length));
    expect(widest).toBeLessThan(width);
  });

  it('prints each distinct recommendation once, however many loops share it', () => {
    const many = buildFixture();
    const base = many.loops[1];
    for (let i = 0; i < 20; i++)
      many.loops.push({ ...base, firstAt: `2026-11-02T12:${String(i).padStart(2, '0')}:00Z` });
    const out = renderReport(many, 'table', { color: false, width: 200 });
    const words = base.recommendation.split(' ').slice(0, 6).join(' ');
    expect(out.split(words).length - 1).toBe(1);
    // A broker's runs of loops with the same fields and mutators say them once (each fight says its own).
    const fights = many.fights?.length ?? 0;
    expect(out.match(/^ {6}fields {2}/gm)).toHaveLength(2 + fights);
    expect(out.match(/^ {6}by {6}/gm)).toHaveLength(2 + fights);
  });

  it('puts failed inputs in a banner above everything else', () => {
    const failed = buildFixture();
    failed.summary = {
      ...failed.summary,
      inputsOpened: 2,
      inputErrors: [{ input: 's3://audit/eks/', reason: 'no AWS region (set AWS_REGION or --region)' }],
    };
    const out = renderReport(failed, 'table', { color: false });
    expect(out.split('\n').slice(0, 2)).toEqual([
      '!! 1 INPUT COULD NOT BE READ: this report covers only the rest',
      '   s3://audit/eks/: no AWS region (set AWS_REGION or --region)',
    ]);
  });

  it('shortens long paths at a segment boundary, keeping the field', () => {
    const out = renderReport(doc, 'table', { color: false, width: 70 });
    expect(out).toContain('        spec.….preferredDuringSchedulingIgnoredDuringExecution\n');
  });

  it('neutralises terminal control characters from the logs', () => {
    const hostile = buildFixture();
    hostile.recreations[0].deletedPod.deletedBy = 'evil\u001b[2J\u001b]0;owned\u0007';
    const out = renderReport(hostile, 'table', { color: false });
    expect(out).not.toContain('\u001b');
    expect(out).toContain('evil\\u001b[2J\\u001b]0;owned\\u0007');
  });

  it('says so when there is nothing to show', () => {
    const out = renderReport({ recreations: [], loops: [], summary: {} }, 'table', { color: false });
    expect(out).toContain('No broker was re-created in a loop.');
    expect(out).toContain('No broker pod was deleted in the data read.');
    expect(out).toContain('(no input summary)');
  });
});
