// The same alert as an EventBridge event, for teams that route with rules: Source
// `koperator-audit`, DetailType in words, Detail the alert JSON the alerts topic carries
// (trimmed like it; EventBridge takes 256 KiB per entry, as SNS does).
import { buildSnsMessage, type AlertMessage } from './message';

export const EVENT_SOURCE = 'koperator-audit';

export const DETAIL_TYPES: Record<AlertMessage['event'], string> = {
  'loop-started': 'Broker Restart Loop Started',
  'loop-escalated': 'Broker Restart Loop Escalated',
  'loop-ended': 'Broker Restart Loop Ended',
  'fight-started': 'Controller Fight Started',
  'fight-escalated': 'Controller Fight Escalated',
  'fight-ended': 'Controller Fight Ended',
  recreation: 'Broker Pod Recreated',
  'drift-detected': 'Broker Pod Live Drift Detected',
};

/** Room left of 256 KiB for Source, DetailType, Resources and the bus name. */
const DETAIL_MAX_BYTES = 250 * 1024;

export interface EventBridgeEntry {
  Source: string;
  DetailType: string;
  Detail: string;
  EventBusName: string;
  Resources: string[];
  Time: Date;
}

export function buildEventBridgeEntry(
  m: AlertMessage,
  eventBus: string,
  resources: string[] = [],
): EventBridgeEntry {
  return {
    Source: EVENT_SOURCE,
    DetailType: DETAIL_TYPES[m.event],
    Detail: buildSnsMessage(m, DETAIL_MAX_BYTES).body,
    EventBusName: eventBus,
    Resources: resources,
    Time: new Date(m.window.to),
  };
}
