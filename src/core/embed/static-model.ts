/**
 * Facts about our static (lookup-table) embedding models that both the model builder
 * (scripts/build-model) and the embedders rely on.
 */

/**
 * Output holding each text's sum of token vectors, [batch, dim], computed inside the ONNX graph.
 * Padding rows are zero, so it equals the masked sum; an embedder that finds this output fetches it
 * instead of `last_hidden_state` ([batch, sequence, dim]), which onnxruntime-web would otherwise copy
 * out of WASM memory on every call.
 */
export const TOKEN_SUM_OUTPUT = 'token_sum';
