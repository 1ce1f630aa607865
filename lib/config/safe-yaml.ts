// YAML from users (pod dumps, config files) parsed with a bound on its expanded size:
// aliases let a few hundred bytes describe a tree of billions of nodes ("billion
// laughs"), which js-yaml builds as shared references but any later walk would expand.
import * as yaml from 'js-yaml';

export const MAX_YAML_NODES = 1_000_000;

export class YamlTooLargeError extends Error {}

export function loadYamlBounded(text: string, maxNodes = MAX_YAML_NODES): unknown {
  const doc = yaml.load(text);
  let budget = maxNodes;
  const stack: unknown[] = [doc];
  while (stack.length) {
    const v = stack.pop();
    if (--budget < 0) throw new YamlTooLargeError(`YAML expands to more than ${maxNodes} nodes (aliases?)`);
    if (v && typeof v === 'object') {
      for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>))
        stack.push(child);
    }
  }
  return doc;
}
