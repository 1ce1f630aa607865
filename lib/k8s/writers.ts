// Who a field's writer (`fields[].by`) is: a mutating webhook, named as the contract names it
// (`configuration/webhook`), an autoscaler's user, or a person or other controller.

/**
 * The Vertical Pod Autoscaler's updater, which evicts pods or resizes them in place
 * (its admission controller is a webhook, named as webhooks are).
 */
export const DEFAULT_AUTOSCALER_USERS: readonly string[] = ['system:serviceaccount:kube-system:vpa-updater'];

// A webhook configuration's name is a DNS subdomain and a webhook's name must be fully
// qualified (at least three DNS labels); user names never take this shape (`alice@…`,
// `system:serviceaccount:ns:name`, `arn:aws:…/role`).
const LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const WEBHOOK_REF = new RegExp(`^${LABEL}(\\.${LABEL})*/${LABEL}(\\.${LABEL}){2,}$`);

/** Whether a `by` names a mutating webhook (`configuration/webhook`) rather than a user. */
export function isWebhookRef(by: string): boolean {
  return WEBHOOK_REF.test(by);
}

/** The VPA updater's service account, in whichever namespace VPA runs. */
const VPA_UPDATER = /^system:serviceaccount:[^:]+:vpa-updater$/;

/** The VPA updater, or a user configured as an autoscaler (`--autoscaler-user`). */
export function isAutoscalerUser(by: string, configured: readonly string[] = []): boolean {
  return VPA_UPDATER.test(by) || configured.includes(by);
}
