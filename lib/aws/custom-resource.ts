// CloudFormation's side of a Lambda-backed custom resource: the response it waits for, PUT
// to the pre-signed URL of the request. Without it the stack hangs for an hour, so every
// outcome, failures included, is answered.
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';

export interface CustomResourceResponse {
  Status: 'SUCCESS' | 'FAILED';
  Reason?: string;
  PhysicalResourceId: string;
  StackId: string;
  RequestId: string;
  LogicalResourceId: string;
  Data?: Record<string, string | number>;
}

/** CloudFormation rejects a response body over 4,096 bytes; a long reason is what would push it over. */
const MAX_REASON = 1000;

export function customResourceResponse(
  event: CloudFormationCustomResourceEvent,
  outcome: { ok: true; data?: Record<string, string | number> } | { ok: false; reason: string },
  logStream: string,
): CustomResourceResponse {
  // The id must not change on update, or CloudFormation would delete the "old" resource.
  const physicalId =
    event.RequestType === 'Create'
      ? `${event.LogicalResourceId}-${event.RequestId}`
      : event.PhysicalResourceId;
  return {
    Status: outcome.ok ? 'SUCCESS' : 'FAILED',
    ...(outcome.ok
      ? outcome.data
        ? { Data: outcome.data }
        : {}
      : { Reason: `${outcome.reason} (log stream ${logStream})`.slice(0, MAX_REASON) }),
    PhysicalResourceId: physicalId,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
  };
}

/** PUT the response where CloudFormation said; the URL is pre-signed without a content type. */
export async function sendCustomResourceResponse(
  responseUrl: string,
  response: CustomResourceResponse,
  fetchImpl: typeof fetch = fetch,
): Promise<void> {
  const body = JSON.stringify(response);
  const res = await fetchImpl(responseUrl, {
    method: 'PUT',
    body,
    headers: { 'content-type': '', 'content-length': String(Buffer.byteLength(body)) },
  });
  if (!res.ok) throw new Error(`CloudFormation response was refused: HTTP ${res.status}`);
}
