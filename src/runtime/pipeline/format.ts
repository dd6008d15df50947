// The `response_format` a call asked for: taken out of the input before the tool's own schema
// sees it, checked against the tool's options, and carried to the result mapping.
import { RESPONSE_FORMAT_PARAMETER } from '../tool/response-format.js';
import type { AnyTool } from '../tool/types.js';
import { fail, preview, type StageResult } from './outcome.js';
import type { ToolInput } from './parse.js';

export interface FormattedInput {
  input: ToolInput;
  /** The format the model named; undefined when it named none (or the tool has no formats). */
  format?: string;
}

export function takeResponseFormat(tool: AnyTool, input: ToolInput): StageResult<FormattedInput> {
  const formats = tool.responseFormats;
  if (!formats || !Object.hasOwn(input, RESPONSE_FORMAT_PARAMETER)) return { ok: true, value: { input } };
  const { [RESPONSE_FORMAT_PARAMETER]: format, ...rest } = input;
  const names = Object.keys(formats.options);
  if (format === undefined || format === null) return { ok: true, value: { input: rest } };
  if (typeof format !== 'string' || !names.includes(format)) {
    return fail(
      'invalid_input',
      `Invalid input for ${tool.name}: "${RESPONSE_FORMAT_PARAMETER}" must be one of ${names.map((n) => `"${n}"`).join(', ')} ` +
        `(got ${preview(format)}). Leave it out for "${formats.default}".`,
    );
  }
  return { ok: true, value: { input: rest, format } };
}

/** What hooks see: the tool's input, with the format when the model named one. */
export function inputWithFormat(input: ToolInput, format: string | undefined): ToolInput {
  return format === undefined ? input : { ...input, [RESPONSE_FORMAT_PARAMETER]: format };
}
