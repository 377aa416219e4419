import { expect } from 'chai';
import { latestErrorOf, maskSecrets } from '../../handlers/jobs/latest-error.js';

describe('latest_error secrets', () => {
  const cases: Array<[string, string, readonly unknown[], string]> = [
    ['a long secret wherever it occurs', 'auth hunter2-pw failed (xhunter2-pwx)', ['hunter2-pw'], 'auth *** failed (x***x)'],
    ['a four-character secret inside a word', 'a batch export failed', ['expo'], 'a batch ***rt failed'],
    ['a one-character secret: only as a token', 'a batch export failed: password a', ['a'], '*** batch export failed: password ***'],
    ['a one-character secret inside words: nothing', 'the export failed', ['x'], 'the export failed'],
    ['a two-character secret quoted', 'password "ab" refused; abc and cab kept', ['ab'], 'password "***" refused; abc and cab kept'],
    ['a three-character secret next to punctuation', 'key=k3y, k3yboard, _k3y', ['k3y'], 'key=***, k3yboard, _k3y'],
    ['a short secret of regular expression characters', 'got .* and a.*b', ['.*'], 'got *** and a.*b'],
    ['a secret containing another: the longer one whole', 'token abcd-efgh', ['abcd', 'abcd-efgh'], 'token ***'],
    ['letters beyond ASCII are word characters', 'é1 ü é1x', ['1'], 'é1 ü é1x'],
    ['non-strings and empty values are ignored', 'nothing to hide', [null, undefined, 3, ''], 'nothing to hide'],
  ];
  for (const [what, message, secrets, expected] of cases) {
    it(what, () => expect(maskSecrets(message, secrets)).to.equal(expected));
  }

  it('is the rule of every destination’s latest_error', () => {
    const config = { password: 'a', token: 'phc_token', aws_secret_access_key: 'sk', aws_access_key_id: 'AKIA123' };
    expect(latestErrorOf(new Error('a batch export to sk failed with phc_token (AKIA123); task a'), config)).to.equal(
      '*** batch export to *** failed with *** (***); task ***',
    );
  });
});
