import { describe, expect, it } from 'vitest';
import { experiencesToCsv, experiencesToJsonl } from '../../../src/core/export/experiences';
import type { Experience } from '../../../src/core/types';

const row: Experience = {
  id: 'ds|A|1|r',
  datasetId: 'ds',
  taskId: '1',
  prompt: 'p',
  toolId: 'A',
  score: 0.4586309383,
  rater: 'r',
  scoreSource: 'judge',
  categories: [],
  importId: 'i',
  createdAt: 0,
};

describe('experience exports keep every digit the page rounds away', () => {
  it('writes the full score to CSV and JSONL', () => {
    expect(experiencesToCsv([row]).split('\n')[1]).toContain(',0.4586309383,');
    expect(JSON.parse(experiencesToJsonl([row]).trim()).score).toBe(0.4586309383);
  });
});
