//! The cache file's sections: each its element count, its bytes (plain data, read
//! straight into place), then their own checksum, so that one not needed can be passed
//! over unread; never more allocated than is left of the file.

use std::io::{Read, Seek, Write};

use bytemuck::Pod;
use xxhash_rust::xxh3::Xxh3;

use crate::map::progress::Progress;

/// Items a section is written in at a time.
const WRITE_BLOCK: usize = 1 << 16;

/// Bytes read at a time, the load's progress told after each: a ten-million-triangle
/// file is 1.3 GB, seconds of reading that showed as a bar standing still.
const READ_BLOCK: usize = 8 << 20;

/// Bytes of a section's checksum, after its items.
const CHECKSUM_BYTES: u64 = 8;

/// A section's count as read: its bytes (summed with the items) and what they span.
pub(super) struct Count {
    /// The count as written.
    raw: [u8; 8],
    /// Items in the section.
    items: u64,
    /// Bytes of the items and the checksum after them.
    bytes: u64,
}

/// Writes sections, each its element count, its bytes, then their checksum (a section
/// of its own: one not needed, the vertices in `sim`, is skipped unread).
pub(super) struct Writer<W> {
    pub(super) out: W,
}

impl<W: Write> Writer<W> {
    pub(super) fn section<T: Pod>(&mut self, items: &[T]) -> std::io::Result<()> {
        let count = (items.len() as u64).to_le_bytes();
        let bytes = bytemuck::cast_slice(items);
        let mut sum = Xxh3::new();
        sum.update(&count);
        sum.update(bytes);
        self.out.write_all(&count)?;
        self.out.write_all(bytes)?;
        self.out.write_all(&sum.digest().to_le_bytes())
    }

    /// A section of `count` items made as they are written (no list of them at once).
    pub(super) fn section_of<T: Pod>(
        &mut self,
        count: usize,
        items: impl Iterator<Item = T>,
    ) -> std::io::Result<()> {
        let count = (count as u64).to_le_bytes();
        let mut sum = Xxh3::new();
        sum.update(&count);
        self.out.write_all(&count)?;
        // Summed and written a block at a time (the checksum's cost is per call).
        let mut block = Vec::with_capacity(WRITE_BLOCK);
        let mut items = items.peekable();
        while items.peek().is_some() {
            block.clear();
            block.extend(items.by_ref().take(WRITE_BLOCK));
            let bytes = bytemuck::cast_slice(&block);
            sum.update(bytes);
            self.out.write_all(bytes)?;
        }
        self.out.write_all(&sum.digest().to_le_bytes())
    }
}

/// Reads sections written by [`Writer`], never allocating more than is left of the file.
pub(super) struct Reader<'a, R> {
    pub(super) input: R,
    pub(super) left: u64,
    /// Told the bytes read so far (of the file's whole length, its total).
    pub(super) progress: &'a Progress,
}

