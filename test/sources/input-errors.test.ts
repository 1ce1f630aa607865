// The reasons in words that failed inputs get, from the shapes Node's fs and the AWS SDK
// throw (live cases are driven over the wire in test/cli/command-line.test.ts; these are
// the ones a test machine cannot produce: running as root, every file is readable).
import { describeInputError } from '../../lib/sources/input-errors';

describe('describeInputError', () => {
  it.each([
    [{ code: 'ENOENT', message: "ENOENT: no such file or directory, stat '/x'" }, 'no such file or folder'],
    [{ code: 'EACCES', message: "EACCES: permission denied, open '/x'" }, 'permission denied'],
    [{ code: 'EPERM', message: 'EPERM' }, 'permission denied'],
    [{ name: 'Error', message: 'Region is missing' }, 'no AWS region (set AWS_REGION or --region)'],
    [
      { name: 'CredentialsProviderError', message: 'Could not load credentials from any providers' },
      'no AWS credentials (set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)',
    ],
    [{ name: 'NoSuchBucket', message: 'The specified bucket does not exist' }, 'no such bucket'],
    [
      { name: 'AccessDenied', message: 'Access Denied', $metadata: { httpStatusCode: 403 } },
      'access denied (the credentials may not list or read this bucket or prefix)',
    ],
    [{ name: 'ExpiredToken', message: 'x' }, 'the AWS session token has expired (log in again)'],
    [{ name: 'Unknown', message: 'x', $metadata: { httpStatusCode: 403 } }, 'access denied (HTTP 403)'],
    [
      { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:1' },
      'cannot reach the AWS endpoint (connect ECONNREFUSED 127.0.0.1:1)',
    ],
    ['a string', 'a string'],
  ])('%j → %s', (error, reason) => {
    expect(describeInputError(error)).toBe(reason);
  });
});
