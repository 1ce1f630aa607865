// AWS's documented limits on the names the template builds from the service and stage
// (service quotas and API references; the CloudFormation registry schemas hold the same
// patterns, but no npm package ships them in a usable form). Checked on the names as
// deployed (resolve.ts), so a long or odd stage fails here, not in the middle of a deploy.
import { Resolver } from './resolve';
import type { Json, Template } from './template';

interface NameRule {
  type: string;
  /** Path of the name within Properties. */
  path: string[];
  pattern: RegExp;
  rule: string;
}

const RULES: NameRule[] = [
  {
    type: 'AWS::Lambda::Function',
    path: ['FunctionName'],
    pattern: /^[a-zA-Z0-9-_]{1,64}$/,
    rule: 'Lambda: 1-64 letters, digits, hyphens, underscores',
  },
  {
    type: 'AWS::SQS::Queue',
    path: ['QueueName'],
    pattern: /^(?=.{1,80}$)[a-zA-Z0-9_-]+(\.fifo)?$/,
    rule: 'SQS: 1-80 letters, digits, hyphens, underscores (.fifo suffix included)',
  },
  {
    type: 'AWS::SNS::Topic',
    path: ['TopicName'],
    pattern: /^(?=.{1,256}$)[a-zA-Z0-9_-]+(\.fifo)?$/,
    rule: 'SNS: 1-256 letters, digits, hyphens, underscores',
  },
  {
    type: 'AWS::S3::Bucket',
    path: ['BucketName'],
    pattern: /^(?=.{3,63}$)[a-z0-9][a-z0-9.-]*[a-z0-9]$/,
    rule: 'S3: 3-63 lowercase letters, digits, dots, hyphens, starting and ending with a letter or digit',
  },
  {
    type: 'AWS::Glue::Database',
    path: ['DatabaseInput', 'Name'],
    // Glue takes more, but Athena needs lowercase letters, digits and underscores unquoted.
    pattern: /^[a-z0-9_]{1,255}$/,
    rule: 'Glue/Athena: 1-255 lowercase letters, digits, underscores',
  },
  {
    type: 'AWS::CloudWatch::Alarm',
    path: ['AlarmName'],
    pattern: /^.{1,255}$/,
    rule: 'CloudWatch: at most 255 characters',
  },
  {
    type: 'AWS::Events::Rule',
    path: ['Name'],
    pattern: /^[.\-_A-Za-z0-9]{1,64}$/,
    rule: 'EventBridge: 1-64 characters',
  },
  { type: 'AWS::IAM::Role', path: ['RoleName'], pattern: /^[\w+=,.@-]{1,64}$/, rule: 'IAM: 1-64 characters' },
  {
    type: 'AWS::Logs::LogGroup',
    path: ['LogGroupName'],
    pattern: /^[.\-_/#A-Za-z0-9]{1,512}$/,
    rule: 'CloudWatch Logs: 1-512 characters',
  },
];

/** Names that break their service's rule, as deployed (an effective template). */
export function nameViolations(t: Template): string[] {
  const resolve = new Resolver(t);
  const out: string[] = [];
  for (const [id, r] of Object.entries(t.Resources)) {
    for (const rule of RULES.filter((x) => x.type === r.Type)) {
      let v: Json | undefined = (r.Properties ?? {}) as Json;
      for (const k of rule.path) v = v && typeof v === 'object' && !Array.isArray(v) ? v[k] : undefined;
      if (v === undefined) continue;
      const name = resolve.string(v);
      if (!rule.pattern.test(name))
        out.push(`${id}.${rule.path.join('.')}: "${name}" (${name.length} characters) breaks ${rule.rule}`);
    }
  }
  return out;
}
