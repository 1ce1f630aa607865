// The emulated stack's settings come from the deployment's templates: each case edits the
// sources as a change to the repository would, and the setting follows.
import {
  analysisMaxReceiveCount,
  readDeploymentSources,
  type DeploymentSources,
} from '../../lib/local-aws/deployed-settings';

const sources = readDeploymentSources();
type Edit = [file: string, from: RegExp, to: string];
const edit = (...edits: Edit[]): DeploymentSources => {
  const out: DeploymentSources = { serverless: sources.serverless, infra: { ...sources.infra } };
  for (const [file, from, to] of edits) {
    const text = file === 'serverless.yml' ? out.serverless : out.infra[file]!;
    if (!from.test(text)) throw new Error(`${file} has no ${from}`);
    if (file === 'serverless.yml') out.serverless = text.replace(from, to);
    else out.infra[file] = text.replace(from, to);
  }
  return out;
};
const reserved = (on: boolean): Edit => [
  'serverless.yml',
  /^(\s+reservedConcurrency:) '\w+'$/m,
  `$1 '${on}'`,
];
const counts = (withReservation: number, without: number): Edit => [
  'fleet.yml',
  /maxReceiveCount: \{ 'Fn::If': \[ReserveConcurrency, \d+, \d+\] \}/,
  `maxReceiveCount: { 'Fn::If': [ReserveConcurrency, ${withReservation}, ${without}] }`,
];

describe('the analysis queue’s maxReceiveCount, as a default deployment has it', () => {
  it.each<[string, DeploymentSources, number]>([
    ['without reservations', edit(reserved(false), counts(5, 6)), 6],
    ['with reservations', edit(reserved(true), counts(5, 6)), 5],
    ['a plain count', edit(['fleet.yml', /maxReceiveCount: \{[^}]*\}/, 'maxReceiveCount: 7']), 7],
  ])('%s', (_, src, expected) => expect(analysisMaxReceiveCount(src)).toBe(expected));

  it.each<[string, DeploymentSources, RegExp]>([
    [
      'a condition the templates do not define',
      edit(['fleet.yml', /\[ReserveConcurrency,/, '[NoSuchCondition,']),
      /Conditions NoSuchCondition: in 0 infra files/,
    ],
    [
      'a value only CloudFormation knows',
      edit(['fleet.yml', /maxReceiveCount: \{[^}]*\}/, "maxReceiveCount: { Ref: 'AWS::NoValue' }"]),
      /cannot resolve/,
    ],
  ])('refuses %s', (_, src, expected) => expect(() => analysisMaxReceiveCount(src)).toThrow(expected));
});
