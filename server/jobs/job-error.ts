/** A failure whose message is fit to show a user (an export's reason); it is not retried. */
export class JobError extends Error {
  override readonly name = 'JobError';
}
