// Opening a voice model (Piper, Kokoro) in onnxruntime-node inside an engine worker thread: the session options both
// kinds need, and the contract check that releases the session and names the model when it is not what it claims.

import * as ort from 'onnxruntime-node';

export interface VoiceModelThreadOptions {
  /** Threads one run may use; workers x this stays at or under the core count. */
  readonly intraOpNumThreads: number;
}

/**
 * Creates the session and asks `contractProblem` what is wrong with it (undefined: nothing); on a problem the session
 * is released and the error reads `<path>: not a <kind>: <problem>`.
 */
export async function openVoiceModelSession(
  modelPath: string,
  threads: VoiceModelThreadOptions,
  kind: string,
  contractProblem: (session: ort.InferenceSession) => string | undefined,
): Promise<ort.InferenceSession> {
  const session = await ort.InferenceSession.create(modelPath, {
    intraOpNumThreads: threads.intraOpNumThreads,
    // A voice graph is one chain of ops: parallel execution of independent nodes buys nothing.
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // Sequence lengths change every run, so memory patterns would be recomputed each time.
    enableMemPattern: false,
    // Warnings (unused initializers and the like) would go to stderr around the JSON log.
    logSeverityLevel: 3,
  });
  const problem = contractProblem(session);
  if (problem !== undefined) {
    await session.release();
    throw new Error(`${modelPath}: not a ${kind}: ${problem}`);
  }
  return session;
}
