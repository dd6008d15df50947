// Response formats: the `response_format` parameter a tool with several result formats gets in
// the schema the model sees, so the model asks for only as much as it needs. Pure.
import type { JSONSchema, ResponseFormats } from './types.js';

export const RESPONSE_FORMAT_PARAMETER = 'response_format';

const FORMAT_NAME = /^[a-z][a-z0-9_]{0,31}$/;

/** Why a tool's formats cannot be offered, or undefined when they can. */
export function responseFormatsProblem(formats: ResponseFormats, schema: JSONSchema): string | undefined {
  const names = Object.keys(formats.options);
  if (names.length < 2) return `responseFormats needs at least two options (e.g. concise and detailed), got ${names.length}`;
  const bad = names.find((name) => !FORMAT_NAME.test(name));
  if (bad !== undefined) return `response format name ${JSON.stringify(bad)} must be lower-case letters, digits and _`;
  if (!names.includes(formats.default))
    return `responseFormats.default ${JSON.stringify(formats.default)} is not one of ${names.join(', ')}`;
  const budgeted = Object.keys(formats.maxResultChars ?? {}).find((name) => !names.includes(name));
  if (budgeted !== undefined) return `responseFormats.maxResultChars names ${JSON.stringify(budgeted)}, which is not an option`;
  const properties = schema.properties as Record<string, unknown> | undefined;
  // A tool spread back into defineTool brings the parameter it was given: that is no clash.
  const own = properties?.[RESPONSE_FORMAT_PARAMETER];
  const same = JSON.stringify(own) === JSON.stringify(formatParameter(formats));
  if (properties && Object.hasOwn(properties, RESPONSE_FORMAT_PARAMETER) && !same) {
    return `the input schema already has a "${RESPONSE_FORMAT_PARAMETER}" parameter; drop it or drop responseFormats`;
  }
  return undefined;
}

/** The parameter's description: each option with when to use it, and the default. */
export function describeResponseFormats(formats: ResponseFormats): string {
  const options = Object.entries(formats.options).map(([name, when]) => `"${name}": ${when}`);
  return `How much the result shows. ${options.join('; ')}. Default "${formats.default}".`;
}

function formatParameter(formats: ResponseFormats): JSONSchema {
  return { type: 'string', enum: Object.keys(formats.options), description: describeResponseFormats(formats) };
}

/** The tool's own schema plus the optional `response_format` enum. */
export function withResponseFormatParameter(schema: JSONSchema, formats: ResponseFormats): JSONSchema {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  return { ...schema, type: 'object', properties: { ...properties, [RESPONSE_FORMAT_PARAMETER]: formatParameter(formats) } };
}

/** The budget of a call in this format: the tighter of the tool's and the format's. */
export function formatBudget(maxResultChars: number, formats: ResponseFormats | undefined, format: string | undefined): number {
  const own = format === undefined ? undefined : formats?.maxResultChars?.[format];
  return own === undefined ? maxResultChars : Math.min(own, maxResultChars);
}
