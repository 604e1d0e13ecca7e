/** A colour-blind-friendly qualitative palette (Okabe–Ito), extended; shared by every chart. */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#7F3C8D', '#999999', '#11A579', '#F0E442'];
