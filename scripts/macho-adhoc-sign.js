// An ad hoc code signature for a 64-bit Mach-O executable, written in JavaScript so that a Linux machine can
// build the macOS agents. Bun signs its darwin-arm64 output ad hoc itself; its darwin-x64 output keeps the
// runtime's original signature, which no longer matches the pages Bun changed (macOS kills such a process), so
// scripts/build-agent.js re-signs it here.
//
// The signature is what Bun (and the linker's "linker-signed" signatures) write: a SuperBlob holding one
// CodeDirectory (version 0x20400, flags CS_ADHOC | CS_LINKER_SIGNED, SHA-256, 4096-byte pages, no special slots,
// no requirements, no CMS blob), whose slots are the SHA-256 of every page of the file before the signature
// (the last page only up to the signature: code limit = the signature's offset). Re-signing Bun's own
// darwin-arm64 output with identifier "a.out" gives back Bun's bytes exactly (test/agent/binaries.e2e-spec.ts).
//
// `node scripts/macho-adhoc-sign.js FILE [--identifier ID]` signs FILE in place; `--verify` only checks it.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');

const MH_MAGIC_64 = 0xfeedfacf;
const MH_EXECUTE = 2;
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CSSLOT_CODEDIRECTORY = 0;
const CS_ADHOC = 0x2;
const CS_LINKER_SIGNED = 0x20000;
const CS_HASHTYPE_SHA256 = 2;
const CS_EXECSEG_MAIN_BINARY = 0x1;
const CD_VERSION = 0x20400; // (the version that has the exec segment fields)
const CD_HEADER_SIZE = 88;
const SUPERBLOB_HEADER_SIZE = 12 + 8; // magic, length, count; one blob index (type, offset)
const PAGE_SHIFT = 12;
const PAGE_SIZE = 1 << PAGE_SHIFT;
const HASH_SIZE = 32;

const align = (n, to) => Math.ceil(n / to) * to;

/** The load commands this needs: __TEXT, __LINKEDIT and LC_CODE_SIGNATURE (with where each one sits). */
function parse(buf) {
  if (buf.length < 32 || buf.readUInt32LE(0) !== MH_MAGIC_64) throw new Error('not a 64-bit little-endian Mach-O file');
  const filetype = buf.readUInt32LE(12);
  const ncmds = buf.readUInt32LE(16);
  const sizeofcmds = buf.readUInt32LE(20);
  if (32 + sizeofcmds > buf.length) throw new Error('load commands run past the end of the file');
  const out = { filetype, text: undefined, linkedit: undefined, sig: undefined };
  let off = 32;
  for (let i = 0; i < ncmds; i++) {
    if (off + 8 > 32 + sizeofcmds) throw new Error('load commands run past sizeofcmds');
    const cmd = buf.readUInt32LE(off);
    const size = buf.readUInt32LE(off + 4);
    if (size < 8 || off + size > 32 + sizeofcmds) throw new Error(`load command ${i} has a bad size (${size})`);
    if (cmd === LC_SEGMENT_64) {
      const name = buf.subarray(off + 8, off + 24).toString('latin1').replace(/\0.*$/s, '');
      const seg = {
        at: off,
        vmsize: Number(buf.readBigUInt64LE(off + 32)),
        fileoff: Number(buf.readBigUInt64LE(off + 40)),
        filesize: Number(buf.readBigUInt64LE(off + 48)),
      };
      if (name === '__TEXT') out.text = seg;
      if (name === '__LINKEDIT') out.linkedit = seg;
    } else if (cmd === LC_CODE_SIGNATURE) {
      out.sig = { at: off, dataoff: buf.readUInt32LE(off + 8), datasize: buf.readUInt32LE(off + 12) };
    }
    off += size;
  }
  if (!out.text) throw new Error('no __TEXT segment');
  if (!out.linkedit) throw new Error('no __LINKEDIT segment');
  if (!out.sig) throw new Error('no LC_CODE_SIGNATURE load command (adding one is not supported)');
  return out;
}

