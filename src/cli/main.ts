#!/usr/bin/env node
// Placeholder entry; the CLI is assembled in src/cli/.
console.log('wield');
