//! One frame: load results in, fixed steps, the scene, the HUD, a screenshot if one is
//! due, the swap; and the frame-time report of `--bench-frames`.

use std::time::{Duration, Instant};

use winit::event_loop::ActiveEventLoop;

use walkthrough_core::sim::ScriptEffect;

use walkthrough_core::player::{Mode, Stance};
use walkthrough_core::walk::WaterLevel;

use super::App;
use super::bench::BENCH_FRAME_TIME;
use super::loading::LoadStatus;
use super::render::DecalView;
use super::simulation::Advance;
use super::ui::browser;
use super::ui::hud::{self, HudState};
use super::ui::settings_panel::{self, PanelAnswer};
use super::water::{add_water, fog_at};

/// Colour of the body's wireframe, seen from the detached camera.
const BODY_LINE: [f32; 4] = [1.0, 1.0, 1.0, 0.9];

/// Most frames a second while a map loads in the background on a software renderer
/// (Mesa's llvmpipe), whose frames take the cores the load runs on: drawing the built-in
/// map as fast as it could, or 20 times a second, made the ten-million-triangle terrain's
/// load 40% slower (11.6 s, against 8.3 before the window opened); at 4 a second it took
/// 8.1 s. Enough for the progress bar and a walk meanwhile, though a key tapped for less
/// than a frame (a quarter of a second) may then not move the walker. A GPU draws as
/// usual.
pub const LOADING_FPS_SOFTWARE: f64 = 4.0;

