// The `wield mcp` commands alone, for the CLI tests (the lead wires them into the real CLI).
import { Command } from 'commander';
import { register } from '../../../src/cli/commands/mcp.js';

const program = new Command('wield');
register(program);
await program.parseAsync(process.argv);
