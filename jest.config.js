// The pinned AWS SDK runs on Node 20, but warns once per process that its releases after
// January 2027 will need Node 22 (@aws-sdk/core's emitWarningIfUnsupportedVersion); that is
// for whoever upgrades the SDK (README, "Dependencies"), not for test output. Set here, it
// reaches the workers and every process the tests start. Under Node 22+ it changes nothing.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': 'ts-jest' },
  testTimeout: 60000,
  // Both cores: most suites wait on child processes, the emulator or Chromium. Packagings
  // take turns through a lock (scripts/serverless-package.ts).
  maxWorkers: 2,
};
