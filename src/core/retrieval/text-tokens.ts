/**
 * The lexical tokenizer for BM25: Unicode-aware, lower-cased, accents stripped, split on anything
 * that is not a letter or digit, English stopwords dropped. No stemming — predictable and fast;
 * prompts in the datasets are short, so recall loss from inflections is small.
 */

// Function words that carry no topic (a short list; "not"/"no" are kept: they flip meaning).
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if then else of to in on at by for with from into onto over under about ' +
    'as is are was were be been being am do does did doing have has had having this that these those ' +
    "it its it's i me my we our you your he him his she her they them their what which who whom whose " +
    'there here when where why how all any both each few more most other some such only own same so ' +
    'than too very can will just should would could may might must shall also up down out off again ' +
    'further once while during before after above below between through s t'
  ).split(' '),
);

/** Lower-cased, accents stripped, split on anything not a letter or digit; nothing dropped. */
export function wordTokens(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

/** BM25's tokens: the word tokens without the stopwords. */
export function lexicalTokens(text: string): string[] {
  return wordTokens(text).filter((t) => !STOPWORDS.has(t));
}
