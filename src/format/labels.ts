/** A value of a known list in French (`labels`); anything else as it is. */
export function labelOf<K extends string>(labels: Record<K, string>, value: string): string {
  return Object.hasOwn(labels, value) ? labels[value as K] : value;
}
