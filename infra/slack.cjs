// The Slack notifier is optional: slackWebhookParameter=none deploys none of what exists
// only for it (the function, its log group, its SNS subscription and permission, its
// on-failure config, role, dead-letter queue and that queue's alarm); any other value keeps
// it, so an existing stage keeps Slack on upgrade. The resources the stack names itself get
// the UseSlack condition in their own files; the ones osls generates from the function's
// definition get it here. Their logical IDs come from osls's own naming (the SNS ones carry
// the topic name, which carries the stage), so they match whatever osls generated: a stage
// keeps the same subscription, never a second one for the same endpoint.
const naming = require('osls/lib/plugins/aws/lib/naming');

const FUNCTION = 'notifySlack';

/** The logical IDs osls generates for the notifier subscribed to `topicName`. */
function generatedIds(topicName) {
  return [
    naming.getLambdaLogicalId(FUNCTION),
    naming.getLogGroupLogicalId(FUNCTION),
    naming.getLambdaEventConfigLogicalId(FUNCTION),
    naming.getLambdaSnsSubscriptionLogicalId(FUNCTION, topicName),
    naming.getLambdaSnsPermissionLogicalId(FUNCTION, topicName),
  ];
}

module.exports = async ({ resolveVariable }) => {
  // The topic name the function's sns event gives (serverless.yml), resolved as osls resolves it.
  const topicName = String(await resolveVariable('self:functions.notifySlack.events.0.sns.topicName'));
  return {
    extensions: Object.fromEntries(generatedIds(topicName).map((id) => [id, { Condition: 'UseSlack' }])),
  };
};
module.exports.generatedIds = generatedIds;