impl<R: Read + Seek> Reader<'_, R> {
    pub(super) fn exact(&mut self, buf: &mut [u8]) -> Result<(), String> {
        if buf.len() as u64 > self.left {
            return Err("cut short".into());
        }
        for block in buf.chunks_mut(READ_BLOCK) {
            self.input
                .read_exact(block)
                .map_err(|e| format!("cannot read: {e}"))?;
            self.left -= block.len() as u64;
            self.tell();
        }
        Ok(())
    }

    /// Tell the progress how far into the file the reader is.
    fn tell(&self) {
        let total = self.progress.bytes().total;
        self.progress.read(total.saturating_sub(self.left));
    }

    /// A section's count, checked against what is left of the file. The sum is checked
    /// too: a count of all ones (an erased sector) wrapped `bytes + 8` round to 7 and
    /// passed, and the allocation then panicked.
    pub(super) fn count<T: Pod>(&mut self) -> Result<Count, String> {
        let mut raw = [0u8; 8];
        self.exact(&mut raw)?;
        let items = u64::from_le_bytes(raw);
        let size = std::mem::size_of::<T>() as u64;
        match items
            .checked_mul(size)
            .and_then(|b| b.checked_add(CHECKSUM_BYTES))
        {
            Some(bytes) if bytes <= self.left => Ok(Count { raw, items, bytes }),
            _ => Err(format!(
                "a section of {items} items is longer than the file"
            )),
        }
    }

    pub(super) fn section<T: Pod>(&mut self) -> Result<Vec<T>, String> {
        let count = self.count::<T>()?;
        let n = usize::try_from(count.items).map_err(|_| "a section too long to hold")?;
        let mut items = vec![T::zeroed(); n];
        self.exact(bytemuck::cast_slice_mut(&mut items))?;
        let mut sum = Xxh3::new();
        sum.update(&count.raw);
        sum.update(bytemuck::cast_slice(&items));
        let mut want = [0u8; 8];
        self.exact(&mut want)?;
        if want != sum.digest().to_le_bytes() {
            return Err("its checksum does not match: damaged".into());
        }
        Ok(items)
    }

    /// Pass over a section unread (and unchecked: nothing of it is used).
    pub(super) fn skip<T: Pod>(&mut self) -> Result<(), String> {
        let bytes = self.count::<T>()?.bytes;
        let step = i64::try_from(bytes).map_err(|_| "a section too long to pass")?;
        self.input
            .seek_relative(step)
            .map_err(|e| format!("cannot read: {e}"))?;
        self.left -= bytes;
        self.tell();
        Ok(())
    }

    pub(super) fn one<T: Pod>(&mut self) -> Result<T, String> {
        let items = self.section::<T>()?;
        match items[..] {
            [one] => Ok(one),
            _ => Err(format!("{} items where one belongs", items.len())),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    /// A file of `body` bytes whose first section's count is `count`.
    fn file_with_count(count: u64, body: usize) -> Vec<u8> {
        let mut bytes = count.to_le_bytes().to_vec();
        bytes.resize(8 + body, 0);
        bytes
    }

    /// A count whose bytes wrap `items * size + 8` past 2^64 passed
    /// the length check, and the allocation then panicked ("capacity overflow").
    #[test]
    fn a_count_that_wraps_its_length_is_refused_not_allocated() {
        let progress = Progress::default();
        let wrapping = [
            (u64::MAX, 1),               // u8: 2^64 - 1 + 8 wraps to 7
            (0x1555_5555_5555_5555, 12), // [f32; 3]: 12 n = 2^64 - 4
            (u64::MAX / 4 + 1, 4),       // u32: 4 n wraps to 0
        ];
        for (count, size) in wrapping {
            let bytes = file_with_count(count, 64);
            let mut reader = Reader {
                left: bytes.len() as u64,
                input: Cursor::new(bytes),
                progress: &progress,
            };
            let e = match size {
                1 => reader.section::<u8>().map(|_| ()),
                12 => reader.skip::<[f32; 3]>(),
                _ => reader.section::<u32>().map(|_| ()),
            }
            .unwrap_err();
            assert!(e.contains("longer than the file"), "{count:#x}: {e}");
        }
    }

    /// What a writer wrote reads back; a section one byte short is refused.
    #[test]
    fn a_section_reads_back_and_a_short_one_is_refused() {
        let mut out = Vec::new();
        Writer { out: &mut out }.section(&[1u32, 2, 3]).unwrap();
        let progress = Progress::default();
        let read = |bytes: &[u8]| {
            Reader {
                left: bytes.len() as u64,
                input: Cursor::new(bytes.to_vec()),
                progress: &progress,
            }
            .section::<u32>()
        };
        assert_eq!(read(&out).unwrap(), vec![1, 2, 3]);
        let e = read(&out[..out.len() - 1]).unwrap_err();
        assert!(e.contains("longer than the file"), "{e}");
    }
}
