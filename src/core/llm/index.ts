/** Chat-model engines: the contract, the OpenAI-compatible HTTP engine, scripted replay, `none`. */
export * from './engine';
export * from './errors';
export * from './sse';
export * from './openai-compatible';
export * from './scripted';
export * from './spec';
export { endpointOf, ENGINE_KINDS, ENGINES, engineConnections, engineRow, httpOrigin, type EngineConnections, type EngineRow } from './engines';
export * from './json-reply';
export * from './models';
export * from './explain';
export * from './blocked-ports';
