import { cosine, rowOf, type EmbeddingBatch } from '../../../src/core/embed';

/**
 * 20 hand-written (anchor, paraphrase, unrelated) sentence triples, written for this project. They
 * mix general sentences with tool-behaviour statements like the ones memory entries contain;
 * several paraphrases share few words with their anchor.
 */
export const TRIPLES: readonly [string, string, string][] = [
  ['A dog is running across the grassy field.', 'A puppy sprints over the lawn.', 'The stock market closed lower after the earnings report.'],
  [
    'The model struggles to render legible text inside images.',
    'Generated pictures often contain garbled, unreadable lettering.',
    "She baked a chocolate cake for her brother's birthday.",
  ],
  ['How do I reset my password?', 'What are the steps to change a forgotten login password?', 'The river flooded the village after heavy rain.'],
  [
    'The chef chopped onions and garlic for the sauce.',
    'The cook sliced garlic and onions to make the sauce.',
    'Astronomers discovered a new planet orbiting a distant star.',
  ],
  [
    'This tool is excellent at writing Python code.',
    'The assistant produces high-quality Python programs.',
    'The orchestra performed a symphony by Beethoven.',
  ],
  ['Children were playing football in the park.', 'Kids played soccer on the playground.', 'The senator proposed a new tax bill.'],
  [
    'The image generator miscounts objects when asked for exactly five apples.',
    'When a prompt requests a specific number of items, the picture shows the wrong count.',
    'The hiking trail winds through a pine forest to a mountain lake.',
  ],
  ['The weather is cold and snowy this winter.', 'It has been freezing with lots of snow this season.', 'The company hired a new chief financial officer.'],
  ['He repaired the broken bicycle wheel.', 'He fixed the damaged wheel of his bike.', 'The museum opened an exhibition of ancient pottery.'],
  ['The answer contained factual errors about history.', 'The response got several historical facts wrong.', 'A cat is sleeping on a warm windowsill.'],
  ['A woman is reading a book in the library.', 'A lady reads a novel at the library.', 'Engineers tested the rocket engine in the desert.'],
  [
    'The translation from French to English was accurate.',
    'The model translated the French text into English correctly.',
    'The farmer harvested wheat before the storm.',
  ],
  ['The car accelerated quickly on the highway.', 'The vehicle sped up fast on the motorway.', 'She painted a portrait of her grandmother.'],
  ['Students are studying for their final exams.', 'Pupils are preparing for end-of-year tests.', 'The ship sank near the rocky coast.'],
  [
    'The photo shows a red apple on a wooden table.',
    'A picture of a red apple sitting on a table made of wood.',
    'The government announced new immigration rules.',
  ],
  [
    'The summary left out the most important points of the article.',
    'The summarization missed the key ideas of the text.',
    'Two birds are building a nest in the oak tree.',
  ],
  [
    'The doctor prescribed medicine for the infection.',
    'The physician gave the patient antibiotics to treat the illness.',
    'The band released a new album of rock songs.',
  ],
  ['A man is playing the guitar on stage.', 'A guitarist performs music at a concert.', 'The bank raised interest rates to fight inflation.'],
  [
    'The generated image placed the cat to the left of the dog instead of the right.',
    'Spatial relations were wrong: the picture swapped the positions of the cat and the dog.',
    'Volunteers cleaned plastic waste from the beach.',
  ],
  [
    'The chatbot refused to answer a harmless question.',
    'The assistant declined to respond to a safe request.',
    'The train to Paris was delayed by two hours.',
  ],
];

export interface TripleScore {
  /** Triples whose paraphrase is closer to the anchor than the unrelated sentence. */
  won: number;
  /** Mean cosine anchor–paraphrase and anchor–unrelated. */
  paraphrase: number;
  unrelated: number;
  /** The triples lost, with both similarities. */
  misses: string[];
}

/** Scores embeddings of `TRIPLES.flat()` (anchor, paraphrase, unrelated per triple, in order). */
export function scoreTriples(out: EmbeddingBatch): TripleScore {
  const score: TripleScore = { won: 0, paraphrase: 0, unrelated: 0, misses: [] };
  TRIPLES.forEach((t, i) => {
    const a = rowOf(out, 3 * i);
    const p = cosine(a, rowOf(out, 3 * i + 1));
    const u = cosine(a, rowOf(out, 3 * i + 2));
    score.paraphrase += p / TRIPLES.length;
    score.unrelated += u / TRIPLES.length;
    if (p > u) score.won++;
    else score.misses.push(`${t[0]} (paraphrase ${p.toFixed(3)} ≤ unrelated ${u.toFixed(3)})`);
  });
  return score;
}
