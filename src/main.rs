//! The walkthrough binary's entry point: the command line read and dispatched to the
//! headless `sim` ([`cli::sim`]) or the window ([`app`]), and the run ended.
#![deny(unsafe_code)]

// First: its line-writing macros are for the modules after it.
#[macro_use]
mod cli;
mod app;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

use walkthrough_core::text::quote::escape_lines;

use cli::options::Common;
use cli::terminal;

/// Walk through an OBJ map in first person; walls stop you or let you slide.
///
/// With no MAP, opens the built-in map. The controls are listed below and under F1 in
/// the window.
#[derive(Parser, Debug)]
#[command(name = "walkthrough", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    #[command(flatten)]
    window: WindowArgs,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Run a script headless (no window) and print the trace CSV.
    #[command(override_usage = "walkthrough sim [MAP] --script <SCRIPT> [OPTIONS]")]
    Sim(cli::sim::SimArgs),
}

/// The window's command line: the map, the options shared with `sim`, its own.
#[derive(Args, Debug)]
struct WindowArgs {
    /// OBJ map or TOML scene to open (default: the built-in map).
    map: Option<PathBuf>,
    #[command(flatten)]
    common: Common,
    #[command(flatten)]
    window: app::WindowOptions,
}

fn main() -> ExitCode {
    terminal::catch_signals();
    let command = Cli::command().after_help(format!(
        "Controls in the window:\n{}",
        app::controls::plain_text()
    ));
    let cli = match command
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    let result = match cli.command {
        Some(Cmd::Sim(args)) => cli::sim::run(args),
        None => run_window(cli.window),
    };
    // A built map still being written to the cache is waited for (left a part, its file
    // would be of no use), said, as it can take seconds after the walk has ended; unless
    // the user interrupts the program, before or during the wait, who wants it to end
    // now: it is given up.
    if !terminal::interrupted() && walkthrough_core::session::cache::keeping_now() {
        terminal::say(
            "writing the rest of the built map to the cache of built maps, for the next open (Ctrl-C gives it up)",
        );
    }
    terminal::end_run(result, &terminal::interrupted)
}

/// A command line clap refuses, said as every other error is (`walkthrough: error: ...`,
/// with clap's tip), exit code 2 (a usage error, as clap exits); `--help` and
/// `--version` printed as clap prints them.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        // Printed and flushed here, not by clap's `exit`, which takes a help that could
        // not be written (`--help >/dev/full`) for a success.
        let printed = e
            .print()
            .and_then(|()| std::io::Write::flush(&mut std::io::stdout()));
        return match printed {
            Ok(()) => ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2)),
            // A reader that has read enough (`--help | head -1`) closes the pipe: what
            // it wanted was written, as a shell tool ends quietly when its reader goes.
            Err(why) if why.kind() == std::io::ErrorKind::BrokenPipe => {
                ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
            }
            Err(why) => {
                tell!("walkthrough: error: cannot write the help: {why}");
                ExitCode::FAILURE
            }
        };
    }
    let text = e.render().to_string();
    let text = text.strip_prefix("error: ").unwrap_or(&text);
    // clap calls a second map a subcommand it does not know, and after a bad option
    // gives the usage as if a map were needed: both read wrong to a user. Said plainly,
    // with the whole usage.
    let full_usage = Cli::command().render_usage().to_string();
    let second = e.get(ContextKind::InvalidSubcommand).filter(|_| {
        e.kind() == ErrorKind::ArgumentConflict
            && matches!(e.get(ContextKind::PriorArg), Some(ContextValue::String(m)) if m == "[MAP]")
    });
    // An option of the window given to `sim`, or of `sim` to the window: clap's "unexpected
    // argument" and its tip to pass it as a value read as a typo.
    let elsewhere = match (e.kind(), e.get(ContextKind::InvalidArg)) {
        (ErrorKind::UnknownArgument, Some(ContextValue::String(arg))) => other_command_s(arg),
        _ => None,
    };
    // `walkthrough ""` (an empty path from a script's unset variable, say): clap's "a
    // value is required for '[MAP]'" read as if a map were needed.
    let empty_map = e.kind() == ErrorKind::InvalidValue
        && matches!(e.get(ContextKind::InvalidArg), Some(ContextValue::String(m)) if m == "[MAP]");
    if empty_map {
        tell!(
            "walkthrough: error: the map's path is empty: name an OBJ or scene file, or give none for the built-in map"
        );
        return ExitCode::from(2);
    }
    let text = match (second, elsewhere) {
        (Some(extra), _) => format!(
            "one map at a time: '{extra}' would be a second (the one command is 'sim')\n\n{full_usage}\n\nFor more information, try '--help'."
        ),
        (None, Some(said)) => said,
        (None, None) => text.replace("Usage: walkthrough <MAP>", &full_usage),
    };
    tell!("walkthrough: error: {}", escape_lines(text.trim_end()));
    ExitCode::from(2)
}

/// When the option `arg` (`--name`, perhaps `=value`) is one of the window's that `sim`
/// has not, or one of `sim`'s that the window has not: which it is, said plainly.
fn other_command_s(arg: &str) -> Option<String> {
    let long = arg.strip_prefix("--")?.split('=').next()?;
    let window = Cli::command();
    let sim = window.find_subcommand("sim")?.clone();
    let has = |c: &clap::Command| c.get_arguments().any(|a| a.get_long() == Some(long));
    match (has(&window), has(&sim)) {
        (true, false) => Some(format!(
            "--{long} is an option of the window, not of 'sim': walkthrough [MAP] --{long} ...\n\nFor more information, try 'walkthrough --help'."
        )),
        (false, true) => Some(format!(
            "--{long} is an option of 'sim', not of the window: walkthrough sim [MAP] --{long} ...\n\nFor more information, try 'walkthrough sim --help'."
        )),
        _ => None,
    }
}

fn run_window(args: WindowArgs) -> Result<(), String> {
    app::run(args.map, args.common, args.window)
}
