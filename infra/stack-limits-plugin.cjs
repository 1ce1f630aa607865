// An osls plugin (serverless.yml `plugins`): the packaged template checked against AWS's
// static limits (templateLimitProblems in lib/deploy/stack-limits.ts) just before it is
// written, so that a parameter set AWS would refuse stops `npm run package` and `osls
// deploy` with a message naming the parameter, not a rollback.
const fs = require('fs');
const path = require('path');
const { require: tsxRequire } = require('tsx/cjs/api');

const { templateLimitProblems } = tsxRequire(
  path.join(__dirname, '..', 'lib', 'deploy', 'stack-limits.ts'),
  path.join(__dirname, 'stack-limits-plugin.cjs'),
);

/** `NAME: ${param:name}` lines of serverless.yml: which param sets each environment variable. */
function envParams(serviceDir) {
  const text = fs.readFileSync(path.join(serviceDir, 'serverless.yml'), 'utf8');
  const out = {};
  for (const m of text.matchAll(/^\s+([A-Z][A-Z0-9_]*):.*\$\{param:(\w+)\}/gm)) out[m[1]] ??= m[2];
  return out;
}

class StackLimits {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = {
      'before:aws:package:finalize:saveServiceState': () => this.check(),
    };
  }

  check() {
    const template = this.serverless.service.provider.compiledCloudFormationTemplate;
    const problems = templateLimitProblems(template, { envParams: envParams(this.serverless.serviceDir) });
    if (problems.length > 0) throw new Error(`koperator-audit: ${problems.join('; ')}`);
  }
}

module.exports = StackLimits;
