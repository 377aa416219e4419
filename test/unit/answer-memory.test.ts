/** The accounting of answers in flight (handlers/server/answer-memory.ts): shares per user within a process's budget. */
import { expect } from 'chai';
import { ApiError } from '../../db/core/errors.js';
import { AnswerMemory } from '../../handlers/server/answer-memory.js';

function refusal(reserve: () => unknown): [number, string | undefined] | null {
  try {
    reserve();
    return null;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return [error.status, error.headers?.['Retry-After']];
  }
}

describe('unit: answer memory', () => {
  it("refuses past a user's share with a 429 and past the process's budget with a 503, both with Retry-After", () => {
    const memory = new AnswerMemory({ processBytes: 100, userBytes: 50, smallAnswerBytes: 0 });
    memory.reserve('a', 30);
    expect(refusal(() => memory.reserve('a', 21))).to.deep.equal([429, '5']);
    memory.reserve('a', 20);
    memory.reserve('b', 40);
    expect(refusal(() => memory.reserve('c', 11))).to.deep.equal([503, '5']);
    expect([memory.held(), memory.held('a'), memory.held('b')]).to.deep.equal([90, 50, 40]);
  });

  it('an answer shrinks to its size, grows only as reserving would, and gives its bytes back once', () => {
    const memory = new AnswerMemory({ processBytes: 100, userBytes: 50, smallAnswerBytes: 0 });
    const first = memory.reserve('a', 40);
    first.resize(10);
    const second = memory.reserve('a', 40);
    expect(refusal(() => second.resize(41))).to.deep.equal([429, '5']);
    first.release();
    first.release();
    second.resize(50);
    expect([memory.held(), memory.held('a'), first.bytes, second.bytes]).to.deep.equal([50, 50, 0, 50]);
    second.release();
    expect([memory.held(), memory.held('a')]).to.deep.equal([0, 0]);
  });

  it('admits a small answer whatever is held, so that a queued status is never refused after its query was queued', () => {
    const memory = new AnswerMemory({ processBytes: 100, userBytes: 50, smallAnswerBytes: 5 });
    memory.reserve('a', 50);
    expect(memory.reserve('a', 5).bytes).to.equal(5);
    expect(refusal(() => memory.reserve('a', 6))).to.deep.equal([429, '5']);
    expect(memory.held('a')).to.equal(55);
  });

  it('a reservation larger than a share asks for the whole share', () => {
    const memory = new AnswerMemory({ processBytes: 100, userBytes: 50, smallAnswerBytes: 0 });
    expect(memory.reserve('a', 80).bytes).to.equal(50);
  });
});
