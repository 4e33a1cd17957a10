//! Numbers as keys: positions (and texture coordinates) compared bit for bit, for joining
//! corners that are the same point.

/// The bits of `v`'s numbers with -0 taken as 0: equal exactly when the numbers are (a
/// file may write either on the two sides of a seam), for joining corners by position.
pub fn key_bits<const N: usize>(v: [f32; N]) -> [u32; N] {
    v.map(|x| (x + 0.0).to_bits())
}
