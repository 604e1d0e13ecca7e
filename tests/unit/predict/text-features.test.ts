import { describe, expect, it } from 'vitest';
import { nGrams, promptShapeFeatures, PROMPT_SHAPE_FEATURES, sparseDot, TfidfVectorizer, wordTokens } from '../../../src/core/predict';

describe('text features', () => {
  it('tokenizes keeping function words, stripping accents', () => {
    expect(wordTokens('No red-apples, Café!')).toEqual(['no', 'red', 'apples', 'cafe']);
    expect(nGrams(['a', 'b', 'c'], 2)).toEqual(['a', 'b', 'c', 'a b', 'b c']);
  });

  it('TF-IDF: smoothed idf, sublinear tf, unit length (hand-computed)', () => {
    const v = new TfidfVectorizer({ ngrams: 1 }).fit(['a b', 'a c']);
    expect(v.size).toBe(3);
    // idf(a) = ln(3/3) + 1 = 1; idf(b) = ln(3/2) + 1
    const idfB = Math.log(1.5) + 1;
    const x = v.transform('a b b');
    const tfB = (1 + Math.log(2)) * idfB;
    const norm = Math.sqrt(1 + tfB * tfB);
    expect([...x.indices]).toEqual([0, 1]);
    expect(x.values[0]).toBeCloseTo(1 / norm, 12);
    expect(x.values[1]).toBeCloseTo(tfB / norm, 12);
    expect(sparseDot(x, x)).toBeCloseTo(1, 12);
    expect(v.transform('zzz').indices.length).toBe(0);
  });

  it('prompt-shape cues count negation, counting, comparison … (capped at 3)', () => {
    const f = promptShapeFeatures('Three cats, no dogs and no birds, more cats than "mice" in Paris');
    const at = (name: (typeof PROMPT_SHAPE_FEATURES)[number]) => f[PROMPT_SHAPE_FEATURES.indexOf(name)];
    expect(f).toHaveLength(PROMPT_SHAPE_FEATURES.length);
    expect(at('negation')).toBe(2);
    expect(at('counting')).toBe(1);
    expect(at('comparison')).toBe(2); // more, than
    expect(at('commas')).toBe(2);
    expect(at('quotes')).toBe(1);
    expect(at('capitalised')).toBe(1); // Paris (the first word is skipped)
    expect(promptShapeFeatures('no no no no no')[PROMPT_SHAPE_FEATURES.indexOf('negation')]).toBe(3);
  });
});