/**
 * A copy of buf (a Mach-O executable with an LC_CODE_SIGNATURE at the end of __LINKEDIT) signed ad hoc.
 * The signature replaces the old one in place when it fits (the load commands are then unchanged); when it
 * does not, the signature area, __LINKEDIT and the file grow to hold it.
 */
function adhocSign(input, { identifier = 'rmm-agent' } = {}) {
  if (!/^[\x21-\x7e]{1,255}$/.test(identifier)) throw new Error('the identifier must be 1-255 printable ASCII characters without spaces');
  const { filetype, text, linkedit, sig } = parse(input);
  if (sig.dataoff + sig.datasize !== linkedit.fileoff + linkedit.filesize || sig.dataoff + sig.datasize !== input.length) {
    throw new Error('the code signature is not at the end of __LINKEDIT and of the file (unsupported layout)');
  }
  const codeLimit = sig.dataoff; // the pages signed: everything before the signature
  const nCodeSlots = Math.ceil(codeLimit / PAGE_SIZE);
  const ident = Buffer.from(`${identifier}\0`, 'latin1');
  const hashOffset = CD_HEADER_SIZE + ident.length;
  const cdLength = hashOffset + nCodeSlots * HASH_SIZE;
  const sbLength = SUPERBLOB_HEADER_SIZE + cdLength;

  let buf;
  if (sbLength <= sig.datasize) {
    buf = Buffer.from(input); // (a copy: the caller's buffer stays as it was)
  } else {
    const datasize = align(sbLength, 16);
    buf = Buffer.alloc(sig.dataoff + datasize);
    input.copy(buf, 0, 0, sig.dataoff);
    buf.writeUInt32LE(datasize, sig.at + 12);
    const filesize = sig.dataoff + datasize - linkedit.fileoff;
    buf.writeBigUInt64LE(BigInt(filesize), linkedit.at + 48);
    if (filesize > linkedit.vmsize) buf.writeBigUInt64LE(BigInt(align(filesize, 0x4000)), linkedit.at + 32);
  }
  const area = buf.subarray(sig.dataoff);
  area.fill(0);

  area.writeUInt32BE(CSMAGIC_EMBEDDED_SIGNATURE, 0);
  area.writeUInt32BE(sbLength, 4);
  area.writeUInt32BE(1, 8);
  area.writeUInt32BE(CSSLOT_CODEDIRECTORY, 12);
  area.writeUInt32BE(SUPERBLOB_HEADER_SIZE, 16);

  const cd = area.subarray(SUPERBLOB_HEADER_SIZE, SUPERBLOB_HEADER_SIZE + cdLength);
  cd.writeUInt32BE(CSMAGIC_CODEDIRECTORY, 0);
  cd.writeUInt32BE(cdLength, 4);
  cd.writeUInt32BE(CD_VERSION, 8);
  cd.writeUInt32BE(CS_ADHOC | CS_LINKER_SIGNED, 12);
  cd.writeUInt32BE(hashOffset, 16);
  cd.writeUInt32BE(CD_HEADER_SIZE, 20); // identOffset
  cd.writeUInt32BE(0, 24); // nSpecialSlots
  cd.writeUInt32BE(nCodeSlots, 28);
  cd.writeUInt32BE(codeLimit, 32);
  cd.writeUInt8(HASH_SIZE, 36);
  cd.writeUInt8(CS_HASHTYPE_SHA256, 37);
  cd.writeUInt8(0, 38); // platform
  cd.writeUInt8(PAGE_SHIFT, 39);
  // 40 spare2, 44 scatterOffset, 48 teamOffset, 52 spare3, 56 codeLimit64: all 0
  cd.writeBigUInt64BE(BigInt(text.fileoff), 64); // execSegBase
  cd.writeBigUInt64BE(BigInt(text.filesize), 72); // execSegLimit
  cd.writeBigUInt64BE(BigInt(filetype === MH_EXECUTE ? CS_EXECSEG_MAIN_BINARY : 0), 80);
  ident.copy(cd, CD_HEADER_SIZE);
  // The load commands are final by now (page 0 holds them), so the pages can be hashed.
  for (let i = 0; i < nCodeSlots; i++) {
    crypto
      .createHash('sha256')
      .update(buf.subarray(i * PAGE_SIZE, Math.min((i + 1) * PAGE_SIZE, codeLimit)))
      .digest()
      .copy(cd, hashOffset + i * HASH_SIZE);
  }
  return buf;
}

