//! How much of the map the renderer leaves out each frame, and which way is the default
//! on which renderer: measured, since what pays on a software rasterizer costs a GPU.

/// What the renderer leaves out of a frame (`--culling`; `--no-cull` is `Off`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Culling {
    /// Every cluster of the map, in material order, two-sided: the reference picture.
    Off,
    /// What the view's frustum holds, nearest first, each cluster at its level of detail
    /// and the back faces of closed solids culled.
    Frustum,
    /// As frustum, less what is hidden behind what is already drawn: the depth is read
    /// back mid-frame and the meshlets and triangles tested against it on the CPU.
    // (These lines are `--help`'s: the tests are walkthrough_core::cull::occlusion's.)
    Occlusion,
}

impl Culling {
    /// The default for a renderer. A software rasterizer pays for every layer of pixels
    /// it rasterizes, and reading its depth back costs it about half a millisecond:
    /// occlusion culling took Lost Empire's frame from 5x the built-in map's to 2.6x on
    /// llvmpipe. A GPU rasterizes hidden layers almost for free but must finish the
    /// first pass before the CPU can read its depth, and then waits for the CPU's tests:
    /// on an NVIDIA H200 the read made conference's and Lost Empire's frames slower
    /// than drawing the whole map, while the frustum alone is no slower (README,
    /// Performance).
    pub fn default_for(software: bool) -> Culling {
        if software {
            Culling::Occlusion
        } else {
            Culling::Frustum
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occlusion_culling_is_the_default_only_on_a_software_renderer() {
        assert_eq!(Culling::default_for(true), Culling::Occlusion);
        assert_eq!(Culling::default_for(false), Culling::Frustum);
    }
}
