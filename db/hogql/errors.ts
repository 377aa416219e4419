/**
 * Why an expression or a filter was refused: a message for the client, never SQL. `parameter` names the request
 * parameter it came from, once known; the caller turns the error into a 400 whose `attr` is that parameter.
 */
export class HogQLError extends Error {
  parameter: string | null = null;

  constructor(message: string) {
    super(message);
    this.name = 'HogQLError';
  }
}

/** Runs `work`, tagging a HogQLError it throws with the parameter it came from. */
export function inParameter<T>(parameter: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof HogQLError && error.parameter === null) error.parameter = parameter;
    throw error;
  }
}
