// The system prompt: a short base, each active tool's guidelines, and facts about the place.
import type { AnyTool } from '../tool/types.js';

const BASE = [
  // Neutral: any agent gets this default, so it names no task and no tool it may not have.
  'You are an assistant that works through the tools you are given.',
  'Use the tools to find out what you need; do not guess what a tool would tell you.',
  'Independent read-only calls may be made in one reply; they run in parallel.',
  'When a tool result is an error, read it and change the call instead of repeating it.',
  'Be concise. When the task is done, answer with a short summary of what changed.',
].join('\n');

export interface SystemPromptInput {
  tools: readonly AnyTool[];
  cwd: string;
  /** Injected so the prompt is deterministic in tests (and stable for prompt caching). */
  date: Date;
  platform?: string;
  /** Extra instructions (e.g. the ToolSearch section). */
  extra?: string;
}

export function buildSystemPrompt(input: SystemPromptInput): string {
  const sections = [BASE];
  const guidelines = input.tools
    .map((tool) => ({ name: tool.name, text: safePrompt(tool, input.cwd) }))
    .filter((entry) => entry.text !== '');
  if (guidelines.length > 0) {
    sections.push(['# Tool guidelines', ...guidelines.map((entry) => `## ${entry.name}\n${entry.text}`)].join('\n\n'));
  }
  if (input.extra) sections.push(input.extra.trim());
  sections.push(
    [
      '# Environment',
      `- Working directory: ${input.cwd}`,
      `- Platform: ${input.platform ?? process.platform}`,
      `- Date: ${input.date.toISOString().slice(0, 10)}`,
    ].join('\n'),
  );
  return sections.join('\n\n');
}

/** A tool's guideline text; a throwing prompt() must not take the session down. */
function safePrompt(tool: AnyTool, cwd: string): string {
  try {
    return tool.prompt?.({ cwd }).trim() ?? '';
  } catch {
    return '';
  }
}
