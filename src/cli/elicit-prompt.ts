// An MCP server's elicitation in the terminal: how the request is shown (which server asks, what,
// and that the answer goes to that server) and how each field's answer is read against the
// form's schema (MCP 2025-06-18 elicitation: a flat object of string, number, integer, boolean
// and enum fields, single or multiple choice). Pure; the asking is in terminal-ask.ts.
import type { McpElicitation } from '../runtime/mcp/elicit.js';
import { isRecord } from '../runtime/util/record.js';
import { plainText } from './terminal-text.js';

export type ElicitValue = string | number | boolean | string[];

export interface ElicitField {
  name: string;
  title: string;
  description?: string;
  kind: 'string' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';
  /** For choices: the values sent and the labels shown. */
  options?: { value: string; label: string }[];
  default?: ElicitValue;
  required: boolean;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
}

/** The value read, undefined for an optional field left empty. */
export type FieldReply = { ok: true; value: ElicitValue | undefined } | { ok: false; message: string };

/** `enum` (with the legacy `enumNames`), or `oneOf`/`anyOf` of `{const, title}`. */
function optionsOf(schema: Record<string, unknown>): { value: string; label: string }[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, index) => ({ value: String(value), label: String(names[index] ?? value) }));
  }
  const titled = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  return titled?.filter(isRecord).map((entry) => ({ value: String(entry.const), label: String(entry.title ?? entry.const) }));
}

const numberOf = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** The form's fields in the order the server listed them. */
export function elicitFields(schema: Record<string, unknown> | undefined): ElicitField[] {
  const properties = isRecord(schema?.properties) ? schema.properties : {};
  const required = Array.isArray(schema?.required) ? schema.required : [];
  return Object.entries(properties).flatMap(([name, raw]): ElicitField[] => {
    if (!isRecord(raw)) return [];
    const items = isRecord(raw.items) ? raw.items : undefined;
    const options = raw.type === 'array' && items ? optionsOf(items) : optionsOf(raw);
    const kind: ElicitField['kind'] =
      raw.type === 'array'
        ? 'choices'
        : options
          ? 'choice'
          : raw.type === 'number' || raw.type === 'integer' || raw.type === 'boolean'
            ? raw.type
            : 'string';
    const defaultValue = raw.default;
    const isValue =
      typeof defaultValue === 'string' ||
      typeof defaultValue === 'number' ||
      typeof defaultValue === 'boolean' ||
      (Array.isArray(defaultValue) && defaultValue.every((entry) => typeof entry === 'string'));
    return [
      {
        name,
        title: typeof raw.title === 'string' ? raw.title : name,
        ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
        kind,
        ...(options ? { options } : {}),
        ...(isValue ? { default: defaultValue as ElicitValue } : {}),
        required: required.includes(name),
        minimum: numberOf(raw.minimum),
        maximum: numberOf(raw.maximum),
        minItems: numberOf(raw.minItems),
        maxItems: numberOf(raw.maxItems),
        ...(typeof raw.format === 'string' ? { format: raw.format } : {}),
      },
    ];
  });
}

/** What the person sees first: who asks, what, and where the answer goes. */
export function renderElicitation(request: McpElicitation, fields: readonly ElicitField[]): string {
  const lines = [`? MCP server "${request.server}" asks: ${request.message}`];
  if (request.mode === 'url') {
    lines.push(`  It wants you to open ${request.url ?? '(no address given)'}`);
    return plainText(lines.join('\n'));
  }
  lines.push(`  ${fields.length} field${fields.length === 1 ? '' : 's'}; the answers go to that server only.`);
  for (const field of fields)
    lines.push(`  - ${field.title}${field.required ? ' (required)' : ''}${field.description ? ` — ${field.description}` : ''}`);
  return plainText(lines.join('\n'));
}

function shown(value: ElicitValue, field: ElicitField): string {
  const labelOf = (entry: string) => field.options?.find((option) => option.value === entry)?.label ?? entry;
  return Array.isArray(value) ? value.map(labelOf).join(', ') : typeof value === 'string' ? labelOf(value) : String(value);
}

