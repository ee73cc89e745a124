import { createHash } from 'node:crypto';

/**
 * Reads a 64-bit Mach-O file's code signature and checks it as macOS checks pages when it maps them: every
 * page's SHA-256 must equal its CodeDirectory slot, and the pages signed must be the whole file before the
 * signature. Written apart from scripts/macho-adhoc-sign.js, so the tests do not check the signer with itself.
 */

const MH_MAGIC_64 = 0xfeedfacf;
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
export const CS_ADHOC = 0x2;
export const CS_LINKER_SIGNED = 0x20000;

export interface MachOSegment {
  name: string;
  fileoff: number;
  filesize: number;
}

export interface MachOInfo {
  cpu: 'x86_64' | 'arm64' | `cpu 0x${string}`;
  filetype: number;
  segments: MachOSegment[];
  codeSignature?: { dataoff: number; datasize: number };
}

export interface SignatureCheck {
  /** The CodeDirectory's fields (big-endian in the file). */
  version: number;
  flags: number;
  identifier: string;
  hashType: number;
  pageSize: number;
  codeLimit: number;
  nCodeSlots: number;
  nSpecialSlots: number;
  execSegLimit: bigint;
  /** The signature's offset in the file (LC_CODE_SIGNATURE's dataoff). */
  dataoff: number;
  /** Indexes of the pages whose SHA-256 is not their slot's. */
  badPages: number[];
}

export function readMachO(buf: Buffer): MachOInfo {
  if (buf.length < 32 || buf.readUInt32LE(0) !== MH_MAGIC_64) throw new Error('not a 64-bit Mach-O file');
  const cputype = buf.readUInt32LE(4);
  const cpu = cputype === 0x01000007 ? 'x86_64' : cputype === 0x0100000c ? 'arm64' : (`cpu 0x${cputype.toString(16)}` as const);
  const info: MachOInfo = { cpu, filetype: buf.readUInt32LE(12), segments: [] };
  let off = 32;
  for (let i = 0; i < buf.readUInt32LE(16); i++) {
    const cmd = buf.readUInt32LE(off);
    if (cmd === LC_SEGMENT_64) {
      info.segments.push({
        name: buf.subarray(off + 8, off + 24).toString('latin1').replace(/\0.*$/s, ''),
        fileoff: Number(buf.readBigUInt64LE(off + 40)),
        filesize: Number(buf.readBigUInt64LE(off + 48)),
      });
    }
    if (cmd === LC_CODE_SIGNATURE) info.codeSignature = { dataoff: buf.readUInt32LE(off + 8), datasize: buf.readUInt32LE(off + 12) };
    off += buf.readUInt32LE(off + 4);
  }
  return info;
}

/** The CodeDirectory of buf's embedded signature, with every page checked against it. */
export function checkCodeSignature(buf: Buffer): SignatureCheck {
  const sig = readMachO(buf).codeSignature;
  if (!sig) throw new Error('no LC_CODE_SIGNATURE');
  const blob = buf.subarray(sig.dataoff, sig.dataoff + sig.datasize);
  if (blob.readUInt32BE(0) !== CSMAGIC_EMBEDDED_SIGNATURE) throw new Error('no embedded signature SuperBlob');
  let cd: Buffer | undefined;
  for (let i = 0; i < blob.readUInt32BE(8); i++) {
    if (blob.readUInt32BE(12 + 8 * i) === 0) cd = blob.subarray(blob.readUInt32BE(16 + 8 * i));
  }
  if (!cd || cd.readUInt32BE(0) !== CSMAGIC_CODEDIRECTORY) throw new Error('no CodeDirectory');
  const hashOffset = cd.readUInt32BE(16);
  const hashSize = cd[36];
  const pageSize = 2 ** cd[39];
  const check: SignatureCheck = {
    version: cd.readUInt32BE(8),
    flags: cd.readUInt32BE(12),
    identifier: cd.subarray(cd.readUInt32BE(20)).toString('latin1').split('\0')[0],
    nSpecialSlots: cd.readUInt32BE(24),
    nCodeSlots: cd.readUInt32BE(28),
    codeLimit: cd.readUInt32BE(32),
    hashType: cd[37],
    pageSize,
    execSegLimit: cd.readUInt32BE(8) >= 0x20400 ? cd.readBigUInt64BE(72) : 0n,
    dataoff: sig.dataoff,
    badPages: [],
  };
  if (check.hashType !== 2 || hashSize !== 32) throw new Error(`hash type ${check.hashType}: only SHA-256 is checked here`);
  for (let page = 0; page < Math.ceil(check.codeLimit / pageSize); page++) {
    const slot = page < check.nCodeSlots ? cd.subarray(hashOffset + page * hashSize, hashOffset + (page + 1) * hashSize) : Buffer.alloc(0);
    const digest = createHash('sha256')
      .update(buf.subarray(page * pageSize, Math.min((page + 1) * pageSize, check.codeLimit)))
      .digest();
    if (!digest.equals(slot)) check.badPages.push(page);
  }
  return check;
}
