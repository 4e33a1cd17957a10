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
        let (_, total) = self.progress.bytes();
        self.progress.read(total.saturating_sub(self.left));
    }

    /// A section's count, checked against what is left of the file.
    pub(super) fn count<T: Pod>(&mut self) -> Result<([u8; 8], u64), String> {
        let mut count = [0u8; 8];
        self.exact(&mut count)?;
        let n = u64::from_le_bytes(count);
        let size = std::mem::size_of::<T>() as u64;
        if n.checked_mul(size)
            .is_none_or(|bytes| bytes + 8 > self.left)
        {
            return Err(format!("a section of {n} items is longer than the file"));
        }
        Ok((count, n))
    }

    pub(super) fn section<T: Pod>(&mut self) -> Result<Vec<T>, String> {
        let (count, n) = self.count::<T>()?;
        let mut items = vec![T::zeroed(); n as usize];
        self.exact(bytemuck::cast_slice_mut(&mut items))?;
        let mut sum = Xxh3::new();
        sum.update(&count);
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
        let (_, n) = self.count::<T>()?;
        let bytes = n * std::mem::size_of::<T>() as u64 + 8;
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
