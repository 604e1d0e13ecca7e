import { describe, expect, it } from 'vitest';
import { CUES, cueById, cueMatches, forgetCueMatches } from '../../../src/core/capability/cues';

/** Hand-written prompts: each cue must fire on every positive and on no near-miss. */
const CASES: Record<string, { yes: string[]; no: string[] }> = {
  negation: {
    yes: [
      'A field without a single blade of grass.',
      'A vase with no flowers.',
      'The cat is not sleeping.',
      'None of the cups are full.',
      "The door isn't open.",
      'Neither umbrella is open.',
      'No one is in the room.',
      'A non-blue box.',
      'Do not use the letter e.',
    ],
    no: [
      'A notebook on a desk.',
      'Northern lights over a lake.',
      'A knot in a rope.',
      'Not only a cat but also a dog.',
      'Nothing but blue sky.',
      'No matter the weather, a picnic.',
      'A poster of No. 5 perfume.',
      'Noah builds an ark.',
    ],
  },
  counting: {
    yes: ['Three brick houses.', 'Two dogs in hats.', 'A pair of shoes by the door.', 'Exactly 12 eggs in a carton.', 'A dozen roses.', 'Fifteen balloons.'],
    no: [
      'Someone waves from a boat.',
      'The one on the left is red.',
      'Two-tone shoes? no: a two-story house.',
      'A tent often used by hikers.',
      'A 1920s jazz club.',
      "A sign reading 'Open 24 Hours'.",
    ],
  },
  spatial: {
    yes: [
      'A cat under the table.',
      'A lamp next to the bed.',
      'A dog on the left of a door.',
      'A bird above the clouds.',
      'He holds a cup in his right hand.',
      'A ball between two boxes.',
      'A cat on a mat.',
    ],
    no: [
      'He left the room.',
      'A left-handed painter.',
      'The right answer is clear.',
      'Call me right now.',
      'I understand the plan.',
      'Nearly finished painting.',
      'A picnic on a sunny day.',
    ],
  },
  comparison: {
    yes: [
      'A dog bigger than a horse.',
      'The taller one hugs the shorter one.',
      'A cup as big as a bucket.',
      'The same color as the sky.',
      'The tallest tree in the forest.',
      'Fewer forks than bowls.',
      'Three cars, each a different color.',
    ],
    no: [
      'Tea rather than coffee.',
      'Anyone other than him.',
      'Cats as well as dogs.',
      'He no longer paints.',
      'A baker and a flower.',
      'A cooler on the beach.',
    ],
  },
  universal: {
    yes: [
      'All the doors are closed.',
      'Every car is red.',
      'Each child holds a kite.',
      'Both cups are empty.',
      'Everyone is smiling.',
      'Neither of the two is white.',
      'Two cats grooming each other.',
    ],
    no: ['A small ball.', 'A tall wall.', 'Not tired at all.', 'It is all right.', 'After all, a quiet night.', 'A bowl of soup.'],
  },
  'text-render': {
    yes: [
      "A sign that says 'Open'.",
      'A banner reading "SALE" on a shop.',
      'A mug with the words “good morning”.',
      "A cake with 'Happy Birthday' written on it.",
    ],
    no: ["It's raining on the dogs' bowl.", "Rock 'n' roll night.", 'A man reads a newspaper.', "The cat's toy."],
  },
  'and-list': {
    yes: ['A cat, a dog and a bird.', 'A red apple and a green pear and a banana.', 'Three cups and two plates and a spoon.'],
    no: [
      'A cat and a dog.',
      'A black and white photo of a cat and a dog.',
      "A sign that says 'Fish and Chips and Beer'.",
      'A man standing, a woman handing over a candle.',
    ],
  },
  people: {
    yes: [
      'A man riding a horse.',
      'Two women on a bench.',
      'A child holding a kite.',
      'A chef in a busy kitchen.',
      'A crowd at a concert.',
      'A couple dancing in the rain.',
    ],
    no: ['A snowman in a field.', 'A couple of apples.', 'A manhole cover.', 'A woman-shaped cloud.', 'Germany at night.', "A sign that says 'Men at work'."],
  },
  'count-3': {
    yes: ['Three brick houses.', 'Five balloons.', 'A dozen roses.', 'Exactly 12 eggs in a carton.', 'Two cats and four dogs.'],
    no: [
      'Two dogs in hats.',
      'A pair of shoes by the door.',
      'A couple of cups.',
      '2 cats on a sofa.',
      'A 1920s jazz club.',
      "A sign reading 'Open 24 Hours'.",
      'The one on the left is red.',
    ],
  },
  'short-prompt': { yes: ['Three brick houses.', 'A red apple.'], no: ['A quiet harbour at dawn with fishing boats.', ''] },
  'words-12': {
    yes: ['A cat sits on a red mat next to the warm fire.'],
    no: ['A cat sits on a red mat next to the fire.', 'A cat – sits on a red mat next to the fire .'],
  },
  'words-16': {
    yes: ['A cat sits on a red mat next to the warm fire in a wooden cabin.'],
    no: ['A cat sits on a red mat next to the fire in a wooden cabin.'],
  },
  'long-prompt': {
    yes: ['In a busy kitchen, a chef in a white hat looks at the vegetables in the sink, none of which are fresh, while two cooks argue nearby.'],
    no: ['A red apple on a table.'],
  },
  'long-input': { yes: [Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ')], no: ['Summarise this paragraph for me.'] },
  code: {
    yes: [
      'Write a Python function that reverses a list.',
      'Fix the bug in this code: ```x = 1```',
      'Explain this SQL query.',
      'Implement a function to sort numbers.',
      'What does def foo(x): do?',
    ],
    no: [
      'What is the dress code for a wedding?',
      'My zip code is 12345.',
      'Teach me Morse code.',
      'A code of conduct for volunteers.',
      'Plan a trip to Java.',
      'How do I remove rust from a bike?',
    ],
  },
  math: {
    yes: [
      'What is 12 * 7?',
      'Solve for x: 2x + 3 = 11.',
      'Calculate the area of a circle.',
      'Find the derivative of x^2.',
      'What is the probability of two heads?',
      'Given f(x) = 3x, find f(2).',
    ],
    no: ['It was a calculated risk.', 'My computer is slow.', 'Write 3-4 sentences about cats.', 'Open 24/7.', 'Solve my conflict with a coworker.'],
  },
  'role-play': {
    yes: [
      'Pretend to be a world-famous chef.',
      'As a pirate captain, what would you say to your crew?',
      'I want you to act as a travel guide.',
      'Imagine you are a time traveler.',
      "Let's role-play a job interview.",
    ],
    no: ['As a result, prices rose.', 'The enzyme acts as a catalyst.', 'As a child, I loved trains. Why?', 'Describe the role of mitochondria.'],
  },
  'multi-turn': {
    yes: ['User: Hi\nAssistant: Hello!\nUser: Tell me a joke.', '[INST] Write a poem [/INST]'],
    no: ['User: what is the capital of France?', 'The user interface is slow.'],
  },
  format: {
    yes: ['Answer in JSON.', 'List them as bullet points.', 'Put the results in a table.', 'Use the following format: Name - Age.', 'Write it in Markdown.'],
    no: ['A kitchen table with four chairs.', 'Describe a table with four legs.', 'How do I format a hard drive?'],
  },
  'length-limit': {
    yes: [
      'Summarise it in 50 words.',
      'Write a 500-word essay.',
      'Explain in one sentence.',
      'Answer briefly.',
      'Keep it under 100 characters.',
      'Give a concise answer.',
    ],
    no: ['Write a short story about a dog.', 'Tell me a brief history of Rome.', 'How many words are in English?'],
  },
};

describe('cue registry', () => {
  it('has the documented cues, each with a label and a modality', () => {
    expect(CUES.map((c) => c.id)).toEqual(Object.keys(CASES));
    for (const c of CUES) {
      expect(c.label.length).toBeGreaterThan(0);
      expect(['any', 'image', 'text']).toContain(c.modality);
    }
  });
  for (const [id, { yes, no }] of Object.entries(CASES)) {
    describe(id, () => {
      const cue = cueById(id)!;
      it.each(yes)('fires on %j', (p) => expect(cue.test(p)).toBe(true));
      it.each(no)('does not fire on %j', (p) => expect(cue.test(p)).toBe(false));
    });
  }
  it('is case-insensitive and gives the trigger texts it found, in order', () => {
    expect(cueMatches('negation', 'NO cats, NOT one, WITHOUT dogs')).toEqual(['no', 'not', 'without']);
    expect(cueMatches('text-render', "A sign that says 'Open'")).toEqual(['that says', 'quoted text']);
    expect(cueMatches('short-prompt', 'A cat')).toEqual([]);
    expect(cueMatches('count-3', 'Two cats, a pair of owls and three dogs')).toEqual(['three']);
    expect(cueMatches('and-list', 'A cat, a dog and a bird')).toEqual(['and']);
    expect(cueMatches('people', 'A boy and his dog')).toEqual(['boy']);
    expect(cueById('unknown')).toBeUndefined();
  });
  it('is the same on repeated calls (no regex state kept between prompts)', () => {
    const cue = cueById('negation')!;
    expect([cue.test('no cats'), cue.test('no cats'), cue.test('no cats')]).toEqual([true, true, true]);
  });
});

describe('cueMatches keeps what it found (one build asks each prompt about each cue about four times)', () => {
  it('answers a repeated question from its cache, the same as a cold one, and never shares a changeable empty array', () => {
    forgetCueMatches();
    const first = cueMatches('negation', 'a cat not wearing a hat, three birds on a fence');
    expect(first).toEqual(['not']);
    expect(cueMatches('negation', 'a cat not wearing a hat, three birds on a fence')).toBe(first);
    forgetCueMatches();
    const cold = cueMatches('negation', 'a cat not wearing a hat, three birds on a fence');
    expect(cold).not.toBe(first);
    expect(cold).toEqual(first);
    const none = cueMatches('negation', 'a cat wearing a hat');
    expect(none).toEqual([]);
    expect(Object.isFrozen(none)).toBe(true);
    // Bounded by characters too: a prompt that would take the cache past 4,000,000 characters empties it first.
    const kept = cueMatches('negation', 'a street without cars');
    expect(cueMatches('negation', 'a street without cars')).toBe(kept);
    expect(cueMatches('negation', 'x '.repeat(2_000_001))).toEqual([]);
    const again = cueMatches('negation', 'a street without cars');
    expect(again).not.toBe(kept);
    expect(again).toEqual(['without']);
    // Derived cues read the cached matches of the cue they derive from: "three" counts, "two" does not.
    expect(cueMatches('count-3', 'two dogs and three birds')).toEqual(['three']);
  });
});
