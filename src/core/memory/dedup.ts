/**
 * Near-duplicates never pile up: an `add` (or a critique) whose text is near-identical to a valid
 * entry of the same tool — ANY valid entry, not only the ones retrieved for the prompt — becomes
 * an `update` of that entry (new text and level, the evidence of both). Near-identical means a
 * cosine similarity of the two texts' embeddings of at least DUPLICATE_SIMILARITY.
 *
 * Constraints: a pinned entry is never changed this way (the repeating add is dropped and
 * reported); an entry another operation of the same reply already changes is not changed twice
 * (dropped and reported); two adds of one reply that repeat each other give one entry.
 */
import { cosine } from '../embed';
import { quote } from '../text/quote';
import type { MemoryEntry } from '../records';
import type { EntryIndex } from './entry-index';
import { idsOf, type Operation, type RejectedOperation } from './operations';

/**
 * Cosine at or above which two entry texts say the same thing. Measured with the bundled offline
 * GloVe model (`toolmem embed`): rewordings score 0.97–0.98 ("Counting more than three objects" /
 * "… more than 3 objects" 0.981, "… over three objects" 0.968), opposite claims about one subject
 * up to 0.945 ("Good at counting objects" / "Bad at counting objects"; "Photorealistic landscapes
 * …" / "Struggles with photorealistic landscapes …" 0.934). 0.96 lies between; merging opposite
 * claims would lose one, so the margin is kept on that side. Another embedding model may need
 * another value.
 */
export const DUPLICATE_SIMILARITY = 0.96;

export interface DedupContext {
  toolId: string;
  index: EntryIndex;
  /** Entries shown to the model, by alias. */
  shown: ReadonlyMap<string, MemoryEntry>;
  signal?: AbortSignal;
}

export interface Deduped {
  operations: Operation[];
  positions: number[];
  rejected: RejectedOperation[];
  /** Entries outside the shown set that an update now refers to, by the key it uses (`#<entry id>`). */
  extra: Map<string, MemoryEntry>;
}

/** The valid entry of the tool that `vector` repeats, if any. */
export function repeatedEntry(index: EntryIndex, vector: ArrayLike<number>, toolId: string): { entry: MemoryEntry; score: number } | null {
  const hit = index.nearest(vector, toolId, 1)[0];
  return hit && hit.score >= DUPLICATE_SIMILARITY ? hit : null;
}

export async function dedupAdds(operations: readonly Operation[], positions: readonly number[], ctx: DedupContext): Promise<Deduped> {
  const out: Deduped = { operations: [], positions: [], rejected: [], extra: new Map() };
  const adds = operations.filter((op) => op.op === 'add');
  if (adds.length === 0) return { ...out, operations: [...operations], positions: [...positions] };
  const vectors = await ctx.index.embed(
    adds.map((op) => op.text),
    ctx.signal,
  );
  const aliasOf = new Map([...ctx.shown].map(([alias, e]) => [e.id, alias]));
  const used = new Set(operations.flatMap(idsOf));
  const keptAdds: ArrayLike<number>[] = [];
  let n = 0;
  operations.forEach((op, i) => {
    const at = positions[i]!;
    if (op.op !== 'add') {
      out.operations.push(op);
      out.positions.push(at);
      return;
    }
    const vector = vectors[n++]!;
    const reject = (reason: string) => out.rejected.push({ index: at, reason });
    if (keptAdds.some((v) => cosine(v, vector) >= DUPLICATE_SIMILARITY)) return void reject('repeats an earlier add of this reply; added once');
    const hit = repeatedEntry(ctx.index, vector, ctx.toolId);
    if (!hit) {
      keptAdds.push(vector);
      out.operations.push(op);
      out.positions.push(at);
      return;
    }
    const key = aliasOf.get(hit.entry.id) ?? `#${hit.entry.id}`;
    const shownAs = aliasOf.has(hit.entry.id) ? `entry ${key}` : `the entry ${quote(hit.entry.text, 60)}`;
    if (hit.entry.pinned) return void reject(`repeats ${shownAs}, which is pinned; not added`);
    if (used.has(key)) return void reject(`repeats ${shownAs}, which another operation of this reply already changes; not added`);
    used.add(key);
    if (!aliasOf.has(hit.entry.id)) out.extra.set(key, hit.entry);
    out.operations.push({ op: 'update', id: key, level: op.level, text: op.text, duplicateOf: true });
    out.positions.push(at);
  });
  return out;
}
