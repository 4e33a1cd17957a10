//! The map's ambient occlusion on the GPU, for the `lighting` setting: baked on a thread
//! of its own ([`walkthrough_core::ambient`], about a second for conference) or read from
//! the cache folder ([`walkthrough_core::session::cache::ambient`]), then one byte a
//! vertex in a buffer the scene's vertex array reads as [`AMBIENT_LOCATION`]. Until it
//! comes (and for the movers, whose arrays have no such buffer) the attribute is 1: all
//! the ambient light.
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use glow::HasContext;
use walkthrough_core::ambient::{AMBIENT_MAX_TRIANGLES, Ambient, NotBaked, bake};
use walkthrough_core::cull::ClusteredMesh;
use walkthrough_core::session::cache::ambient::{fingerprint, load, store};
use walkthrough_core::session::cache::levels::MAX_FOLDER_BYTES;
use walkthrough_core::store::cache_dir;

use super::gl::check_gl;

/// The vertex attribute the scene's shader reads a vertex's ambient light from (as
/// `shaders/scene.vert` declares it).
pub const AMBIENT_LOCATION: u32 = 3;

/// The ambient light of a vertex whose map has none yet: all of it.
const ALL_LIGHT: f32 = 1.0;

/// Where the map's ambient occlusion stands.
enum State {
    /// None asked for this mesh yet.
    Idle,
    /// Being baked or read.
    Coming(Job),
    /// In the buffer, read by the vertex array.
    Shown,
    /// The bake failed (its thread could not start, or stopped): the map is lit without.
    Failed,
}

/// A bake (or a read of the cache) on its thread.
struct Job {
    result: Receiver<Baked>,
    /// Cleared to stop the bake (the map changed).
    wanted: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// What a job came to.
struct Baked {
    ambient: Ambient,
    took: Duration,
    from_cache: bool,
}

/// The map's ambient occlusion: its buffer and where its values stand. The buffer is
/// deleted on drop; the vertex array's attribute is the caller's to turn off first
/// ([`AmbientOcclusion::reset`]).
pub struct AmbientOcclusion {
    gl: Arc<glow::Context>,
    buffer: glow::Buffer,
    state: State,
}

impl AmbientOcclusion {
    /// A buffer for it; nothing asked for yet.
    pub fn new(gl: Arc<glow::Context>) -> Result<AmbientOcclusion, String> {
        // SAFETY: context current; the buffer is owned by the returned value.
        let buffer = unsafe { gl.create_buffer() }?;
        Ok(AmbientOcclusion {
            gl,
            buffer,
            state: State::Idle,
        })
    }

    /// Each frame: ask for `mesh`'s occlusion once, and when it has come, put it in the
    /// buffer and point `vao`'s attribute at it.
    pub fn update(&mut self, mesh: &Arc<ClusteredMesh>, vao: glow::VertexArray) {
        match &mut self.state {
            State::Idle => self.state = start(Arc::clone(mesh)),
            State::Coming(job) => match job.result.try_recv() {
                Ok(baked) if baked.ambient.light.len() == mesh.vertices.len() => {
                    self.show(&baked.ambient, vao);
                    tell!(
                        "ambient occlusion: {} vertices, {} in {:.0} ms",
                        baked.ambient.light.len(),
                        if baked.from_cache {
                            "read from the cache"
                        } else {
                            "baked"
                        },
                        baked.took.as_secs_f64() * 1000.0
                    );
                    self.state = State::Shown;
                }
                Ok(_) | Err(TryRecvError::Disconnected) => {
                    let failed = job.thread.take().is_some_and(|t| t.join().is_err());
                    if failed {
                        tell!("warning: no ambient occlusion (its thread failed)");
                    }
                    self.state = State::Failed;
                }
                Err(TryRecvError::Empty) => {}
            },
            State::Shown | State::Failed => {}
        }
    }

