/**
 * The four tools of a ToolMem memory, as MCP lists them (names and descriptions; the input schemas
 * are tool-args.ts's), and the shape of a tool's answer. Shared by the MCP server (server.ts) and
 * the handlers that answer them (answers.ts).
 */

/** A tool's answer: the JSON value of a result, or the text of a tool error (unknown tool id). */
export type ToolAnswer = { value: unknown } | { error: string };

export const TOOLS = [
  {
    name: 'list_tools',
    description: 'The tools this capability memory knows, with how many entries of each level (proficient, good, bad, weak) it holds about each.',
  },
  {
    name: 'recall',
    description:
      'Recall what the memory says about a tool for a task: the k most similar entries of each level (proficient, good, bad, weak) with their ' +
      "cosine similarity to the task, each entry's status (claim, tentative — not a claim — or the tool's profile), facet, effect (n, " +
      'shrunk deltas, 95% credible interval, lfsr, raw estimate; numbers rounded as its text shows them) and verdict on unseen tasks, ' +
      'and — for a capability memory — the entries whose facets apply to the task with what each adds to the prediction and the ' +
      "probability that the facet applies (`applying`), the leaderboards of those facets (every tool's level, rank with its 95% " +
      "interval, probability of being best, which on a facet also weighs the tool's standing on all tasks; `leaderboards`) and " +
      'the pick claims that apply (`picks`).',
  },
  {
    name: 'predict_score',
    description:
      "Predict the tool's score on the task: the tool's mean plus the contributions, in score points, of the memory entries whose facets apply " +
      '(capability memory), each with its effect and verdict; older memories use the retrieval signal and their calibration.',
  },
  {
    name: 'select_tool',
    description:
      'Rank candidate tools for a task by utility = predicted score − cost_weight × cost per call (best first; cost_weight defaults to 0, so by ' +
      'score), with the contributions behind each score and a `reason` for the choice (a pick claim that applies to the task, with its ' +
      'check on unseen tasks, when there is one); `choice` is null on an exact tie. Costs (US dollars per call) and typical latencies ' +
      "(ms) are the memory file's, listed by list_tools. max_cost and max_latency_ms are hard limits: a tool over a limit, or whose cost " +
      'or latency the memory does not know, is never ranked or chosen; it is listed in `excluded` with the reason.',
  },
] as const;
export type ToolName = (typeof TOOLS)[number]['name'];
export const TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.map((t) => t.name));
