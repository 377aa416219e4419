/** What `promise` fails with; a promise that succeeds instead fails the test. */
export async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure, but it succeeded');
}
