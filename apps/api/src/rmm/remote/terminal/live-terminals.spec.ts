import { resizeError } from './live-terminals';

describe('resizeError', () => {
  it('takes {type: "resize", cols, rows} with whole numbers from 1 to 1000, and says what is wrong with anything else', () => {
    expect(resizeError('{"type":"resize","cols":120,"rows":50}')).toBeNull();
    expect(resizeError('{"type":"resize","cols":1000,"rows":1}')).toBeNull();
    expect(resizeError('nope')).toMatch(/^not JSON/);
    expect(resizeError('[1]')).toBe('a control message is a JSON object');
    expect(resizeError('{"type":"exit"}')).toMatch(/^unknown type/);
    expect(resizeError('{"type":"resize","cols":0,"rows":5}')).toBe('cols must be an integer from 1 to 1000');
    expect(resizeError('{"type":"resize","cols":80,"rows":2.5}')).toBe('rows must be an integer from 1 to 1000');
    expect(resizeError('{"type":"resize","cols":"80","rows":24}')).toBe('cols must be an integer from 1 to 1000');
  });
});
