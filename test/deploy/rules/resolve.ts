// Concrete values for one deployment of an effective template (see template.ts): what
// Ref, Fn::GetAtt, Fn::Sub, Fn::Join, Fn::Select and Fn::Split evaluate to in an account,
// region and stack, from each resource's own name property where it has one and a
// CloudFormation-style generated name where it has none. Used to evaluate the role
// policies against real ARNs and to check names against AWS's limits.
import { intrinsic, isObject, type Json, type JsonObject, type Resource, type Template } from './template';

export interface Deployment {
  partition: string;
  region: string;
  accountId: string;
  stackName: string;
  /** arn:aws:cloudformation:<region>:<account>:stack/<name>/<uuid> */
  stackId: string;
}

export const DEPLOYMENT: Deployment = {
  partition: 'aws',
  region: 'us-east-1',
  accountId: '123456789012',
  stackName: 'koperator-audit-test',
  stackId:
    'arn:aws:cloudformation:us-east-1:123456789012:stack/koperator-audit-test/51af3dc0-da77-11e4-872e-1234567db123',
};

/** Per type: the property holding its name, what Ref returns, and its ARN. */
interface Kind {
  name: (p: JsonObject) => Json | undefined;
  ref: 'name' | 'arn' | 'url';
  arn: (d: Deployment, name: string) => string;
}

const KINDS: Record<string, Kind> = {
  'AWS::S3::Bucket': {
    name: (p) => p.BucketName,
    ref: 'name',
    arn: (d, n) => `arn:${d.partition}:s3:::${n}`,
  },
  'AWS::SQS::Queue': {
    name: (p) => p.QueueName,
    ref: 'url',
    arn: (d, n) => `arn:${d.partition}:sqs:${d.region}:${d.accountId}:${n}`,
  },
  'AWS::SNS::Topic': {
    name: (p) => p.TopicName,
    ref: 'arn',
    arn: (d, n) => `arn:${d.partition}:sns:${d.region}:${d.accountId}:${n}`,
  },
  'AWS::Lambda::Function': {
    name: (p) => p.FunctionName,
    ref: 'name',
    arn: (d, n) => `arn:${d.partition}:lambda:${d.region}:${d.accountId}:function:${n}`,
  },
  'AWS::IAM::Role': {
    name: (p) => p.RoleName,
    ref: 'name',
    arn: (d, n) => `arn:${d.partition}:iam::${d.accountId}:role/${n}`,
  },
  'AWS::Logs::LogGroup': {
    name: (p) => p.LogGroupName,
    ref: 'name',
    arn: (d, n) => `arn:${d.partition}:logs:${d.region}:${d.accountId}:log-group:${n}:*`,
  },
  // Ref gives the stream's name; it has no Arn attribute (CloudFormation's resource reference).
  'AWS::Logs::LogStream': {
    name: (p) => p.LogStreamName,
    ref: 'name',
    arn: () => {
      throw new Error('AWS::Logs::LogStream has no Arn attribute');
    },
  },
  'AWS::SecretsManager::Secret': {
    name: (p) => p.Name,
    ref: 'arn',
    // Secrets Manager appends six random characters to the name.
    arn: (d, n) => `arn:${d.partition}:secretsmanager:${d.region}:${d.accountId}:secret:${n}-AbCdEf`,
  },
  'AWS::KinesisFirehose::DeliveryStream': {
    name: (p) => p.DeliveryStreamName,
    ref: 'name',
    arn: (d, n) => `arn:${d.partition}:firehose:${d.region}:${d.accountId}:deliverystream/${n}`,
  },
  'AWS::Glue::Database': {
    name: (p) => (isObject(p.DatabaseInput) ? p.DatabaseInput.Name : undefined),
    ref: 'name',
    arn: (d, n) => `arn:${d.partition}:glue:${d.region}:${d.accountId}:database/${n}`,
  },
};

export class Resolver {
  private readonly names = new Map<string, string>();
  constructor(
    private readonly t: Template,
    readonly d: Deployment = DEPLOYMENT,
  ) {}

  private resource(id: string): Resource {
    const r = this.t.Resources[id];
    if (!r) throw new Error(`refers to ${id}, which this parameter set does not create`);
    return r;
  }

