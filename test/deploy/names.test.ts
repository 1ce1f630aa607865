// The stage rules infra/names.cjs enforces at package time, and the Glue database name it derives.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const names = require('../../infra/names.cjs') as {
  stageProblem(stage: unknown): string | null;
  glueDatabaseName(stage: string): string;
  MAX_STAGE: number;
  stage(ctx: { resolveVariable(v: string): Promise<unknown> }): Promise<string>;
};

describe('stage names', () => {
  it('leaves 31 characters for the stage: the longest function name then has 64', () => {
    expect(names.MAX_STAGE).toBe(31);
    expect(`koperator-audit-${'a'.repeat(names.MAX_STAGE)}-dispatchAnalysis`).toHaveLength(64);
  });

  it.each([
    ['dev', null],
    ['team-a-prod', null],
    ['production-eu-west-1-team-kafka', null],
    ['production-eu-west-1-team-kafka2', /32 characters; at most 31/],
    ['Prod', /lowercase/],
    ['team_a', /lowercase letters, digits and hyphens/],
    ['1st', /start with a lowercase letter/],
    ['prod-', /end in a hyphen/],
    ['a--b', /two in a row/],
    ['', /empty/],
  ])('%j: %s', (stage, problem) => {
    const got = names.stageProblem(stage);
    if (problem === null) expect(got).toBeNull();
    else expect(got).toMatch(problem);
  });

  it.each([
    ['test', 'koperator_audit_test'],
    ['team-a-prod', 'koperator_audit_team_a_prod'],
  ])('stage %s: Glue database %s (no hyphen for Athena to trip on)', (stage, db) => {
    expect(names.glueDatabaseName(stage)).toBe(db);
  });

  it('refuses a bad stage when the template is resolved, saying why', async () => {
    await expect(names.stage({ resolveVariable: async () => 'Prod' })).rejects.toThrow(
      /koperator-audit: stage "Prod" must start with a lowercase letter/,
    );
    await expect(names.stage({ resolveVariable: async () => 'team-a' })).resolves.toBe('team-a');
  });
});