/** The line the editor shows while this field waits: title, how to answer, the default Enter takes. */
export function fieldLabel(field: ElicitField): string {
  const how =
    field.kind === 'boolean'
      ? 'y/n'
      : field.kind === 'choice' || field.kind === 'choices'
        ? (field.options ?? []).map((option, index) => `${index + 1} ${option.label}`).join(' · ') +
          (field.kind === 'choices' ? ' (several: 1,3)' : '')
        : field.kind;
  const fallback = field.default !== undefined ? ` [Enter: ${shown(field.default, field)}]` : field.required ? '' : ' [Enter: skip]';
  return plainText(`${field.title} (${how})${fallback} › `);
}

function pickOption(field: ElicitField, word: string): string | undefined {
  const options = field.options ?? [];
  const index = /^\d+$/.test(word) ? Number(word) - 1 : -1;
  if (index >= 0 && index < options.length) return options[index].value;
  return options.find((option) => option.value === word || option.label.toLowerCase() === word.toLowerCase())?.value;
}

/** `y`/`yes`/`true` or `n`/`no`/`false`, any case: whether to answer, or a boolean field. */
export function readYesNo(text: string): { ok: true; value: boolean } | { ok: false; message: string } {
  const answer = text.trim();
  if (/^(y|yes|true)$/i.test(answer)) return { ok: true, value: true };
  if (/^(n|no|false)$/i.test(answer)) return { ok: true, value: false };
  return { ok: false, message: 'answer y or n' };
}

/** One field's answer, checked against its schema; an empty answer takes the default, or skips an optional field. */
export function parseFieldReply(field: ElicitField, text: string): FieldReply {
  const answer = text.trim();
  if (answer === '') {
    if (field.default !== undefined) return { ok: true, value: field.default };
    return field.required ? { ok: false, message: `${field.title} is required` } : { ok: true, value: undefined };
  }
  switch (field.kind) {
    case 'boolean':
      return readYesNo(answer);
    case 'number':
    case 'integer': {
      const value = Number(answer);
      if (!Number.isFinite(value) || (field.kind === 'integer' && !Number.isInteger(value)))
        return { ok: false, message: `give ${field.kind === 'integer' ? 'a whole number' : 'a number'}` };
      if ((field.minimum !== undefined && value < field.minimum) || (field.maximum !== undefined && value > field.maximum))
        return { ok: false, message: `give a number from ${field.minimum ?? '…'} to ${field.maximum ?? '…'}` };
      return { ok: true, value };
    }
    case 'choice': {
      const value = pickOption(field, answer);
      return value === undefined ? { ok: false, message: `choose a number from 1 to ${field.options?.length ?? 0}` } : { ok: true, value };
    }
    case 'choices': {
      const words = answer.split(/[\s,]+/).filter(Boolean);
      const values = words.map((word) => pickOption(field, word));
      if (values.some((value) => value === undefined))
        return { ok: false, message: `choose numbers from 1 to ${field.options?.length ?? 0}, separated by commas` };
      const unique = [...new Set(values as string[])];
      if (
        (field.minItems !== undefined && unique.length < field.minItems) ||
        (field.maxItems !== undefined && unique.length > field.maxItems)
      )
        return { ok: false, message: `choose ${field.minItems ?? 0} to ${field.maxItems ?? unique.length} of them` };
      return { ok: true, value: unique };
    }
    default: {
      if (field.format === 'email' && !/^[^\s@]+@[^\s@]+$/.test(answer)) return { ok: false, message: 'give an e-mail address' };
      if (field.format === 'uri' && !URL.canParse(answer)) return { ok: false, message: 'give a full address (https://…)' };
      if (field.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(answer)) return { ok: false, message: 'give a date as YYYY-MM-DD' };
      return { ok: true, value: answer };
    }
  }
}
