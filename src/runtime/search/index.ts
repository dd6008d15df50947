// wield/search — ToolSearch: rank a large pool, offer the core tools plus what the model found.
export { ToolIndex, type SearchHit, type SearchResult } from './tool-index.js';
export { createToolSearchTool } from './tool.js';
export { selectToolsForRequest, CORE_TOOL_NAMES, type DeferralOptions, type ToolSelection } from './defer.js';
export { createEmbeddingReranker, type Reranker } from './rerank.js';
export { discoveredToolNames } from './result-text.js';
