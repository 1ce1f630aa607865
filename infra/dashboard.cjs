// The dashboard's body (lib/deploy/dashboard.ts), built at package time for this stage; the
// region is left to CloudFormation (Fn::Sub), so one package deploys to any region.
const path = require('path');
const { require: tsxRequire } = require('tsx/cjs/api');

const { dashboardBody } = tsxRequire(
  path.join(__dirname, '..', 'lib', 'deploy', 'dashboard.ts'),
  path.join(__dirname, 'dashboard.cjs'),
);

module.exports = async ({ resolveVariable }) => ({
  'Fn::Sub': JSON.stringify(
    dashboardBody({
      service: String(await resolveVariable('self:service')),
      stage: String(await resolveVariable('sls:stage')),
      slack: String(await resolveVariable('param:slackWebhookParameter')) !== 'none',
    }),
  ),
});