impl App {
    /// Draw one frame (and simulate the time since the last one): advance the walk, draw
    /// the scene, draw the overlays, then what comes after the frame.
    pub(super) fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        let frame_start = Instant::now();
        self.poll_pads(frame_start);
        let advance = self.advance(self.sim_clock(frame_start));
        if !self.draw_scene(frame_start) {
            return;
        }
        self.draw_hud(advance.blocked, frame_start);
        self.shots.frame_drawn = true;
        self.after_frame(event_loop, frame_start);
    }

    /// The time the walk is simulated up to: now, or under `--bench-frames` the frame's
    /// number times [`BENCH_FRAME_TIME`].
    fn sim_clock(&self, now: Instant) -> Instant {
        match &self.shots.bench {
            Some(bench) => self.life.started + BENCH_FRAME_TIME * bench.measured() as u32,
            None => now,
        }
    }

    /// Run the walk (or fly the detached camera) up to `now`, and tell the HUD what
    /// happened.
    fn advance(&mut self, now: Instant) -> Advance {
        let debug = self.overlays.debug.on.then_some(&mut self.overlays.debug);
        // Detached, the keys fly the camera and the body gets no input.
        let keys = self
            .camera
            .free_camera
            .is_none()
            .then_some(&mut self.input.keys);
        let advance = self.sim.advance(now, keys, debug);
        if let Some(camera) = &mut self.camera.free_camera {
            let s = &self.sim.controller.settings;
            let intent = self.input.keys.take_intent();
            camera.fly(&intent, s.speed_for(intent.run), now);
        }
        if advance.blocked {
            self.overlays.hud.since_hit = 0.0;
            self.overlays.hud.hit_slid = advance.slid;
        }
        if self.camera.placed_view_stepped(advance.steps) && advance.pushed_out {
            self.overlays
                .hud
                .notify("the view's spot has no room now: moved to the nearest free one".into());
        }
        if let Some(refusal) = advance.refused {
            self.overlays.hud.notify(refusal.to_string());
        }
        if let Some(speed) = self.sim.speed_of(&advance) {
            self.overlays.hud.moving_at = speed;
        }
        let effects = self.sim.take_effects();
        self.apply_effects(effects);
        if let Some(step) = advance.script_finished_at {
            self.script_finished(step);
        }
        advance
    }

    /// Apply what the script asked of the view in this frame's steps.
    fn apply_effects(&mut self, effects: Vec<ScriptEffect>) {
        for effect in effects {
            match effect {
                ScriptEffect::View(kind) => self.set_view(kind),
                ScriptEffect::Decal(eye) => self.stick_decal(&eye),
                ScriptEffect::Measure(eye) => self.mark_point(&eye),
            }
        }
    }

    /// Draw the map and the 3D overlays (the debug view, the detached body, the person
    /// marker) from the view; false when there is nothing to draw into (no window yet, or
    /// minimised).
    fn draw_scene(&mut self, now: Instant) -> bool {
        let Some(gpu) = &mut self.gpu else {
            return false;
        };
        let size = gpu.ctx.window.inner_size();
        if size.width == 0 || size.height == 0 {
            return false;
        }
        let mut solid = std::mem::take(&mut self.overlays.debug.geometry.solid);
        solid.clear();
        let view = match &self.camera.free_camera {
            Some(c) => {
                // The boom is not drawn from: nothing pushes it in.
                self.camera.third.pressed_in = false;
                c.pose
            }
            None => self.camera_pose(now, &mut solid),
        };
        self.camera.drawn_look = self.camera.looking(self.sim.controller.pose);
        let Some(gpu) = &mut self.gpu else {
            return false;
        };
        self.camera.drawn_from = view;
        gpu.renderer.fov = self.prefs.fov();
        gpu.renderer
            .set_mover_poses(self.sim.session.mover_poses(&self.sim.session.map.moving));
        (gpu.renderer).set_fog(fog_at(&self.sim.session.water, view.position));
        gpu.renderer.draw(&view, size.width, size.height);
        let view_proj = gpu.renderer.projection(size.width, size.height) * view.view_matrix();
        let seen = DecalView {
            view_proj,
            eye: view.position,
            fog: gpu.renderer.fog(),
            clip_plane: None,
        };
        gpu.decal_draw.draw(&seen, &self.decals);
        let time = self.sim.time();
        self.draw_mirrors(&view, &seen, [size.width, size.height], time);
        let controller = &self.sim.controller;
        if self.overlays.debug.on {
            // Detached, the view holds what the body last touched, to look at it.
            let at = self.camera.free_camera.as_ref().map_or(now, |c| c.since);
            self.overlays.debug.build(self.sim.session.collider(), at);
        } else {
            self.overlays.debug.geometry.clear();
        }
        self.overlays.debug.geometry.solid = solid;
        if self.camera.free_camera.is_some() {
            let body = controller.body();
            let centre = body.centre_of(controller.pose.position);
            self.overlays
                .debug
                .geometry
                .ellipsoid(centre, body.radii, BODY_LINE);
        }
        // The marker is drawn into the same lines; the list is handed back after drawing.
        let mut overlay = std::mem::take(&mut self.overlays.debug.geometry);
        self.draw_marker(
            &mut overlay,
            now,
            size.width.max(1) as f32 / size.height.max(1) as f32,
        );
        self.draw_marks(&mut overlay);
        add_water(&mut overlay, &self.sim.session.water, &view);
        if let Some(gpu) = &mut self.gpu
            && !overlay.is_empty()
        {
            let view_proj = gpu.renderer.projection(size.width, size.height) * view.view_matrix();
            gpu.debug_draw.draw(view_proj, &overlay);
        }
        self.overlays.debug.geometry = overlay;
        if let Some(gpu) = &self.gpu {
            gpu.renderer.present();
        }
        true
    }

    /// Draw the HUD, the minimap and the notices (egui).
    fn draw_hud(&mut self, blocked: bool, now: Instant) {
        let fallen = self.fallen_off();
        let marker = self.memory.marker_shows(now);
        let Some(gpu) = &mut self.gpu else { return };
        let controller = &self.sim.controller;
        let s = &controller.settings;
        let wading = s.mode == Mode::Walk && controller.walk.water == WaterLevel::Wading;
        let stance = stance_line(
            controller.stance(),
            wading,
            self.sim.session.riding(controller),
            self.camera.third.pressed_in,
        );
        let loading = self.loading.as_mut().and_then(|l| {
            let status = l.status();
            if let Some(LoadStatus { line, fraction }) = status.as_ref().filter(|_| !l.shown) {
                // Said once, so that the user's terminal (and a test) hears of the bar.
                l.shown = true;
                crate::cli::terminal::say(&format!(
                    "{line} [progress bar shown at {:.0}%]",
                    fraction * 100.0
                ));
            }
            status
        });
        let state = HudState {
            response: s.response,
            mode: s.mode,
            method: s.method,
            position: self
                .sim
                .session
                .map
                .frame
                .to_file(controller.pose.position)
                .into(),
            speed: s.speed,
            captured: self.input.captured,
            settings_open: self.prefs.open || self.overlays.browser.is_some(),
            stance: &stance,
            fallen,
            loading: loading
                .as_ref()
                .map(|LoadStatus { line, fraction }| (line.as_str(), *fraction)),
            scripted: self.sim.scripted(),
            replay_speed: self.sim.replay_speed().unwrap_or(1),
            recording: self.sim.recording().then(|| {
                (self.config.window.record.as_deref())
                    .and_then(|p| p.file_name())
                    .and_then(|n| n.to_str())
                    .unwrap_or("(F5 stops and saves)")
            }),
            detached: self.camera.free_camera.is_some(),
            debug: self.overlays.debug.on.then(|| hud::DebugLine {
                tested: self.overlays.debug.account.tested.len(),
                contacts: self.overlays.debug.account.contacts.len(),
                sweeps: self.overlays.debug.account.sweeps,
                normal_deg: self.overlays.debug.last_normal_deg(),
                step_up: self.overlays.debug.last_step_up,
            }),
            offer: self.memory.offer.as_ref().map(|o| o.text.as_str()),
            marker,
            render_scale: self.prefs.live.render_scale,
        };
        let overlay = &mut self.overlays.hud;
        let minimap = &mut self.overlays.minimap;
        let prefs = &mut self.prefs;
        let eye = controller.pose.position;
        minimap.record(eye, blocked, now);
        let size = gpu.ctx.window.inner_size();
        let aspect = size.width.max(1) as f32 / size.height.max(1) as f32;
        let fov_across = prefs.fov().horizontal_deg(aspect);
        let mut answer = PanelAnswer::default();
        let browsing = &self.overlays.browser;
        let mut clicked = None;
        gpu.egui.run(&gpu.ctx.window, |ui| {
            // Under the help's table the minimap drew over it: it waits while the help shows.
            if !overlay.help {
                minimap.draw(ui.ctx(), eye, controller.pose.yaw_deg, fov_across);
            }
            hud::draw(ui, overlay, &state);
            answer = settings_panel::panel(prefs, ui.ctx());
            if let Some(b) = browsing {
                clicked = browser::draw(b, ui.ctx());
            }
        });
        gpu.egui.paint(&gpu.ctx.window);
        if let Some(before) = answer.changed {
            self.apply_settings(&before);
        }
        if answer.close {
            self.toggle_settings();
        }
        if let Some(row) = clicked {
            self.browser_clicked(row);
        }
        self.save_settings(false);
    }

    /// On a software renderer whose frames stay slow at full scale, say once that a
    /// render scale under 1 draws faster (not while a script or benchmark runs: their
    /// frames are not the user's to tune; nor while a map loads, when its frames are held
    /// back on purpose).
    fn suggest_render_scale(&mut self) {
        if self.loading.is_some() {
            self.prefs.scale_hint.pause();
            return;
        }
        let software = self.gpu.as_ref().is_some_and(|g| g.ctx.software);
        if software
            && self.prefs.live.render_scale >= 1.0
            && self.shots.bench.is_none()
            && !self.sim.scripted()
            && self
                .prefs
                .scale_hint
                .tell(self.overlays.hud.fps, Instant::now())
        {
            self.overlays.hud.notify(format!(
                "frames are slow here ({:.0} a second): a render scale under 1 (F2) draws fewer pixels, faster",
                self.overlays.hud.fps
            ));
        }
    }

    /// After the frame is drawn (on a software renderer at most [`LOADING_FPS_SOFTWARE`] a
    /// second while a map loads): the screenshot (it shows what the user sees, HUD and
    /// all), the swap, the frame's time, and quitting when it is time.
    fn after_frame(&mut self, event_loop: &ActiveEventLoop, frame_start: Instant) {
        if std::mem::take(&mut self.shots.f12_pending) {
            self.save_screenshot(None);
        }
        if std::mem::take(&mut self.shots.exit_shot_pending) {
            let path = self.config.window.screenshot.clone();
            self.save_screenshot(path.as_deref());
        }
        let Some(gpu) = &mut self.gpu else { return };
        let loading = (self.loading.is_some() && gpu.ctx.software).then_some(LOADING_FPS_SOFTWARE);
        if let Some(fps) = self
            .config
            .window
            .max_fps
            .into_iter()
            .chain(loading)
            .reduce(f64::min)
        {
            let least = Duration::from_secs_f64(1.0 / fps);
            std::thread::sleep(least.saturating_sub(frame_start.elapsed()));
        }
        if let Err(e) = gpu.ctx.swap() {
            self.life.fail(event_loop, e);
            return;
        }
        if self.life.quitting {
            event_loop.exit();
            return;
        }
        let frame = frame_start.elapsed();
        self.overlays.hud.count_frame(frame.as_secs_f32());
        self.suggest_render_scale();
        self.overlays.hud.since_hit += frame.as_secs_f32();
        if let Some(bench) = &mut self.shots.bench {
            let gpu = self.gpu.as_ref();
            // The scene's pixels (fewer than the window's at a render scale under 1).
            let pixels = gpu.map_or(1.0, |g| g.renderer.scene_pixels());
            let stats = gpu.map(|g| g.renderer.stats()).unwrap_or_default();
            if bench.record(frame, stats, pixels) {
                let memory =
                    crate::cli::terminal::peak_memory().unwrap_or_else(|| "unknown".into());
                if let Err(e) = bench.report(&memory) {
                    self.life.error = Some(e);
                }
                event_loop.exit();
            }
        }
        if self.exit_after_passed() {
            self.exit(event_loop);
        }
    }

    /// `--exit-after`'s time has passed since the map came in.
    pub(super) fn exit_after_passed(&self) -> bool {
        self.config.window.exit_after().is_some_and(|limit| {
            !self.first_loading() && self.life.started.elapsed().as_secs_f32() >= limit
        })
    }

    /// The script ran out (and its trace ended with it): the screenshot is taken, and with
    /// `--exit-when-done` the window closes after this frame.
    fn script_finished(&mut self, step: u64) {
        let next = if self.config.window.exit_when_done {
            "the window closes (--exit-when-done)"
        } else {
            "the keys drive now"
        };
        self.overlays
            .hud
            .notify(format!("script finished at step {step}; {next}"));
        self.script_ended_settings();
        if self.config.window.screenshot.is_some() {
            self.shots.exit_shot_pending = true;
        }
        if self.config.window.exit_when_done {
            self.life.quitting = true;
        }
    }
}

