//! Printing to stdout. Every command prints through `out!` and
//! `outln!`, so a closed pipe (`asalto perft --depth 6 start | head -1`)
//! ends the program quietly with exit 0, as `head` expects, instead of the
//! panic of `println!`; any other write error is one line and exit 1.

use std::io::Write;

/// Write to stdout, ending the program on a write error.
pub fn write(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write the output: {e}");
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
