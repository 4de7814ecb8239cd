//! Printing. Every command prints to stdout through `out!` and `outln!`,
//! so a closed pipe (`asalto perft --depth 6 start | head -1`) ends the
//! program quietly with exit 0, as `head` expects, instead of the panic of
//! `println!`; any other write error is one line and exit 1. Messages,
//! progress lines and errors go to stderr through `errln!`, which drops
//! what cannot be written (`asalto build ... 2>&1 | head -3`): a build
//! goes on and an error still ends with its exit status, where
//! `eprintln!` would panic.

use std::io::Write;

/// Write to stderr, dropping what cannot be written (a closed stderr).
pub fn write_err(args: std::fmt::Arguments) {
    // Nowhere is left to say it: the exit status says how the command ended.
    let _ = std::io::stderr().lock().write_fmt(args);
}

/// `eprintln!` through [`write_err()`].
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::cli::out::write_err(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Write to stdout, ending the program on a write error.
pub fn write(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        errln!("error: cannot write the output: {e}");
        std::process::exit(1);
    }
}

/// `print!` through [`write()`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::out::write(format_args!($($arg)*))
    };
}

/// `println!` through [`write()`].
macro_rules! outln {
    () => {
        $crate::cli::out::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::out::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}
