/**
 * Writes the static-embedding lookup as an ONNX model with the `onnx-proto` protobuf bindings:
 *
 *   table = Mul(Cast(embeddings_int8 [V, D], to = FLOAT), row_scales [V, 1])  -> float [V, D]
 *   last_hidden_state = Gather(table, input_ids [B, S])                      -> float [B, S, D]
 *   token_sum = ReduceSum(last_hidden_state, axes = [1])                     -> float [B, D]
 *
 * Only `input_ids` is an input: transformers.js feeds a session just the inputs it declares, and
 * pools with the tokenizer's attention mask itself. `token_sum` is the same pooling done in the
 * graph: [PAD] (and [UNK], suffix pieces) are zero rows, so summing every position sums exactly the
 * known words; divided by the token count it is the mean, and after L2 normalisation it is the
 * same vector. Our embedders fetch only `token_sum`: onnxruntime-web copies every fetched output
 * out of WASM memory, and copying `last_hidden_state` ([B, S, D]) cost ~10× the lookup itself.
 * Opset 13 / IR 8 run on onnxruntime-node and onnxruntime-web alike. No timestamps are written, so
 * rebuilding gives byte-identical files.
 */
import onnxProto from 'onnx-proto';
import { TOKEN_SUM_OUTPUT } from '../../src/core/embed/static-model.ts';
import type { QuantisedTable } from './weights.ts';

const { onnx } = onnxProto;
const T = onnx.TensorProto.DataType;

function floatBytes(values: Float32Array): Uint8Array {
  // Protobuf raw_data is little-endian whatever the host is.
  const out = new Uint8Array(values.length * 4);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return out;
}

function valueInfo(name: string, elemType: number, dims: (string | number)[]) {
  return onnx.ValueInfoProto.create({
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) },
      },
    },
  });
}

export function buildOnnxModel(table: QuantisedTable, docString: string): Uint8Array {
  const { rows, dim } = table;
  const graph = onnx.GraphProto.create({
    name: 'static_embedding',
    docString,
    initializer: [
      onnx.TensorProto.create({
        name: 'embeddings_int8',
        dims: [rows, dim],
        dataType: T.INT8,
        rawData: new Uint8Array(table.values.buffer, table.values.byteOffset, table.values.byteLength),
      }),
      onnx.TensorProto.create({ name: 'row_scales', dims: [rows, 1], dataType: T.FLOAT, rawData: floatBytes(table.scales) }),
      onnx.TensorProto.create({ name: 'sequence_axis', dims: [1], dataType: T.INT64, int64Data: [1] }),
    ],
    node: [
      // Dequantise the whole table: every input here is an initializer, so onnxruntime folds these
      // two nodes into one float table when the session is created (16 MB in memory, 4 MB on disk)
      // and each run is a Gather and a ReduceSum.
      onnx.NodeProto.create({
        name: 'to_float',
        opType: 'Cast',
        input: ['embeddings_int8'],
        output: ['table_q'],
        attribute: [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: T.FLOAT }],
      }),
      onnx.NodeProto.create({ name: 'dequantise', opType: 'Mul', input: ['table_q', 'row_scales'], output: ['table'] }),
      onnx.NodeProto.create({
        name: 'gather_rows',
        opType: 'Gather',
        input: ['table', 'input_ids'],
        output: ['last_hidden_state'],
        attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      }),
      onnx.NodeProto.create({
        name: 'sum_tokens',
        opType: 'ReduceSum',
        input: ['last_hidden_state', 'sequence_axis'],
        output: [TOKEN_SUM_OUTPUT],
        attribute: [{ name: 'keepdims', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      }),
    ],
    input: [valueInfo('input_ids', T.INT64, ['batch_size', 'sequence_length'])],
    // last_hidden_state first: transformers.js' pipeline reads it (by name) for its own pooling.
    output: [valueInfo('last_hidden_state', T.FLOAT, ['batch_size', 'sequence_length', dim]), valueInfo(TOKEN_SUM_OUTPUT, T.FLOAT, ['batch_size', dim])],
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'toolmem-build-model',
    producerVersion: '1',
    docString,
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}
