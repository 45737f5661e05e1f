/** What every check knows of one operation it probes, in either generation. */
export interface OperationTarget {
  readonly generation: 'v0' | 'v1';
  /** `v1 createTask` (generated-input) or the operation id. */
  readonly name: string;
  readonly method: string;
  readonly unimplemented: boolean;
  /** Accepted requests leave work to the worker (the registry's `async`). */
  readonly async: boolean;
}
