// A file tool for decision tests: it names one path, read or written, and does nothing.
import { defineTool } from '../../../src/runtime/tool/define.js';

export const fileTool = (name: string, access: 'read' | 'write') =>
  defineTool<{ file_path: string }>({
    name,
    description: name,
    inputJSONSchema: { type: 'object' },
    isReadOnly: () => access === 'read',
    touchedPaths: (i) => [{ path: i.file_path, access }],
    call: async () => '',
  });
