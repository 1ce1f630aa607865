// Names derived from the stage, checked at package time so that a stage AWS would refuse
// fails here, with the rule it breaks, instead of half-way through a deploy.
//  - Lambda function names (<service>-<stage>-<function>) are at most 64 characters; the
//    longest function key, dispatchAnalysis, leaves 31 for the stage.
//  - The created bucket (<service>-<stage>-<12 hex digits>) must be lowercase, at most 63.
//  - Glue and Athena want database names of lowercase letters, digits and underscores:
//    a hyphen needs quoting in every query, so the database name maps it to `_`.
const SERVICE = 'koperator-audit';
const LONGEST_FUNCTION = 'dispatchAnalysis';
const MAX_STAGE = 64 - `${SERVICE}--${LONGEST_FUNCTION}`.length;

/** The reason a stage is refused, or null. */
function stageProblem(stage) {
  if (typeof stage !== 'string' || stage === '') return 'the stage is empty';
  if (!/^[a-z][a-z0-9-]*$/.test(stage))
    return `stage "${stage}" must start with a lowercase letter and hold only lowercase letters, digits and hyphens (it is part of the S3 bucket name)`;
  if (stage.endsWith('-') || stage.includes('--'))
    return `stage "${stage}" must not end in a hyphen or hold two in a row`;
  if (stage.length > MAX_STAGE)
    return `stage "${stage}" has ${stage.length} characters; at most ${MAX_STAGE} keep the function name ${SERVICE}-<stage>-${LONGEST_FUNCTION} within Lambda's 64`;
  return null;
}

function glueDatabaseName(stage) {
  return `${SERVICE}_${stage}`.replace(/-/g, '_');
}

async function checkedStage({ resolveVariable }) {
  const stage = await resolveVariable('sls:stage');
  const problem = stageProblem(stage);
  if (problem) throw new Error(`koperator-audit: ${problem}`);
  return stage;
}

module.exports = {
  stage: checkedStage,
  glueDatabase: async (ctx) => glueDatabaseName(await checkedStage(ctx)),
  stageProblem,
  glueDatabaseName,
  MAX_STAGE,
};
