// Shared pieces of the built-in tools' input schemas.
import { z } from 'zod';

/**
 * An optional whole number in [min, max] whose errors name the parameter and its range, so a
 * model that sends 0 or 2.5 learns exactly what to send instead.
 */
export function boundedInt(name: string, min: number, max: number, unit = '') {
  const range = `${name} must be between ${min} and ${max}${unit ? ` ${unit}` : ''}`;
  return z
    .number()
    .int(`${name} must be a whole number${unit ? ` of ${unit}` : ''}`)
    .min(min, range)
    .max(max, range)
    .optional();
}