    /// The mesh changed (another map, or scaled): `vao` reads all the light again, a bake
    /// under way stops, and the next [`AmbientOcclusion::update`] asks anew.
    pub fn reset(&mut self, vao: glow::VertexArray) {
        if let State::Coming(job) = &self.state {
            job.wanted.store(false, Ordering::Relaxed);
        }
        self.state = State::Idle;
        // SAFETY: context current; the array is the caller's and alive.
        unsafe {
            self.gl.bind_vertex_array(Some(vao));
            self.gl.disable_vertex_attrib_array(AMBIENT_LOCATION);
            self.gl.bind_vertex_array(None);
        }
    }

    /// Put `ambient` in the buffer and point `vao`'s attribute at it, one byte a vertex
    /// read as 0 to 1.
    fn show(&self, ambient: &Ambient, vao: glow::VertexArray) {
        let gl = &self.gl;
        // SAFETY: context current; the buffer is owned by self, the array the caller's;
        // the attribute reads one byte a vertex, which the buffer holds for every vertex.
        unsafe {
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.buffer));
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, &ambient.light, glow::STATIC_DRAW);
            gl.vertex_attrib_pointer_f32(AMBIENT_LOCATION, 1, glow::UNSIGNED_BYTE, true, 1, 0);
            gl.enable_vertex_attrib_array(AMBIENT_LOCATION);
            check_gl!(gl, "the ambient occlusion upload");
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
        }
    }
}

/// Every vertex array without the attribute's buffer (the movers') reads all the light.
/// The value is the context's, not an array's: set once a frame, as egui may draw between.
pub fn all_light_elsewhere(gl: &glow::Context) {
    // SAFETY: context current; a plain state call.
    unsafe { gl.vertex_attrib_1_f32(AMBIENT_LOCATION, ALL_LIGHT) };
}

impl Drop for AmbientOcclusion {
    fn drop(&mut self) {
        if let State::Coming(job) = &self.state {
            job.wanted.store(false, Ordering::Relaxed);
        }
        // SAFETY: the renderer drops this while its context is current.
        unsafe { self.gl.delete_buffer(self.buffer) };
    }
}

/// Read `mesh`'s occlusion from the cache folder, or bake it (on every core) and keep it
/// there, on a thread; [`State::Failed`] when the system refuses the thread.
fn start(mesh: Arc<ClusteredMesh>) -> State {
    let wanted = Arc::new(AtomicBool::new(true));
    let (send, result) = mpsc::channel();
    let still = Arc::clone(&wanted);
    let thread = std::thread::Builder::new()
        .name("ambient occlusion".into())
        .spawn(move || {
            let started = Instant::now();
            let fp = fingerprint(&mesh);
            let dir = cache_dir();
            match dir.as_deref().and_then(|d| load(d, &mesh, fp)) {
                Some(Ok(ambient)) => {
                    let _ = send.send(Baked {
                        ambient,
                        took: started.elapsed(),
                        from_cache: true,
                    });
                    return;
                }
                Some(Err(e)) => tell!("warning: {e}; the ambient occlusion is baked again"),
                None => {}
            }
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
            let ambient = match bake(&mesh, threads, &|| still.load(Ordering::Relaxed)) {
                Ok(ambient) => ambient,
                Err(NotBaked::NotWanted) => return,
                Err(NotBaked::TooBig { triangles }) => {
                    tell!(
                        "ambient occlusion: none for a map of {triangles} triangles (more than {AMBIENT_MAX_TRIANGLES})"
                    );
                    return;
                }
            };
            let took = started.elapsed();
            if let Some(dir) = dir
                && let Err(e) = store(&dir, fp, &ambient, MAX_FOLDER_BYTES)
            {
                tell!("warning: the ambient occlusion is not kept for next time: {e}");
            }
            let _ = send.send(Baked {
                ambient,
                took,
                from_cache: false,
            });
        });
    match thread {
        Ok(thread) => State::Coming(Job {
            result,
            wanted,
            thread: Some(thread),
        }),
        Err(e) => {
            tell!("warning: no ambient occlusion (no thread: {e})");
            State::Failed
        }
    }
}
