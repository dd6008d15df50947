// Public library surface of wield.
export * from './tool/types.js';
export * from './tool/define.js';
export * from './pipeline/types.js';
export * from './providers/types.js';
