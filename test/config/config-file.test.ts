import { clusterForInput, ConfigError, parseConfigFile } from '../../lib/config/config-file';

describe('parseConfigFile', () => {
  it('reads every documented key', () => {
    const cfg = parseConfigFile(`
operatorUsers: [system:serviceaccount:kafka:kafka-operator]
taintedBrokersSelector: { shredder.ethos.adobe.net/upgrade-status: parked }
loopMinCount: 4
loopMaxGap: 15m
namespaces: kafka
kafkaClusters: [orders-kafka]
clusters:
  - { prefix: "s3://logs/prod/", name: prod }
maxLineBytes: 1048576
`);
    expect(cfg).toEqual({
      operatorUsers: ['system:serviceaccount:kafka:kafka-operator'],
      taintedBrokersSelector: { 'shredder.ethos.adobe.net/upgrade-status': 'parked' },
      loopMinCount: 4,
      loopMaxGapSeconds: 900,
      namespaces: ['kafka'],
      kafkaClusters: ['orders-kafka'],
      clusters: [{ prefix: 's3://logs/prod/', name: 'prod' }],
      maxLineBytes: 1048576,
    });
  });

  it.each([
    ['loopMinCont: 3', /unknown key "loopMinCont"/],
    ['clusters: [{prefix: a, name: b, colour: red}]', /unknown key "clusters\[0\].colour"/],
    ['loopMinCount: -1', /loopMinCount must be a positive integer/],
    ['loopMaxGap: soon', /loopMaxGap "soon" is not a duration/],
    ['loopMaxGap: 10', /loopMaxGap "10" needs a unit: 10s, 10m or 10h/],
    ['loopMaxGap: 0s', /loopMaxGap "0s" must be longer than zero/],
    ['- a\n- b', /expected a mapping/],
    ['a: [', /not valid YAML/],
  ])('rejects %p', (text, message) => {
    expect(() => parseConfigFile(text)).toThrow(ConfigError);
    expect(() => parseConfigFile(text)).toThrow(message);
  });

  it('treats an empty file as no settings', () => {
    expect(parseConfigFile('')).toEqual({});
  });
});

describe('clusterForInput', () => {
  const clusters = [
    { prefix: 's3://logs/', name: 'all' },
    { prefix: 's3://logs/prod/', name: 'prod' },
  ];
  it.each([
    ['s3://logs/prod/2026/11/02/x.gz', 'prod'],
    ['s3://logs/dev/x.gz', 'all'],
    ['/var/log/audit.log', null],
  ])('%s belongs to %p', (input, name) => {
    expect(clusterForInput(input, clusters)).toBe(name);
  });
});
