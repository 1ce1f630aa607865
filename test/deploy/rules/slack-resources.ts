// What a deployment has of the Slack notifier: with slackWebhookParameter=none it must have
// nothing (infra/slack.cjs), so a resource osls generates under a name the condition missed,
// or one of the stack's own left without it, shows up here.
import { evaluateConditions, type Template } from './template';

/** Slack-only things by name: the notifier's generated resources, its role, queue and alarm. */
const SLACK_ID = /^Notify|Slack/;
/** ...and by what they point at: anything naming the notifier's function, role or webhook. */
const SLACK_TEXT = /notifySlack|NotifyRole|NotifyDeadLetter|slack-webhook/i;

/** The resources and outputs (`Outputs.<id>`) of the deployment `t` that exist only for Slack. */
export function slackResources(t: Template): string[] {
  const conditions = evaluateConditions(t);
  const deployed = (c: string | undefined): boolean => c === undefined || conditions[c] === true;
  const out: string[] = [];
  for (const [id, r] of Object.entries(t.Resources))
    if (deployed(r.Condition) && (SLACK_ID.test(id) || SLACK_TEXT.test(JSON.stringify(r)))) out.push(id);
  for (const [id, o] of Object.entries(t.Outputs ?? {}))
    if (
      deployed((o as { Condition?: string }).Condition) &&
      (SLACK_ID.test(id) || SLACK_TEXT.test(JSON.stringify(o)))
    )
      out.push(`Outputs.${id}`);
  return out;
}
