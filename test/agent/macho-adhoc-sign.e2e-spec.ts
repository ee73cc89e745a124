import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { CS_ADHOC, CS_LINKER_SIGNED, checkCodeSignature, readMachO } from '../utils/macho';
import { ROOT } from '../utils/processes';

/**
 * scripts/macho-adhoc-sign.js on small Mach-O files made here (the real binaries: test/agent/binaries.e2e-spec.ts).
 * A unit test of a build script: it sits in the e2e project because the unit project only looks under apps/ and libs/.
 */
const signer = require(join(ROOT, 'scripts/macho-adhoc-sign.js')) as {
  adhocSign(buf: Buffer, options?: { identifier?: string }): Buffer;
  verifyAdhoc(buf: Buffer): { ok: boolean; problems: string[] };
};

const PAGE = 4096;

/**
 * A minimal x86_64 executable: header and three load commands (__TEXT from 0, __LINKEDIT after it,
 * LC_CODE_SIGNATURE at __LINKEDIT's end), random bytes for the code, `sigSpace` bytes of garbage as the old signature.
 */
function machO({ textSize, linkeditData, sigSpace }: { textSize: number; linkeditData: number; sigSpace: number }): Buffer {
  const buf = randomBytes(textSize + linkeditData + sigSpace);
  const cmds = 72 + 72 + 16;
  buf.fill(0, 0, 32 + cmds);
  buf.writeUInt32LE(0xfeedfacf, 0);
  buf.writeUInt32LE(0x01000007, 4);
  buf.writeUInt32LE(3, 8);
  buf.writeUInt32LE(2, 12); // MH_EXECUTE
  buf.writeUInt32LE(3, 16);
  buf.writeUInt32LE(cmds, 20);
  const segment = (at: number, name: string, fileoff: number, filesize: number) => {
    buf.writeUInt32LE(0x19, at);
    buf.writeUInt32LE(72, at + 4);
    buf.write(name, at + 8, 'latin1');
    buf.writeBigUInt64LE(0x100000000n + BigInt(fileoff), at + 24);
    buf.writeBigUInt64LE(BigInt(Math.ceil(filesize / 0x4000) * 0x4000), at + 32);
    buf.writeBigUInt64LE(BigInt(fileoff), at + 40);
    buf.writeBigUInt64LE(BigInt(filesize), at + 48);
  };
  segment(32, '__TEXT', 0, textSize);
  segment(104, '__LINKEDIT', textSize, linkeditData + sigSpace);
  buf.writeUInt32LE(0x1d, 176);
  buf.writeUInt32LE(16, 180);
  buf.writeUInt32LE(textSize + linkeditData, 184);
  buf.writeUInt32LE(sigSpace, 188);
  return buf;
}

describe('ad hoc Mach-O signer (scripts/macho-adhoc-sign.js)', () => {
  it('signs in place when the old signature has room: same length, same load commands, every page hash right', () => {
    const input = machO({ textSize: 5 * PAGE, linkeditData: 1234, sigSpace: 8192 }); // (last page partial)
    const before = Buffer.from(input);
    const signed = signer.adhocSign(input);

    expect(input.equals(before)).toBe(true); // (the caller's buffer is not changed)
    expect(signed.length).toBe(input.length);
    expect(signed.subarray(0, 32 + 160).equals(input.subarray(0, 32 + 160))).toBe(true);
    expect(signed.subarray(0, 5 * PAGE + 1234).equals(input.subarray(0, 5 * PAGE + 1234))).toBe(true);
    const cd = checkCodeSignature(signed);
    expect(cd).toMatchObject({
      version: 0x20400,
      flags: CS_ADHOC | CS_LINKER_SIGNED,
      identifier: 'rmm-agent',
      hashType: 2,
      pageSize: PAGE,
      codeLimit: 5 * PAGE + 1234,
      nCodeSlots: 6,
      nSpecialSlots: 0,
      execSegLimit: BigInt(5 * PAGE),
      badPages: [],
    });
    expect(signer.verifyAdhoc(signed)).toMatchObject({ ok: true, problems: [] });
  });

  it('grows the signature, __LINKEDIT and the file when the old signature is too small', () => {
    const input = machO({ textSize: 40 * PAGE, linkeditData: 100, sigSpace: 64 });
    const signed = signer.adhocSign(input, { identifier: 'com.example.tool' });

    const sig = readMachO(signed).codeSignature!;
    expect(sig.dataoff).toBe(40 * PAGE + 100);
    const needed = 20 + 88 + 'com.example.tool\0'.length + 41 * 32;
    expect(sig.datasize).toBe(Math.ceil(needed / 16) * 16);
    expect(signed.length).toBe(sig.dataoff + sig.datasize);
    const linkedit = readMachO(signed).segments.find((s) => s.name === '__LINKEDIT')!;
    expect(linkedit.fileoff + linkedit.filesize).toBe(signed.length);
    expect(checkCodeSignature(signed)).toMatchObject({ identifier: 'com.example.tool', nCodeSlots: 41, badPages: [] });
  });

  it('is deterministic, and re-signing a signed file changes nothing', () => {
    const input = machO({ textSize: 3 * PAGE, linkeditData: 10, sigSpace: 4096 });
    const once = signer.adhocSign(input);
    expect(signer.adhocSign(input).equals(once)).toBe(true);
    expect(signer.adhocSign(once).equals(once)).toBe(true);
  });

  it('the verifiers find a changed byte: in the code, and in the load commands (page 0)', () => {
    const signed = signer.adhocSign(machO({ textSize: 4 * PAGE, linkeditData: 10, sigSpace: 4096 }));
    const code = Buffer.from(signed);
    code[2 * PAGE + 7] ^= 1;
    expect(checkCodeSignature(code).badPages).toEqual([2]);
    expect(signer.verifyAdhoc(code)).toMatchObject({ ok: false, problems: ['1 of 5 page hashes do not match'] });
    const header = Buffer.from(signed);
    header.writeUInt32LE(header.readUInt32LE(24) | 1, 24); // (mach header flags)
    expect(checkCodeSignature(header).badPages).toEqual([0]);
  });

  it('refuses what it cannot sign, saying why', () => {
    expect(() => signer.adhocSign(Buffer.from('\x7fELF\x02\x01\x01' + '\0'.repeat(60), 'latin1'))).toThrow('not a 64-bit little-endian Mach-O file');
    const noSig = machO({ textSize: PAGE, linkeditData: 10, sigSpace: 16 });
    noSig.writeUInt32LE(0x26, 176); // LC_FUNCTION_STARTS instead of LC_CODE_SIGNATURE
    expect(() => signer.adhocSign(noSig)).toThrow('no LC_CODE_SIGNATURE');
    const notAtEnd = Buffer.concat([machO({ textSize: PAGE, linkeditData: 10, sigSpace: 4096 }), Buffer.alloc(100)]);
    expect(() => signer.adhocSign(notAtEnd)).toThrow('not at the end of __LINKEDIT and of the file');
    expect(() => signer.adhocSign(machO({ textSize: PAGE, linkeditData: 10, sigSpace: 4096 }), { identifier: 'two words' })).toThrow('identifier');
  });
});
