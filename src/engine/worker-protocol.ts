// Messages between the worker pool and its worker threads; the pool is generic over the job payload.
// A worker posts `ready` once loaded and warmed up, then answers each `job` with exactly one `result`.

export interface JobMessage<TPayload> {
  readonly type: 'job';
  readonly id: number;
  readonly payload: TPayload;
}

export type WorkerMessage<TResult> =
  /** `detail`: engine-specific start report (the ONNX worker lists the voices it loaded and those that failed). */
  | { readonly type: 'ready'; readonly warmUpMs: number; readonly detail?: unknown }
  | { readonly type: 'init-failed'; readonly message: string }
  | { readonly type: 'result'; readonly id: number; readonly ok: true; readonly value: TResult }
  | { readonly type: 'result'; readonly id: number; readonly ok: false; readonly message: string };
