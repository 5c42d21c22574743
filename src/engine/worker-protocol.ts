// Messages between the worker pool and its worker threads; the pool is generic over the job payload, the result and
// the report a worker gives when it is ready. A worker posts `ready` once loaded and warmed up, then answers each
// `job` with exactly one `result`.

export interface JobMessage<TPayload> {
  readonly type: 'job';
  readonly id: number;
  readonly payload: TPayload;
}

export type WorkerMessage<TResult, TReport = never> =
  /** `report`: what the worker loaded (a pack worker's files, pack-messages.ts); the embedded engine's has none. */
  | { readonly type: 'ready'; readonly warmUpMs: number; readonly report?: TReport }
  | { readonly type: 'init-failed'; readonly message: string }
  | { readonly type: 'result'; readonly id: number; readonly ok: true; readonly value: TResult }
  | { readonly type: 'result'; readonly id: number; readonly ok: false; readonly message: string };
