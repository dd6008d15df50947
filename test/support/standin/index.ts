// Stand-in model servers speaking the Anthropic, OpenAI Chat Completions and OpenAI Responses
// wire formats, for tests that run real SDKs without the network.
export { startStandin } from './server.js';
export type {
  FaultStep,
  OpenAIQuirks,
  ReplyStep,
  ScriptStep,
  Standin,
  StandinDialect,
  StandinOptions,
  StandinToolCall,
  StandinUsage,
} from './types.js';
