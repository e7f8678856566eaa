//! `mdlx`: the command-line tool. Parses arguments, runs the verb, maps the outcome to an
//! exit code (0 success, 1 failure, 2 usage); messages are prefixed with the program name.
#![forbid(unsafe_code)]

mod archive;
mod cli;
mod cmd;
mod files;
mod input;
mod paths;
mod report;
mod text;
#[cfg(feature = "view")]
mod view;

use clap::CommandFactory;
use std::fmt;
use std::io::ErrorKind;
use std::process::ExitCode;

/// What every verb is told besides its own arguments.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ctx {
    /// No warnings or loss notes on stderr.
    pub quiet: bool,
    /// Refuse input that a lenient reader would repair with a warning.
    pub strict: bool,
}

impl Ctx {
    /// Prints notes about `file` on stderr unless quiet.
    pub fn print_notes(&self, file: &str, notes: &[report::Note]) {
        if !self.quiet {
            report::print_notes(file, notes, &mut |l| eprintln!("{l}"));
        }
    }
}

/// A usage error found after parsing (a combination of arguments that cannot work): exit
/// status 2, like the errors clap finds.
#[derive(Debug)]
pub struct Usage(pub String);

impl fmt::Display for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// A [`Usage`] error, ready for `?`.
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    Usage(message.into()).into()
}

/// Parses the command line; a usage error clap finds is printed in our one form
/// (`mdlx: error: ...`, then clap's usage and hint) with exit status 2. Help and version
/// requests print as clap prints them.
/// The parsed arguments, kept for the verbs that need the order their flags were given in
/// (`edit`).
static MATCHES: std::sync::OnceLock<clap::ArgMatches> = std::sync::OnceLock::new();

fn parse_args() -> Result<cli::Cli, ExitCode> {
    use clap::error::ErrorKind as K;
    use clap::FromArgMatches;
    let parsed = cli::Cli::command()
        .try_get_matches()
        .and_then(|m| cli::Cli::from_arg_matches(&m).map(|c| (c, m)));
    match parsed {
        Ok((args, m)) => {
            let _ = MATCHES.set(m);
            Ok(args)
        }
        Err(e) => match e.kind() {
            K::DisplayHelp | K::DisplayVersion | K::DisplayHelpOnMissingArgumentOrSubcommand => {
                e.exit()
            }
            _ => {
                let text = e.render().to_string();
                let text = text.strip_prefix("error: ").unwrap_or(&text);
                eprint!("mdlx: error: {text}");
                Err(ExitCode::from(2))
            }
        },
    }
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(code) => return code,
    };
    let Some(verb) = args.command.common() else {
        if args.common.quiet || args.common.strict {
            eprintln!(
                "mdlx: error: --quiet and --strict apply to info, convert, check, pose, render, view and optimize\n\nFor more information, try '--help'."
            );
            return ExitCode::from(2);
        }
        return run(args.command, Ctx::default());
    };
    let ctx = Ctx {
        quiet: args.common.quiet || verb.quiet,
        strict: args.common.strict || verb.strict,
    };
    run(args.command, ctx)
}

/// Runs the verb and maps its outcome to the exit status (0, 1, or 2 for a usage error),
/// printing an error as `mdlx: error: ...`.
fn run(command: cli::Command, ctx: Ctx) -> ExitCode {
    let result = match command {
        cli::Command::Info { files, json, .. } => cmd::info::run(&ctx, &files, json),
        cli::Command::Ls {
            archive,
            patterns,
            long,
            json,
        } => cmd::archive::ls(&archive, &patterns, long, json),
        cli::Command::Update(a) => cmd::archive::update(&a),
        cli::Command::Edit(a) => MATCHES
            .get()
            .and_then(|m| m.subcommand_matches("edit"))
            .ok_or_else(|| anyhow::anyhow!("the edit verb's arguments are missing"))
            .and_then(cli::edit_operations)
            .and_then(|ops| cmd::edit::run(&ctx, &a, &ops)),
        cli::Command::Extract {
            archive,
            dir,
            patterns,
            quiet,
        } => cmd::archive::extract(&archive, &dir, &patterns, quiet),
        cli::Command::Convert(a) => {
            cmd::convert::run(&ctx, &a.input, &a.output, a.to.as_deref(), &(&a).into())
        }
        cli::Command::Check(a) => cmd::check::run(&ctx, &a.paths, &(&a).into()),
        cli::Command::Render {
            input,
            output,
            args,
            ..
        } => cmd::render::run(&ctx, &input, &output, &args),
        #[cfg(feature = "view")]
        cli::Command::View { file, args, .. } => cmd::view::run(&ctx, &file, &args),
        cli::Command::Pose {
            file, moment, json, ..
        } => cmd::pose::run(&ctx, &file, &moment.into(), json),
        cli::Command::Optimize(a) => {
            cmd::optimize::run(&ctx, &a.input, a.output.as_deref(), &(&a).into())
        }
        cli::Command::Roundtrip { paths, via, json } => {
            cmd::roundtrip::run(&paths, via.is_some(), json)
        }
        cli::Command::Completions { shell } => {
            // Into memory first: clap_complete panics when its writer fails (a closed pipe).
            let mut command = cli::Cli::command();
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command, "mdlx", &mut script);
            std::io::Write::write_all(&mut std::io::stdout(), &script)
                .map(|()| ExitCode::SUCCESS)
                .map_err(anyhow::Error::from)
        }
        cli::Command::Bench { dir, repeat } => cmd::bench::run(&dir, repeat),
        cli::Command::Icon(a) => cmd::icon::run(&ctx, &a),
        cli::Command::Portrait(a) => cmd::portrait::run(&ctx, &a),
    };
    if std::env::var_os("MDLX_REPORT_PEAK_RSS").is_some() {
        report_peak_rss();
    }
    match result {
        Ok(code) => code,
        Err(e) => {
            // A closed pipe (`mdlx info x | head`) is not an error.
            if is_broken_pipe(&e) {
                return ExitCode::SUCCESS;
            }
            eprintln!("mdlx: error: {e:#}");
            if e.downcast_ref::<Usage>().is_some() {
                eprintln!("For more information, try '--help'.");
                return ExitCode::from(2);
            }
            ExitCode::from(1)
        }
    }
}

/// Whether the error is a closed pipe on output (`mdlx info x | head`), which is no error.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == ErrorKind::BrokenPipe)
            || c.downcast_ref::<serde_json::Error>()
                .and_then(|j| j.io_error_kind())
                == Some(ErrorKind::BrokenPipe)
    })
}

/// With `MDLX_REPORT_PEAK_RSS` set, prints this process's peak resident memory (Linux
/// `VmHWM`) to stderr: how the memory bound on hostile input is measured.
fn report_peak_rss() {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    match status.lines().find_map(|l| l.strip_prefix("VmHWM:")) {
        Some(v) => eprintln!("mdlx: peak resident memory: {}", v.trim()),
        None => eprintln!("mdlx: peak resident memory: unknown on this system"),
    }
}
