/** Types of jest-output.mjs (plain JavaScript: the launchers run before anything is compiled). */
export function echoLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void, out?: Pick<NodeJS.WritableStream, 'write'>): void;

export class JestTotals {
  passed: number;
  failed: number;
  read(line: string): void;
  toString(): string;
}
