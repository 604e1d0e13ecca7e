/** A colour-blind-friendly qualitative palette (Okabe–Ito), extended; shared by every chart. */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#7F3C8D', '#999999', '#11A579', '#F0E442'];

/**
 * The Okabe–Ito set without its black, ordered so that the first methods differ most. Black is
 * left for reference marks (and would vanish on the dark theme's chart background).
 */
export const METHOD_COLORS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442'] as const;

/** chart.js point styles for methods; 'rect', 'triangle' (upright) and 'star' are kept for reference marks. */
const MARKERS = [
  { pointStyle: 'circle', rotation: 0 },
  { pointStyle: 'rectRot', rotation: 0 },
  { pointStyle: 'triangle', rotation: 180 },
  { pointStyle: 'crossRot', rotation: 0 },
  { pointStyle: 'rectRounded', rotation: 0 },
  { pointStyle: 'cross', rotation: 0 },
] as const;

export interface MethodStyle {
  color: string;
  pointStyle: (typeof MARKERS)[number]['pointStyle'];
  /** Degrees (chart.js pointRotation): the second triangle points down, apart from an upright one. */
  rotation: number;
  /** Crosses are strokes only: they need a wider line to read as a marker. */
  stroke: number;
}

/**
 * One colour and one marker per method, by its place in `methods`: 7 colours and 6 markers, so no
 * two of the first 42 methods share both, and a method looks the same in every chart of a run
 * when the charts are given the same list. Colour is never the only cue (the marker differs too).
 */
export function methodStyles(methods: readonly string[]): Map<string, MethodStyle> {
  const out = new Map<string, MethodStyle>();
  methods.forEach((m, i) => {
    if (out.has(m)) return;
    const marker = MARKERS[i % MARKERS.length]!;
    out.set(m, { color: METHOD_COLORS[i % METHOD_COLORS.length]!, ...marker, stroke: marker.pointStyle.startsWith('cross') ? 2.5 : 1 });
  });
  return out;
}
