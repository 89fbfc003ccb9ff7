import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  content?: Buffer;
  /** 8 deflate (the default), 0 stored. */
  method?: 0 | 8;
  /** Sizes and CRC after the data (flag bit 3), as streaming zip writers do. */
  descriptor?: boolean;
}

/** A zip archive as zip tools write it: local headers, a central directory, its end record. */
export function zipArchive(entries: ZipEntry[], options: { zip64?: boolean } = {}): Buffer {
  const parts: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, content = Buffer.alloc(0), method = 8, descriptor = false } of entries) {
    const nameBytes = Buffer.from(name);
    const data = method === 8 ? deflateRawSync(content) : content;
    const crc = crc32(content);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(descriptor ? 0x08 : 0, 6);
    local.writeUInt16LE(method, 8);
    if (!descriptor) {
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(data.length, 18);
      local.writeUInt32LE(content.length, 22);
    }
    local.writeUInt16LE(nameBytes.length, 26);
    const trailer = Buffer.alloc(descriptor ? 16 : 0);
    if (descriptor) {
      trailer.writeUInt32LE(0x08074b50, 0);
      trailer.writeUInt32LE(crc, 4);
      trailer.writeUInt32LE(data.length, 8);
      trailer.writeUInt32LE(content.length, 12);
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(descriptor ? 0x08 : 0, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(content.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    // Zip64: sizes and offset marked 0xffffffff, their values in an extended-information field.
    const extra = Buffer.alloc(options.zip64 ? 28 : 0);
    if (options.zip64) {
      for (const at of [20, 24, 42]) central.writeUInt32LE(0xffffffff, at);
      central.writeUInt16LE(extra.length, 30);
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(24, 2);
      extra.writeBigUInt64LE(BigInt(content.length), 4);
      extra.writeBigUInt64LE(BigInt(data.length), 12);
      extra.writeBigUInt64LE(BigInt(offset), 20);
    }
    parts.push(local, nameBytes, data, trailer);
    centrals.push(central, nameBytes, extra);
    offset += local.length + nameBytes.length + data.length + trailer.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(options.zip64 ? 0xffff : entries.length, 8);
  end.writeUInt16LE(options.zip64 ? 0xffff : entries.length, 10);
  end.writeUInt32LE(options.zip64 ? 0xffffffff : directory.length, 12);
  end.writeUInt32LE(options.zip64 ? 0xffffffff : offset, 16);
  if (!options.zip64) return Buffer.concat([...parts, directory, end]);
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeBigUInt64LE(BigInt(entries.length), 24);
  record.writeBigUInt64LE(BigInt(entries.length), 32);
  record.writeBigUInt64LE(BigInt(directory.length), 40);
  record.writeBigUInt64LE(BigInt(offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(offset + directory.length), 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([...parts, directory, record, locator, end]);
}
