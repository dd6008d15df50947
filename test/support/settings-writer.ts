// A separate process that writes shared settings the way "always" answers do: argv is
// <project cwd> <wield home> <tag> <count>. Used to show concurrent writers keep every change.
import { persistRule } from '../../src/coding/settings/persist.js';
import { saveProjectRules, projectsFile } from '../../src/coding/settings/projects.js';
import { trustProject } from '../../src/coding/settings/load.js';

const [cwd, home, tag, count] = process.argv.slice(2);
for (let i = 0; i < Number(count); i++) {
  await persistRule(cwd, `Bash(echo ${tag}-${i} *)`);
  await saveProjectRules(projectsFile(home), cwd, [`Read(/data/${tag}-${i})`]);
}
await trustProject(`${cwd}/${tag}`, home);