  /** The resource's physical name: its name property, or one CloudFormation would generate. */
  physicalName(id: string): string {
    const known = this.names.get(id);
    if (known !== undefined) return known;
    const r = this.resource(id);
    const prop = KINDS[r.Type]?.name(r.Properties ?? {});
    const name = prop !== undefined ? this.string(prop) : `${this.d.stackName}-${id}-1A2B3C4D5E6F`;
    this.names.set(id, name);
    return name;
  }

  arn(id: string): string {
    const r = this.resource(id);
    const kind = KINDS[r.Type];
    if (!kind) throw new Error(`no ARN known for ${id} (${r.Type})`);
    return kind.arn(this.d, this.physicalName(id));
  }

  private ref(name: string): string {
    const pseudo: Record<string, string> = {
      'AWS::Partition': this.d.partition,
      'AWS::Region': this.d.region,
      'AWS::AccountId': this.d.accountId,
      'AWS::StackName': this.d.stackName,
      'AWS::StackId': this.d.stackId,
      'AWS::URLSuffix': 'amazonaws.com',
    };
    if (name in pseudo) return pseudo[name]!;
    const param = this.t.Parameters?.[name];
    if (param) return String(param.Default ?? '');
    const r = this.resource(name);
    const kind = KINDS[r.Type];
    if (!kind) return this.physicalName(name);
    if (kind.ref === 'arn') return this.arn(name);
    if (kind.ref === 'url')
      return `https://sqs.${this.d.region}.amazonaws.com/${this.d.accountId}/${this.physicalName(name)}`;
    return this.physicalName(name);
  }

  private getAtt(id: string, attr: string): string {
    const r = this.resource(id);
    if (attr === 'Arn' || attr === 'TopicArn') return this.arn(id);
    if (attr === 'QueueName' || attr === 'TopicName') return this.physicalName(id);
    if (attr === 'QueueUrl') return this.ref(id);
    // 32 characters Lambda makes up, the region, and on.aws.
    if (r.Type === 'AWS::Lambda::Url' && attr === 'FunctionUrl')
      return `https://abcdefghijklmnopqrstuvwxyz234567.lambda-url.${this.d.region}.on.aws/`;
    throw new Error(`no value known for ${id}.${attr} (${r.Type})`);
  }

  /** `v` with every intrinsic function evaluated. */
  value(v: Json): Json {
    if (Array.isArray(v)) return v.map((e) => this.value(e));
    if (!isObject(v)) return v;
    const fn = intrinsic(v);
    if (!fn) return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, this.value(e)]));
    const a = v[fn]!;
    switch (fn) {
      case 'Ref':
        return this.ref(a as string);
      case 'Fn::GetAtt': {
        const [id, attr] = Array.isArray(a) ? (a as string[]) : (a as string).split(/\.(.*)/);
        return this.getAtt(id!, attr!);
      }
      case 'Fn::Join': {
        const [sep, parts] = a as [string, Json];
        return (this.value(parts) as Json[]).map((p) => this.string(p)).join(sep);
      }
      case 'Fn::Select': {
        const [i, list] = a as [Json, Json];
        const items = this.value(list) as Json[];
        const at = Number(this.value(i));
        if (!Array.isArray(items) || at >= items.length) throw new Error(`Fn::Select ${at} out of range`);
        return items[at]!;
      }
      case 'Fn::Split': {
        const [sep, s] = a as [string, Json];
        return this.string(s).split(sep);
      }
      case 'Fn::Sub': {
        const [text, vars] = typeof a === 'string' ? [a, {}] : (a as [string, JsonObject]);
        return text.replace(/\$\{([^!}][^}]*)\}/g, (_, name: string) => {
          if (name in vars) return this.string(vars[name]!);
          const [id, attr] = name.split(/\.(.*)/);
          return attr ? this.getAtt(id!, attr) : this.ref(id!);
        });
      }
      default:
        throw new Error(`${fn} is not evaluated here`);
    }
  }

  string(v: Json): string {
    const r = this.value(v);
    if (typeof r === 'string') return r;
    if (typeof r === 'number' || typeof r === 'boolean') return String(r);
    throw new Error(`not a string: ${JSON.stringify(r)}`);
  }
}
