// The Kubernetes audit Event (audit.k8s.io/v1, and v1beta1 which only adds fields),
// as the ingestion layer emits it whatever container it arrived in.
// Bodies stay `unknown`: they are untrusted input and every reader narrows them itself.

export interface AuditUser {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface AuditObjectRef {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

export interface AuditResponseStatus {
  code?: number;
  status?: string;
  reason?: string;
  message?: string;
}

export type AuditStage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';
export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';

export interface AuditEvent {
  kind?: string;
  apiVersion?: string;
  level: AuditLevel | string;
  auditID: string;
  stage: AuditStage | string;
  requestURI?: string;
  verb: string;
  user: AuditUser;
  impersonatedUser?: AuditUser;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: AuditObjectRef;
  responseStatus?: AuditResponseStatus;
  requestObject?: unknown;
  responseObject?: unknown;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}