/** Checks buf's signature the way the kernel checks pages: { ok, problems, identifier, flags, pages }. */
function verifyAdhoc(buf) {
  const problems = [];
  const { sig } = parse(buf);
  const area = buf.subarray(sig.dataoff, sig.dataoff + sig.datasize);
  if (area.length < SUPERBLOB_HEADER_SIZE || area.readUInt32BE(0) !== CSMAGIC_EMBEDDED_SIGNATURE) return { ok: false, problems: ['no embedded signature SuperBlob'] };
  let cd;
  for (let i = 0; i < area.readUInt32BE(8); i++) {
    if (area.readUInt32BE(12 + i * 8) === CSSLOT_CODEDIRECTORY) cd = area.subarray(area.readUInt32BE(16 + i * 8));
  }
  if (!cd || cd.readUInt32BE(0) !== CSMAGIC_CODEDIRECTORY) return { ok: false, problems: ['no CodeDirectory'] };
  const hashOffset = cd.readUInt32BE(16);
  const identifier = cd.subarray(cd.readUInt32BE(20), hashOffset).toString('latin1').replace(/\0.*$/s, '');
  const flags = cd.readUInt32BE(12);
  const nCodeSlots = cd.readUInt32BE(28);
  const codeLimit = cd.readUInt32BE(32);
  const pageSize = 1 << cd[39];
  if (cd[37] !== CS_HASHTYPE_SHA256 || cd[36] !== HASH_SIZE) problems.push(`hash type ${cd[37]} (size ${cd[36]}), not SHA-256`);
  if (codeLimit !== sig.dataoff) problems.push(`code limit ${codeLimit} is not the signature's offset ${sig.dataoff}`);
  if (nCodeSlots !== Math.ceil(codeLimit / pageSize)) problems.push(`${nCodeSlots} code slots for ${Math.ceil(codeLimit / pageSize)} pages`);
  let bad = 0;
  if (!problems.length) {
    for (let i = 0; i < nCodeSlots; i++) {
      const page = buf.subarray(i * pageSize, Math.min((i + 1) * pageSize, codeLimit));
      if (!crypto.createHash('sha256').update(page).digest().equals(cd.subarray(hashOffset + i * HASH_SIZE, hashOffset + (i + 1) * HASH_SIZE))) bad++;
    }
  }
  if (bad) problems.push(`${bad} of ${nCodeSlots} page hashes do not match`);
  return { ok: problems.length === 0, problems, identifier, flags, pages: nCodeSlots };
}

module.exports = { adhocSign, verifyAdhoc };

if (require.main === module) {
  const args = process.argv.slice(2);
  const file = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--identifier');
  const id = args.includes('--identifier') ? args[args.indexOf('--identifier') + 1] : undefined;
  if (!file) {
    process.stderr.write('usage: node scripts/macho-adhoc-sign.js FILE [--identifier ID] [--verify]\n');
    process.exit(2);
  }
  try {
    if (!args.includes('--verify')) {
      const signed = adhocSign(fs.readFileSync(file), { identifier: id });
      fs.writeFileSync(`${file}.signing`, signed, { mode: fs.statSync(file).mode });
      fs.renameSync(`${file}.signing`, file);
    }
    const v = verifyAdhoc(fs.readFileSync(file));
    process.stdout.write(`${file}: ${v.ok ? `valid, identifier ${v.identifier}, flags 0x${v.flags.toString(16)}, ${v.pages} pages` : v.problems.join('; ')}\n`);
    process.exit(v.ok ? 0 : 1);
  } catch (err) {
    process.stderr.write(`${file}: ${err.message}\n`);
    process.exit(1);
  }
}
