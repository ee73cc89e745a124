/**
 * Step-up (docs/sso.md): a dangerous action in a session that authenticated too long ago answers 401
 * {step_up: true}. The console then asks the operator to confirm it's them (the dialog of
 * components/step-up-dialog.tsx, which registers itself here) and sends the same request again, once; the caller
 * sees only the second answer. A cancelled dialog fails the call with StepUpCancelled.
 */
export class StepUpCancelled extends Error {
  constructor() {
    super("Cancelled: this action needs you to confirm it's you (re-authenticate) first");
  }
}

type Confirm = () => Promise<void>;
let confirm: Confirm | undefined;
let pending: Promise<void> | undefined;

/** The dialog's handler: resolves once the session re-authenticated, rejects (StepUpCancelled) when cancelled. */
export function onStepUp(fn: Confirm | undefined): void {
  confirm = fn;
}

/** Asks once for every call that needs it at the same time (two refused calls, one dialog). */
export function stepUp(): Promise<void> {
  if (!confirm) return Promise.reject(new StepUpCancelled());
  pending ??= confirm().finally(() => (pending = undefined));
  return pending;
}

/** Whether an answer is the step-up 401 (a plain 401 is a session that ended). */
export async function isStepUpAnswer(res: Response): Promise<boolean> {
  if (res.status !== 401) return false;
  try {
    const body = (await res.clone().json()) as { step_up?: unknown };
    return body?.step_up === true;
  } catch {
    return false;
  }
}

/** Sends, and when the answer is the step-up 401: asks the operator, then sends again once. */
export async function withStepUp(send: () => Promise<Response>): Promise<Response> {
  const first = await send();
  if (!(await isStepUpAnswer(first))) return first;
  await stepUp();
  return send();
}
