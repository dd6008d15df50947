// Reading an MCP form's fields and the person's answers to them: pure, no terminal.
import { describe, expect, it } from 'vitest';
import { elicitFields, fieldLabel, parseFieldReply, renderElicitation } from '../../src/cli/elicit-prompt.js';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', description: 'Your name' },
    agree: { type: 'boolean' },
    age: { type: 'integer', minimum: 1, maximum: 120, default: 30 },
    pet: { type: 'string', enum: ['cat', 'dog'], enumNames: ['Cats', 'Dogs'] },
    hero: {
      type: 'string',
      oneOf: [
        { const: 'h1', title: 'Superman' },
        { const: 'h2', title: 'Batman' },
      ],
      default: 'h2',
    },
    fish: {
      type: 'array',
      minItems: 1,
      maxItems: 2,
      items: {
        anyOf: [
          { const: 'f1', title: 'Tuna' },
          { const: 'f2', title: 'Trout' },
          { const: 'f3', title: 'Cod' },
        ],
      },
    },
    mail: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    born: { type: 'string', format: 'date' },
    odd: 'not a schema',
  },
  required: ['name', 'fish'],
};

describe('elicitation fields', () => {
  const fields = elicitFields(schema);
  const field = (name: string) => {
    const found = fields.find((entry) => entry.name === name);
    if (!found) throw new Error(`no field ${name}`);
    return found;
  };

  it('reads every kind, in order, with options, defaults and what is required; skips what is not a schema', () => {
    expect(fields.map((entry) => [entry.name, entry.kind, entry.required])).toEqual([
      ['name', 'string', true],
      ['agree', 'boolean', false],
      ['age', 'integer', false],
      ['pet', 'choice', false],
      ['hero', 'choice', false],
      ['fish', 'choices', true],
      ['mail', 'string', false],
      ['site', 'string', false],
      ['born', 'string', false],
    ]);
    expect(field('pet').options).toEqual([
      { value: 'cat', label: 'Cats' },
      { value: 'dog', label: 'Dogs' },
    ]);
    expect(fieldLabel(field('hero'))).toBe('hero (1 Superman · 2 Batman) [Enter: Batman] › ');
    expect(fieldLabel(field('name'))).toBe('Name (string) › ');
    expect(fieldLabel(field('agree'))).toBe('agree (y/n) [Enter: skip] › ');
    expect(elicitFields(undefined)).toEqual([]);
  });

  it('checks each answer against its field, with a message that says what to give', () => {
    expect(parseFieldReply(field('name'), '  ')).toEqual({ ok: false, message: 'Name is required' });
    expect(parseFieldReply(field('name'), ' Ada ')).toEqual({ ok: true, value: 'Ada' });
    expect(parseFieldReply(field('agree'), '')).toEqual({ ok: true });
    expect(parseFieldReply(field('agree'), 'Yes')).toEqual({ ok: true, value: true });
    expect(parseFieldReply(field('agree'), 'perhaps')).toEqual({ ok: false, message: 'answer y or n' });
    expect(parseFieldReply(field('age'), '')).toEqual({ ok: true, value: 30 });
    expect(parseFieldReply(field('age'), '4.5')).toEqual({ ok: false, message: 'give a whole number' });
    expect(parseFieldReply(field('age'), '200')).toEqual({ ok: false, message: 'give a number from 1 to 120' });
    expect(parseFieldReply(field('pet'), '2')).toEqual({ ok: true, value: 'dog' });
    expect(parseFieldReply(field('pet'), 'cats')).toEqual({ ok: true, value: 'cat' });
    expect(parseFieldReply(field('pet'), '3')).toEqual({ ok: false, message: 'choose a number from 1 to 2' });
    expect(parseFieldReply(field('fish'), '1, 3 1')).toEqual({ ok: true, value: ['f1', 'f3'] });
    expect(parseFieldReply(field('fish'), '1,2,3')).toEqual({ ok: false, message: 'choose 1 to 2 of them' });
    expect(parseFieldReply(field('fish'), '')).toEqual({ ok: false, message: 'fish is required' });
    expect(parseFieldReply(field('mail'), 'ada')).toEqual({ ok: false, message: 'give an e-mail address' });
    expect(parseFieldReply(field('site'), 'example.com')).toEqual({ ok: false, message: 'give a full address (https://…)' });
    expect(parseFieldReply(field('born'), '1815-12-10')).toEqual({ ok: true, value: '1815-12-10' });
  });

  it('says which server asks, and for a URL request which page', () => {
    expect(renderElicitation({ server: 'docs', message: 'Log in', mode: 'url', url: 'https://x.test/a' }, [])).toBe(
      '? MCP server "docs" asks: Log in\n  It wants you to open https://x.test/a',
    );
    const form = renderElicitation({ server: 'docs', message: 'Who?', mode: 'form', requestedSchema: schema }, fields);
    expect(form).toContain('9 fields; the answers go to that server only.');
    expect(form).toContain('  - Name (required) — Your name');
  });
});