/// The HUD's stance line: the stance, ", wading" with the feet in water (swimming is a
/// stance of its own), and the scene's model ridden, named from 1 as in its messages.
fn stance_line(stance: Stance, wading: bool, riding: Option<usize>, pressed_in: bool) -> String {
    let mut line = stance.name().to_string();
    if wading {
        line.push_str(", wading");
    }
    if let Some(i) = riding {
        line.push_str(&format!(", riding model {} of the scene", i + 1));
    }
    if pressed_in {
        line.push_str("; camera pushed in close (the map behind)");
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hud_said_on_ground_while_wading() {
        assert_eq!(
            stance_line(Stance::OnGround, true, None, false),
            "on ground, wading"
        );
        assert_eq!(
            stance_line(Stance::OnGround, false, None, false),
            "on ground"
        );
        assert_eq!(
            stance_line(Stance::Swimming, false, None, false),
            "swimming"
        );
        assert_eq!(
            stance_line(Stance::Crouched, true, Some(1), false),
            "crouched, wading, riding model 2 of the scene"
        );
    }

    /// In third person with a wall right behind, the view looked
    /// like first person and nothing said why.
    #[test]
    fn the_hud_says_when_a_wall_pushes_the_third_person_camera_in() {
        assert_eq!(
            stance_line(Stance::OnGround, false, None, true),
            "on ground; camera pushed in close (the map behind)"
        );
    }
}
