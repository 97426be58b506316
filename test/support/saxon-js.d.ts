/** npm `saxon-js` ships no types: the one call the tests make (running the EN 16931 rules). */
declare module 'saxon-js' {
  const SaxonJS: {
    transform(
      options: { stylesheetInternal?: unknown; stylesheetFileName?: string; sourceText?: string; destination: 'serialized' },
      mode: 'async',
    ): Promise<{ principalResult: string }>;
  };
  export default SaxonJS;
}
