//! How much of the map the renderer leaves out each frame, and which way is the default
//! on which renderer: measured, since what pays on a software rasterizer costs a GPU.

use std::fmt;
use std::str::FromStr;

/// What the renderer leaves out of a frame (`--culling`; `--no-cull` is `Off`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Culling {
    /// Every cluster of the map, in material order, two-sided: the reference picture.
    Off,
    /// The clusters whose boxes meet the view's frustum, each at its level of detail,
    /// nearest first, the back faces of closed solids culled.
    Frustum,
    /// As `Frustum`, less the meshlets and triangles hidden behind what is already
    /// drawn, tested on the CPU against the depth read back mid-frame
    /// ([`walkthrough::cull::occlusion`]).
    Occlusion,
}

impl Culling {
    /// Every way, in the order `--help` lists them.
    pub const ALL: [Culling; 3] = [Culling::Off, Culling::Frustum, Culling::Occlusion];

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

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Culling::Off => "off",
            Culling::Frustum => "frustum",
            Culling::Occlusion => "occlusion",
        }
    }
}

impl fmt::Display for Culling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Culling {
    type Err = String;

    fn from_str(s: &str) -> Result<Culling, String> {
        Culling::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                let names: Vec<&str> = Culling::ALL.iter().map(|c| c.name()).collect();
                format!("no culling called {s:?}: {}", names.join(", "))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_an_unknown_name_lists_the_known_ones() {
        for c in Culling::ALL {
            assert_eq!(c.name().parse::<Culling>(), Ok(c));
            assert_eq!(c.to_string().to_uppercase().parse::<Culling>(), Ok(c));
        }
        let e = "hierarchical".parse::<Culling>().unwrap_err();
        assert!(
            e.contains("hierarchical") && e.contains("off, frustum, occlusion"),
            "{e}"
        );
    }

    #[test]
    fn occlusion_culling_is_the_default_only_on_a_software_renderer() {
        assert_eq!(Culling::default_for(true), Culling::Occlusion);
        assert_eq!(Culling::default_for(false), Culling::Frustum);
    }
}
