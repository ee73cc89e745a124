import { readMachO } from './macho';

/** What an executable's headers say it is: its format, machine and (for ELF and PE) kind. */
export type ExecutableFormat =
  | { format: 'ELF'; bits: 32 | 64; machine: 'x86-64' | 'aarch64' | `machine ${number}`; type: 'EXEC' | 'DYN' | `type ${number}` }
  | { format: 'PE'; optionalHeader: 'PE32' | 'PE32+'; machine: 'x86-64' | 'arm64' | `machine 0x${string}`; subsystem: 'console' | 'gui' | `subsystem ${number}` }
  | { format: 'Mach-O'; cpu: string; filetype: 'execute' | `filetype ${number}` };

export function executableFormat(buf: Buffer): ExecutableFormat | undefined {
  if (buf.length >= 20 && buf.readUInt32BE(0) === 0x7f454c46) {
    if (buf[5] !== 1) return undefined; // (only little-endian is expected here)
    const machine = buf.readUInt16LE(18);
    const type = buf.readUInt16LE(16);
    return {
      format: 'ELF',
      bits: buf[4] === 2 ? 64 : 32,
      machine: machine === 62 ? 'x86-64' : machine === 183 ? 'aarch64' : `machine ${machine}`,
      type: type === 2 ? 'EXEC' : type === 3 ? 'DYN' : `type ${type}`,
    };
  }
  if (buf.length >= 64 && buf.toString('latin1', 0, 2) === 'MZ') {
    const pe = buf.readUInt32LE(0x3c);
    if (buf.toString('latin1', pe, pe + 4) !== 'PE\0\0') return undefined;
    const machine = buf.readUInt16LE(pe + 4);
    const optional = pe + 24;
    const magic = buf.readUInt16LE(optional);
    const subsystem = buf.readUInt16LE(optional + 68);
    return {
      format: 'PE',
      optionalHeader: magic === 0x20b ? 'PE32+' : 'PE32',
      machine: machine === 0x8664 ? 'x86-64' : machine === 0xaa64 ? 'arm64' : `machine 0x${machine.toString(16)}`,
      subsystem: subsystem === 3 ? 'console' : subsystem === 2 ? 'gui' : `subsystem ${subsystem}`,
    };
  }
  if (buf.length >= 32 && buf.readUInt32LE(0) === 0xfeedfacf) {
    const { cpu, filetype } = readMachO(buf);
    return { format: 'Mach-O', cpu, filetype: filetype === 2 ? 'execute' : `filetype ${filetype}` };
  }
  return undefined;
}
