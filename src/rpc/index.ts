/**
 * Typed worker protocol. Declare an API once (`method → { req, res, progress }`), serve it with
 * `expose()` in a worker, and call it through `createClient()` (worker) or
 * `createInThreadClient()` (same thread) — both are a `Client<A>`.
 */
export type {
  ApiSpec,
  CallContext,
  CallOptions,
  CancelMessage,
  Client,
  ClientMessage,
  Endpoint,
  ErrorMessage,
  Handler,
  Handlers,
  MethodName,
  MethodSpec,
  ProgressMessage,
  Reply,
  RequestMessage,
  ResultMessage,
  RpcMessage,
  SerializedError,
  ServerMessage,
} from './protocol';
export { isClientMessage, isServerMessage } from './protocol';
export { expose, workerScopeEndpoint, type ExposeHandle } from './server';
export { createClient, type WorkerClient } from './client';
export { createInThreadClient } from './in-thread';
export { transfer, isTransferred, collectTransferables, type Transferred } from './transfer';
export { WorkerCrashedError, UnknownMethodError, RPC_ERROR_CLASSES } from './errors';
export { serializeError, deserializeError, type ErrorClass } from './error-codec';
export { PortClient, type ConnectApi, type PortSpec } from './ports';
