// The bucket layout's prefixes (the logsPrefix, factsPrefix, reportsPrefix, statePrefix and
// findingsPrefix params), checked at package time: the templates use them as given, the
// functions through lib/aws/bucket-layout.ts, and only a layout that rule accepts makes the
// two agree (layoutProblems). A bad one fails here, saying why, not after a deploy.
const path = require('path');
const { require: tsxRequire } = require('tsx/cjs/api');

const { layoutProblems } = tsxRequire(
  path.join(__dirname, '..', 'lib', 'aws', 'bucket-layout.ts'),
  path.join(__dirname, 'layout.cjs'),
);

const PARAMS = ['logsPrefix', 'factsPrefix', 'reportsPrefix', 'statePrefix', 'findingsPrefix'];

async function checked({ resolveVariable }) {
  const layout = {};
  for (const p of PARAMS) layout[p] = String(await resolveVariable(`param:${p}`));
  const problems = layoutProblems(layout);
  if (problems.length > 0) throw new Error(`koperator-audit: ${problems.join('; ')}`);
  return 'checked';
}

module.exports = { checked, PARAMS };
