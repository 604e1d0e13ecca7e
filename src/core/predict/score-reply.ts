/**
 * Reading a predicted score out of a model's reply. Engines with constrained decoding return
 * {"score": n}; others wrap it in prose or a code fence, or answer in words. Order of attempts:
 *  1. a JSON object with a numeric `score` (a numeric string is accepted);
 *  2. a number right after the word "score" / "rating" / "predict…";
 *  3. the first number in the text that is not part of a range ("1 to 5", "1-5") or a
 *     denominator ("out of 5", "/5"), preferring one that lies on the scale;
 *  4. a number written as a word ("four", "three and a half").
 * A value off the scale is clamped and reported (`outOfRange`); on a 0–1 scale "70%" means 0.7.
 * Nothing found → null: the caller falls back to the tool's mean and counts a parse failure.
 */
import { parseJsonReply } from '../llm/json-reply';
import type { ScoreScale } from '../types';

export interface ParsedScore {
  /** Clamped to the scale. */
  score: number;
  /** The model's number was outside the scale (it was clamped). */
  outOfRange: boolean;
  source: 'json' | 'text' | 'word';
}

const WORDS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};

function clamp(value: number, scale: ScoreScale, source: ParsedScore['source']): ParsedScore {
  if (value < scale.min) return { score: scale.min, outOfRange: true, source };
  if (value > scale.max) return { score: scale.max, outOfRange: true, source };
  return { score: value, outOfRange: false, source };
}

function fromJson(text: string): number | null {
  if (!/[{[]/.test(text)) return null;
  let value: unknown;
  try {
    value = parseJsonReply(text);
  } catch {
    return null;
  }
  const obj = Array.isArray(value) ? value[0] : value;
  if (!obj || typeof obj !== 'object') return null;
  const raw = (obj as Record<string, unknown>).score;
  if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
  if (typeof raw === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(raw)) return Number(raw);
  return null;
}

const NUM = String.raw`-?\d+(?:\.\d+)?`;

/** Numbers of the text that are answers, not a restated scale. */
function candidates(text: string, scale: ScoreScale): number[] {
  const masked = text
    // "1 to 5", "1-5", "1 – 5", "between 1 and 5": a range, not an answer
    .replace(new RegExp(String.raw`(?:between\s+)?${NUM}\s*(?:to|-|–|—|and)\s*${NUM}`, 'gi'), (m) => (/\bbetween\b|\bto\b|[-–—]/i.test(m) ? ' ' : m))
    // "out of 5", "/ 5": a denominator
    .replace(new RegExp(String.raw`(?:out\s+of|/)\s*${NUM}`, 'gi'), ' ');
  const out: number[] = [];
  for (const m of masked.matchAll(new RegExp(String.raw`(${NUM})\s*(%?)`, 'g'))) {
    let x = Number(m[1]);
    if (m[2] === '%' && scale.max <= 1) x /= 100;
    if (Number.isFinite(x)) out.push(x);
  }
  return out;
}

function fromKeyword(text: string, scale: ScoreScale): number | null {
  const m = new RegExp(String.raw`\b(?:score|rating|predict\w*|estimate\w*)\b[^0-9\-\n]{0,20}(${NUM})\s*(%?)`, 'i').exec(text);
  if (!m) return null;
  const x = Number(m[1]);
  return m[2] === '%' && scale.max <= 1 ? x / 100 : x;
}

function fromWords(text: string): number | null {
  const m = /\b(zero|one|two|three|four|five|six|seven|eight|nine|ten)\b(\s+and\s+a\s+half)?/i.exec(text);
  if (!m) return null;
  return WORDS[m[1]!.toLowerCase()]! + (m[2] ? 0.5 : 0);
}

export function parseScoreReply(text: string, scale: ScoreScale): ParsedScore | null {
  const json = fromJson(text);
  if (json !== null) return clamp(json, scale, 'json');
  const keyword = fromKeyword(text, scale);
  if (keyword !== null) return clamp(keyword, scale, 'text');
  const nums = candidates(text, scale);
  const onScale = nums.find((x) => x >= scale.min && x <= scale.max);
  if (onScale !== undefined) return clamp(onScale, scale, 'text');
  if (nums.length > 0) return clamp(nums[0]!, scale, 'text');
  const word = fromWords(text);
  return word === null ? null : clamp(word, scale, 'word');
}
