// Params checked at package time against AWS's rules and each other (lib/deploy/stack-limits.ts):
// the concurrency params (Lambda refuses a mapping's MaximumConcurrency outside 2-1000 only
// when the stack is created, and a mapping above its function's reservation throttles
// itself), the raw logs' retention, never shorter than the facts built from them, and the
// tracing mode, one Lambda knows.
const path = require('path');
const { require: tsxRequire } = require('tsx/cjs/api');

const { concurrencyProblems, retentionProblems, tracingProblems } = tsxRequire(
  path.join(__dirname, '..', 'lib', 'deploy', 'stack-limits.ts'),
  path.join(__dirname, 'param-limits.cjs'),
);

const PARAMS = [
  'analyzeConcurrency',
  'ingestMaxConcurrency',
  'ingestReservedConcurrency',
  'reservedConcurrency',
  'rawLogsRetentionDays',
  'factsRetentionDays',
  'tracing',
];

async function checked({ resolveVariable }) {
  const params = {};
  for (const p of PARAMS) params[p] = String(await resolveVariable(`param:${p}`));
  const problems = [...concurrencyProblems(params), ...retentionProblems(params), ...tracingProblems(params)];
  if (problems.length > 0) throw new Error(`koperator-audit: ${problems.join('; ')}`);
  return 'checked';
}

module.exports = { checked, PARAMS };
