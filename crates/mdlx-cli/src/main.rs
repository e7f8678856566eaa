//! `mdlx`: the command-line tool. Parses arguments, runs the verb, maps the outcome to an
//! exit code (0 success, 1 failure, 2 usage); messages are prefixed with the program name.

mod cli;
mod cmd;
mod files;

use clap::Parser;
use std::io::ErrorKind;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    let result = match args.command {
        cli::Command::Info { file, json } => cmd::info::run(&file, json),
        cli::Command::Convert {
            input,
            output,
            to,
            moment,
            fps,
            frames,
            strict_mdl,
            allow_lossy,
        } => cmd::convert::run(
            &input,
            &output,
            to.as_deref(),
            cmd::convert::Options {
                strict_mdl,
                allow_lossy,
                moment: moment.into(),
                fps,
                ranges: frames,
            },
        ),
        cli::Command::Pose { file, moment, json } => cmd::pose::run(&file, &moment.into(), json),
        cli::Command::Roundtrip { paths, via } => cmd::roundtrip::run(&paths, via.is_some()),
        cli::Command::Bench { dir, repeat } => cmd::bench::run(&dir, repeat),
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
            ExitCode::from(1)
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
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
