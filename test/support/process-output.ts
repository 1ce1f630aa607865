// Handlers log through Powertools (JSON lines on stdout, errors on stderr); tests read
// both. Undone by jest.restoreAllMocks().
export function captureProcessOutput(into: string[]): void {
  for (const stream of [process.stdout, process.stderr]) {
    jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      into.push(String(chunk));
      return true;
    });
  }
}
