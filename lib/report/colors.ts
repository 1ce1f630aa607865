// One palette for every report format, so a class reads the same colour in a terminal,
// in a ticket and in the HTML timeline. Hues were picked to stay apart for the common
// colour-vision deficiencies as far as seven classes allow; every view also prints the
// class name, so colour is never the only carrier of meaning.
import type { Classification } from '../model/findings';
import { CLASSIFICATIONS } from '../model/findings';

export interface ClassStyle {
  /** CSS colour for the HTML report (fills, chips, bands). */
  hex: string;
  /** SGR parameters for the terminal table; 256-colour only where the 16 base colours ran out. */
  ansi: string;
  /** Coloured square for Markdown, which has no other portable way to colour text. */
  emoji: string;
  /** One line for legends. */
  description: string;
}

export const CLASS_STYLES: Readonly<Record<Classification, ClassStyle>> = {
  'external-mutation-revert': {
    hex: '#dc2626',
    ansi: '31',
    emoji: '🟥',
    description: 'the operator reverted a field a webhook or another actor changed',
  },
  'intent-change': {
    hex: '#2563eb',
    ansi: '34',
    emoji: '🟦',
    description: "the operator's own desired pod spec changed",
  },
  'config-change': {
    hex: '#7c3aed',
    ansi: '35',
    emoji: '🟪',
    description: "the broker's per-broker configuration went out of sync",
  },
  'tainted-restart': {
    hex: '#ea580c',
    ansi: '38;5;208',
    emoji: '🟧',
    description: 'the pod labels matched the tainted-brokers selector',
  },
  'container-terminated': {
    hex: '#ca8a04',
    ansi: '33',
    emoji: '🟨',
    description: 'the operator replaced a crashed, OOM-killed or evicted pod',
  },
  'external-deletion': {
    hex: '#16a34a',
    ansi: '32',
    emoji: '🟩',
    description: 'someone other than the operator deleted or evicted the pod',
  },
  unknown: {
    hex: '#6b7280',
    ansi: '90',
    emoji: '⬜',
    description: 'the logs do not hold enough to decide',
  },
};

/** Legend order: the classes that usually need action first, `unknown` last. */
export const CLASS_ORDER: readonly Classification[] = [
  'external-mutation-revert',
  'intent-change',
  'config-change',
  'tainted-restart',
  'container-terminated',
  'external-deletion',
  'unknown',
];

export function isClassification(value: string): value is Classification {
  return (CLASSIFICATIONS as readonly string[]).includes(value);
}

/**
 * Style of a class. Documents can arrive from JSON files written by other tools, so a
 * value outside the contract is drawn like `unknown` rather than crashing the report.
 */
export function classStyle(value: string): ClassStyle {
  return isClassification(value) ? CLASS_STYLES[value] : CLASS_STYLES.unknown;
}

export const SGR = {
  bold: '1',
  dim: '2',
  red: '31',
  green: '32',
  cyan: '36',
} as const;

/** Wraps text in an SGR sequence when colour is on; the identity otherwise. */
export function paint(text: string, sgr: string | undefined, color: boolean): string {
  if (!color || !sgr || text === '') return text;
  return `\u001b[${sgr}m${text}\u001b[0m`;
}
