/**
 * The JSON files transformers.js needs next to the ONNX graph. The tokenizer is a BERT-style
 * WordPiece tokenizer (lower-case, accents stripped, split on whitespace and punctuation) whose
 * vocabulary is whole words plus a few zero-vector suffix pieces, and which adds no [CLS]/[SEP]
 * (post_processor null) because a static model has no use for them.
 */

export const PAD = '[PAD]';
export const UNK = '[UNK]';

/**
 * Continuation pieces with zero vectors. WordPiece matches the longest known prefix and then needs
 * the rest to be a `##` piece; with these, an out-of-vocabulary inflection such as `selfies` →
 * `selfie ##s` or `bused` → `bus ##ed` keeps its stem's vector instead of becoming [UNK]. Anything
 * else unknown becomes a single [UNK] (WordPiece maps the whole word).
 */
export const SUFFIX_PIECES = ['##s', '##es', '##ed', '##ing', '##ly', '##er', '##ers', '##est'] as const;

export const MAX_LENGTH = 512;

export function tokenizerJson(vocab: Record<string, number>) {
  const special = (id: number, content: string) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(vocab[PAD]!, PAD), special(vocab[UNK]!, UNK)],
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: null,
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: UNK,
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  };
}

export function tokenizerConfigJson() {
  return {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    strip_accents: null,
    tokenize_chinese_chars: true,
    pad_token: PAD,
    unk_token: UNK,
    model_max_length: MAX_LENGTH,
    clean_up_tokenization_spaces: true,
  };
}

/**
 * `model_type: bert` because transformers.js loads BertModel through its generic encoder path: it
 * feeds the session only the inputs the graph declares (here `input_ids`) and reads
 * `last_hidden_state`. `transformers.js_config.dtype = q8` makes it pick `onnx/model_quantized.onnx`
 * on every device (Node defaults to fp32 → `model.onnx`, which we do not ship).
 */
export function configJson(vocabSize: number, dim: number, build: Record<string, unknown>) {
  return {
    model_type: 'bert',
    architectures: ['BertModel'],
    hidden_size: dim,
    vocab_size: vocabSize,
    max_position_embeddings: MAX_LENGTH,
    pad_token_id: 0,
    'transformers.js_config': { dtype: 'q8' },
    toolmem_static_embedding: build,
  };
}
