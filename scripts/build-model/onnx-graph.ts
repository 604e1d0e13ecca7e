/**
 * Writes the static-embedding lookup as an ONNX model with the `onnx-proto` protobuf bindings:
 *
 *   q    = Gather(embeddings_int8 [V, D], input_ids [B, S])   -> int8  [B, S, D]
 *   qf   = Cast(q, to = FLOAT)                                 -> float [B, S, D]
 *   s    = Gather(scales [V, 1], input_ids)                    -> float [B, S, 1]
 *   last_hidden_state = Mul(qf, s)                             -> float [B, S, D]
 *
 * Only `input_ids` is an input: transformers.js feeds a session just the inputs it declares, and
 * pools with the tokenizer's attention mask itself. Opset 13 / IR 8 run on onnxruntime-node and
 * onnxruntime-web alike. No timestamps are written, so rebuilding gives byte-identical files.
 */
import onnxProto from 'onnx-proto';
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
    ],
    node: [
      onnx.NodeProto.create({
        name: 'gather_rows',
        opType: 'Gather',
        input: ['embeddings_int8', 'input_ids'],
        output: ['rows_int8'],
        attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      }),
      onnx.NodeProto.create({
        name: 'to_float',
        opType: 'Cast',
        input: ['rows_int8'],
        output: ['rows_float'],
        attribute: [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: T.FLOAT }],
      }),
      onnx.NodeProto.create({
        name: 'gather_scales',
        opType: 'Gather',
        input: ['row_scales', 'input_ids'],
        output: ['scales'],
        attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      }),
      onnx.NodeProto.create({ name: 'dequantise', opType: 'Mul', input: ['rows_float', 'scales'], output: ['last_hidden_state'] }),
    ],
    input: [valueInfo('input_ids', T.INT64, ['batch_size', 'sequence_length'])],
    output: [valueInfo('last_hidden_state', T.FLOAT, ['batch_size', 'sequence_length', dim])],
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
