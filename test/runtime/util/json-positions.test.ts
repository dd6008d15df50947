import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseJsonWithPositions } from '../../../src/runtime/util/json-positions.js';

describe('parseJsonWithPositions', () => {
  it('agrees with JSON.parse on any JSON document', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const parsed = parseJsonWithPositions(text);
        expect(parsed.ok).toBe(true);
        if (parsed.ok) expect(parsed.value).toEqual(JSON.parse(text));
      }),
    );
  });

  it('rejects what JSON.parse rejects', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        expect(parseJsonWithPositions(text).ok).toBe(valid);
      }),
    );
  });

  it('locates keys and array items by line and column', () => {
    const text = '{\n  "permissions": {\n    "allow": [\n      "Bash(ls *)",\n      "Bad("\n    ]\n  }\n}';
    const parsed = parseJsonWithPositions(text);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.locate(['permissions'])).toEqual({ line: 2, column: 3 });
    expect(parsed.locate(['permissions', 'allow', 1])).toEqual({ line: 5, column: 7 });
    // A missing key falls back to its nearest existing parent.
    expect(parsed.locate(['permissions', 'deny'])).toEqual({ line: 2, column: 3 });
  });

  it('reports where a syntax error is', () => {
    const parsed = parseJsonWithPositions('{\n  "a": 1,\n}');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.position).toEqual({ line: 3, column: 1 });
      expect(parsed.message).toContain('double-quoted key');
    }
  });
});
